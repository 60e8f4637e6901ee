// `aeval score` on audio files and .npy embeddings the test makes itself.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

#include "aeval/audio_io.hpp"
#include "aeval/metrics/audio_pair.hpp"
#include "aeval/npy.hpp"
#include "support/run_aeval.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::run_aeval;
using aeval::testing::TempDir;

// Two seconds of a speech-like signal (amplitude-modulated harmonics) and a noisy copy.
void write_pair(const std::filesystem::path& clean, const std::filesystem::path& noisy, double noise, int rate = 16000,
                std::size_t length = 32000) {
  std::mt19937 rng(3);
  std::normal_distribution<double> gauss(0, 1);
  aeval::Audio a{{}, rate, 1}, b{{}, rate, 1};
  for (std::size_t i = 0; i < length; ++i) {
    const double t = double(i) / rate;
    const double envelope = 0.5 + 0.5 * std::sin(2 * M_PI * 3 * t);
    double s = 0;
    for (int h = 1; h <= 8; ++h) s += std::sin(2 * M_PI * 180 * h * t) / h;
    a.samples.push_back(float(0.2 * envelope * s));
    b.samples.push_back(float(0.2 * envelope * s + noise * gauss(rng)));
  }
  aeval::write_wav(clean, a, aeval::WavEncoding::float32);
  aeval::write_wav(noisy, b, aeval::WavEncoding::float32);
}

TEST(ScoreSignalE2E, StoiFallsWithNoiseAndDirectoryModeMatchesByName) {
  TempDir dir;
  std::filesystem::create_directories(dir / "clean");
  std::filesystem::create_directories(dir / "noisy");
  write_pair(dir / "clean/a.wav", dir / "noisy/a.wav", 0.01);
  write_pair(dir / "clean/b.wav", dir / "noisy/b.wav", 0.3);
  const auto light = nlohmann::json::parse(
      run_aeval("score stoi --ref " + (dir / "clean/a.wav").string() + " --deg " + (dir / "noisy/a.wav").string(), false)
          .output);
  const auto heavy = nlohmann::json::parse(
      run_aeval("score stoi --ref " + (dir / "clean/b.wav").string() + " --deg " + (dir / "noisy/b.wav").string(), false)
          .output);
  EXPECT_GT(light["score"].get<double>(), heavy["score"].get<double>());
  const auto o = run_aeval("score si-sdr --ref-dir " + (dir / "clean").string() + " --deg-dir " + (dir / "noisy").string() +
                           " --per-sample " + (dir / "per.jsonl").string(), false);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(nlohmann::json::parse(o.output)["files"], 2);
  const std::string lines = aeval::testing::read_bytes(dir / "per.jsonl");
  EXPECT_NE(lines.find("a.wav"), std::string::npos);
}

TEST(ScoreSignalE2E, SpectralDistancesGrowWithNoise) {
  TempDir dir;
  write_pair(dir / "clean.wav", dir / "light.wav", 0.01);
  write_pair(dir / "unused.wav", dir / "heavy.wav", 0.3);
  for (const char* metric : {"mel-l1", "msspec", "mcd"}) {
    const auto score = [&](const char* degraded) {
      const auto o = run_aeval(std::string("score ") + metric + " --ref " + (dir / "clean.wav").string() + " --deg " +
                               (dir / degraded).string(), false);
      EXPECT_EQ(o.status, 0) << o.output;
      return nlohmann::json::parse(o.output)["score"].get<double>();
    };
    EXPECT_LT(score("light.wav"), score("heavy.wav")) << metric;
  }
}

TEST(ScoreSignalE2E, LengthMismatchIsAnErrorUnlessTrimmed) {
  TempDir dir;
  write_pair(dir / "a.wav", dir / "b_full.wav", 0.05);
  write_pair(dir / "unused.wav", dir / "b.wav", 0.05, 16000, 30000);
  const std::string args = " --ref " + (dir / "a.wav").string() + " --deg " + (dir / "b.wav").string();
  const auto failing = run_aeval("score si-sdr" + args);
  EXPECT_EQ(failing.status, 1);
  EXPECT_NE(failing.output.find("--trim"), std::string::npos) << failing.output;
  const auto trimmed = run_aeval("score si-sdr --trim --per-sample " + (dir / "p.jsonl").string() + args, false);
  EXPECT_EQ(trimmed.status, 0) << trimmed.output;
  EXPECT_NE(aeval::testing::read_bytes(dir / "p.jsonl").find("trimmed to 30000"), std::string::npos);
}

TEST(ScoreSignalE2E, SilentCleanAudioIsAClearError) {
  TempDir dir;
  aeval::write_wav(dir / "silent.wav", aeval::Audio{std::vector<float>(16000, 0.0f), 16000, 1});
  write_pair(dir / "x.wav", dir / "y.wav", 0.1, 16000, 16000);
  const auto o = run_aeval("score stoi --ref " + (dir / "silent.wav").string() + " --deg " + (dir / "y.wav").string());
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.output.find("silent"), std::string::npos) << o.output;
}

TEST(ScoreSignalE2E, FadWithAStatisticsCache) {
  TempDir dir;
  std::mt19937 rng(5);
  std::normal_distribution<double> gauss(0, 1);
  auto set = [&](double shift) {
    aeval::NpyArray a{{200, 4}, "f8", {}};
    for (int i = 0; i < 800; ++i) a.values.push_back(gauss(rng) + shift);
    return a;
  };
  aeval::write_npy(dir / "ref.npy", set(0));
  aeval::write_npy(dir / "near.npy", set(0.1));
  aeval::write_npy(dir / "far.npy", set(2.0));
  const auto first = run_aeval("score fad --ref " + (dir / "ref.npy").string() + " --hyp " + (dir / "near.npy").string() +
                               " --save-ref-stats " + (dir / "stats").string(), false);
  ASSERT_EQ(first.status, 0) << first.output;
  const auto cached = run_aeval("score fad --ref-stats " + (dir / "stats").string() + " --hyp " + (dir / "near.npy").string(), false);
  const auto far = run_aeval("score fad --ref-stats " + (dir / "stats").string() + " --hyp " + (dir / "far.npy").string(), false);
  EXPECT_EQ(nlohmann::json::parse(first.output)["fad"], nlohmann::json::parse(cached.output)["fad"]);
  EXPECT_GT(nlohmann::json::parse(far.output)["fad"].get<double>(), nlohmann::json::parse(cached.output)["fad"].get<double>());
}

TEST(ScoreSignalE2E, EmbeddingErrorsAreClear) {
  TempDir dir;
  aeval::write_npy(dir / "a.npy", aeval::NpyArray{{2, 3}, "f4", {1, 2, 3, 4, 5, 6}});
  aeval::write_npy(dir / "b.npy", aeval::NpyArray{{2, 4}, "f4", {1, 2, 3, 4, 5, 6, 7, 8}});
  aeval::write_npy(dir / "nan.npy", aeval::NpyArray{{2, 3}, "f8", {1, NAN, 3, 4, 5, 6}});
  const auto dims = run_aeval("score audiobertscore --ref " + (dir / "a.npy").string() + " --hyp " + (dir / "b.npy").string());
  EXPECT_EQ(dims.status, 1);
  EXPECT_NE(dims.output.find("dimensions differ"), std::string::npos) << dims.output;
  const auto nan = run_aeval("score cosine --ref " + (dir / "a.npy").string() + " --hyp " + (dir / "nan.npy").string());
  EXPECT_EQ(nan.status, 1);
  EXPECT_NE(nan.output.find("NaN"), std::string::npos) << nan.output;
}

// Every audio and embedding result repeats its headline as `value`: the "score" of a pair's metric, FAD's
// distance under its name.
TEST(ScoreSignalE2E, EveryResultRepeatsItsHeadlineAsValue) {
  TempDir dir;
  write_pair(dir / "clean.wav", dir / "noisy.wav", 0.05);
  std::size_t audio = 0;
  for (const auto& m : aeval::metrics::audio_metrics()) {
    const auto o = run_aeval("score " + m.name + " --ref " + (dir / "clean.wav").string() + " --deg " +
                             (dir / "noisy.wav").string(), false);
    ASSERT_EQ(o.status, 0) << m.name << ": " << o.output;
    const auto result = nlohmann::json::parse(o.output);
    EXPECT_EQ(result["value"], result["score"]) << m.name;
    ++audio;
  }
  EXPECT_GE(audio, 8u);
  aeval::write_npy(dir / "a.npy", aeval::NpyArray{{3, 2}, "f8", {1, 0, 0, 1, 1, 1}});
  aeval::write_npy(dir / "b.npy", aeval::NpyArray{{3, 2}, "f8", {1, 0, 1, 1, 0, 2}});
  const auto cosine = nlohmann::json::parse(
      run_aeval("score cosine --ref " + (dir / "a.npy").string() + " --hyp " + (dir / "b.npy").string(), false).output);
  EXPECT_EQ(cosine["value"], cosine["score"]);
  const auto fad = nlohmann::json::parse(
      run_aeval("score fad --ref " + (dir / "a.npy").string() + " --hyp " + (dir / "b.npy").string(), false).output);
  EXPECT_EQ(fad["value"], fad["fad"]);
}

}  // namespace
