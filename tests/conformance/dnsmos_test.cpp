// Native DNSMOS against shared/reference/dnsmos/dnsmos.jsonl: the official ONNX models run by
// ONNX Runtime 1.30 inside DNS-Challenge's dnsmos_local.py. Tolerances from its README: raw
// network outputs 1e-4, clip and window values 2e-4 (the calibration slope amplifies raw error);
// the P.808 features and the resampled signal are compared to float32 rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "aeval/npy.hpp"
#include "audio/resampy_resample.hpp"
#include "dnsmos/dnsmos.hpp"
#include "support/reference.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::dnsmos::ClipScores;
using aeval::dnsmos::Options;
using aeval::dnsmos::Scorer;
namespace fs = std::filesystem;

constexpr double kNetwork = 1e-4, kScore = 2e-4, kFeature = 1e-6;

fs::path model_dir() { return aeval::testing::reference_dir() / ".." / "models" / "dnsmos"; }

#define AEVAL_REQUIRE_DNSMOS_MODELS() \
  AEVAL_REQUIRE(fs::exists(model_dir() / "sig_bak_ovr.onnx"), "the DNSMOS models of " << model_dir())

// Under the sanitizers the networks run some 10× slower: a few records, single and several
// windows, stand for all.
bool sampled(const nlohmann::json& r) {
#ifdef AEVAL_SANITIZED
  const std::string id = r["id"];
  return id == "jfk_0-5s_16k__clean" || id == "ast_conf-invalidpin_8k__clean" || id == "concat16_18s";
#else
  (void)r;
  return true;
#endif
}

std::vector<double> input16k(const nlohmann::json& r) {
  return aeval::read_npy(aeval::testing::reference_dir() / "dnsmos" / r["input16k_npy"].get<std::string>()).values;
}

// The script's repetition of a short clip (np.append(audio, audio) until one window long).
std::vector<double> doubled(std::vector<double> audio) {
  while (audio.size() < aeval::dnsmos::kWindowSamples) {
    const std::size_t n = audio.size();
    audio.resize(2 * n);
    std::copy(audio.begin(), audio.begin() + long(n), audio.begin() + long(n));
  }
  return audio;
}

void expect_p835(const nlohmann::json& expected, const ClipScores& got, const std::string& id) {
  const auto& clip = expected["clip"];
  EXPECT_NEAR(clip["SIG_raw"].get<double>(), got.sig_raw, kScore) << id;
  EXPECT_NEAR(clip["BAK_raw"].get<double>(), got.bak_raw, kScore) << id;
  EXPECT_NEAR(clip["OVRL_raw"].get<double>(), got.ovrl_raw, kScore) << id;
  EXPECT_NEAR(clip["SIG"].get<double>(), got.sig, kScore) << id;
  EXPECT_NEAR(clip["BAK"].get<double>(), got.bak, kScore) << id;
  EXPECT_NEAR(clip["OVRL"].get<double>(), got.ovrl, kScore) << id;
  const auto& windows = expected["per_window"];
  ASSERT_EQ(windows.size(), got.windows.size()) << id;
  for (std::size_t i = 0; i < windows.size(); ++i) {
    const auto& e = windows[i];
    const auto& w = got.windows[i];
    EXPECT_NEAR(e["sig_raw"].get<double>(), w.sig_raw, kNetwork) << id << " window " << i;
    EXPECT_NEAR(e["bak_raw"].get<double>(), w.bak_raw, kNetwork) << id << " window " << i;
    EXPECT_NEAR(e["ovr_raw"].get<double>(), w.ovrl_raw, kNetwork) << id << " window " << i;
    EXPECT_NEAR(e["SIG"].get<double>(), w.sig, kScore) << id << " window " << i;
    EXPECT_NEAR(e["BAK"].get<double>(), w.bak, kScore) << id << " window " << i;
    EXPECT_NEAR(e["OVRL"].get<double>(), w.ovrl, kScore) << id << " window " << i;
  }
}

void expect_p808(const nlohmann::json& expected, const ClipScores& got, const std::string& id) {
  EXPECT_NEAR(expected["clip"]["P808_MOS"].get<double>(), got.p808_mos, kScore) << id;
  const auto& windows = expected["per_window"];
  ASSERT_EQ(windows.size(), got.windows.size()) << id;
  for (std::size_t i = 0; i < windows.size(); ++i)
    EXPECT_NEAR(windows[i]["p808_mos"].get<double>(), got.windows[i].p808_mos, kNetwork) << id << " window " << i;
}

void expect_windows(const nlohmann::json& r, const ClipScores& got) {
  const std::string id = r["id"];
  EXPECT_EQ(r["num_hops"].get<std::size_t>(), got.hops) << id;
  EXPECT_EQ(r["input16k_num_samples"].get<std::size_t>(), got.samples_16k) << id;
  EXPECT_EQ(r["len_after_repeat"].get<std::size_t>(), got.repeated_samples) << id;
  std::vector<std::size_t> used;
  for (const auto& w : r["windows"])
    if (w["used"].get<bool>()) used.push_back(w["idx"].get<std::size_t>());
  ASSERT_EQ(used.size(), got.windows.size()) << id;
  for (std::size_t i = 0; i < used.size(); ++i) EXPECT_EQ(used[i], got.windows[i].hop) << id;
}

TEST(DnsmosConformance, RegularP835AndP808FromTheSixteenKilohertzSignal) {
  AEVAL_REQUIRE_GOLDEN(records, "dnsmos/dnsmos.jsonl");
  AEVAL_REQUIRE_DNSMOS_MODELS();
  const Scorer scorer(model_dir());
  for (const auto& r : records) {
    if (!sampled(r)) continue;
    const ClipScores got = scorer.score(input16k(r), 16000);
    expect_windows(r, got);
    expect_p835(r["results"]["from_npy"]["regular"], got, r["id"]);
    expect_p808(r["results"]["from_npy"]["regular"], got, r["id"]);
  }
}

TEST(DnsmosConformance, PersonalizedP835FromTheSixteenKilohertzSignal) {
  AEVAL_REQUIRE_GOLDEN(records, "dnsmos/dnsmos.jsonl");
  AEVAL_REQUIRE_DNSMOS_MODELS();
  Options options;
  options.p835 = aeval::dnsmos::P835Model::personalized;
  options.p808 = false;
  const Scorer scorer(model_dir(), options);
  for (const auto& r : records) {
    if (!sampled(r)) continue;
    const ClipScores got = scorer.score(input16k(r), 16000);
    expect_p835(r["results"]["from_npy"]["personalized"], got, r["id"]);
    EXPECT_TRUE(std::isnan(got.p808_mos)) << "P.808 was not asked for";
  }
}

TEST(DnsmosConformance, P808WithLibrosa09FeaturesMatchesTheLibrosa010Values) {
  AEVAL_REQUIRE_GOLDEN(records, "dnsmos/dnsmos.jsonl");
  AEVAL_REQUIRE_DNSMOS_MODELS();
  Options options;
  options.p835 = aeval::dnsmos::P835Model::none;
  options.p808_features = aeval::dnsmos::P808Features::librosa_0_9;
  const Scorer scorer(model_dir(), options);
  for (const auto& r : records) {
    const std::string id = r["id"];
    const ClipScores got = scorer.score(input16k(r), 16000);
    const auto& expected = r["results"]["from_npy"]["p808_librosa010"];
    EXPECT_NEAR(expected["P808_MOS"].get<double>(), got.p808_mos, kScore) << id;
    ASSERT_EQ(expected["per_window"].size(), got.windows.size()) << id;
    for (std::size_t i = 0; i < got.windows.size(); ++i)
      EXPECT_NEAR(expected["per_window"][i].get<double>(), got.windows[i].p808_mos, kNetwork) << id << " window " << i;
    EXPECT_TRUE(std::isnan(got.ovrl)) << "P.835 was not asked for";
  }
}

// The first window's log-mel input as both librosa versions compute it, and the P.808 network
// alone on the golden input.
TEST(DnsmosConformance, P808InputFeaturesAndNetwork) {
  AEVAL_REQUIRE_GOLDEN(records, "dnsmos/dnsmos.jsonl");
  AEVAL_REQUIRE_DNSMOS_MODELS();
  Options librosa09;
  librosa09.p835 = aeval::dnsmos::P835Model::none;
  librosa09.p808_features = aeval::dnsmos::P808Features::librosa_0_9;
  const Scorer scorers[2] = {Scorer(model_dir()), Scorer(model_dir(), librosa09)};
  const char* keys[2] = {"p808_input_win0_npy", "p808_input_win0_librosa010_npy"};
  int compared = 0;
  for (const auto& r : records) {
    const std::string id = r["id"];
    const std::vector<double> audio = doubled(input16k(r));
    for (int v = 0; v < 2; ++v) {
      if (!r.contains(keys[v])) continue;
      ++compared;
      const auto golden = aeval::read_npy(aeval::testing::reference_dir() / "dnsmos" / r[keys[v]].get<std::string>());
      const std::vector<float> ours =
          scorers[v].p808_input(std::span<const double>(audio.data(), aeval::dnsmos::kWindowSamples - 160));
      ASSERT_EQ(golden.values.size(), ours.size()) << id;
      double worst = 0;
      for (std::size_t i = 0; i < ours.size(); ++i) worst = std::max(worst, std::fabs(golden.values[i] - ours[i]));
      EXPECT_LE(worst, kFeature) << id << " " << keys[v];
      const double expected = v == 0 ? r["results"]["from_npy"]["regular"]["per_window"][0]["p808_mos"].get<double>()
                                     : r["results"]["from_npy"]["p808_librosa010"]["per_window"][0].get<double>();
      const std::vector<float> input(golden.values.begin(), golden.values.end());
      EXPECT_NEAR(expected, scorers[v].p808_raw(input), kNetwork) << id << " " << keys[v];
    }
  }
  EXPECT_GT(compared, 0) << "no record holds a window's P.808 input";
}

// Files at 8 and 44.1 kHz: resampy kaiser_best as librosa 0.8.1 calls it, then the pipeline.
TEST(DnsmosConformance, ResampledFilesFromTheirOwnRates) {
  AEVAL_REQUIRE_GOLDEN(records, "dnsmos/dnsmos.jsonl");
  AEVAL_REQUIRE_DNSMOS_MODELS();
  Options personalized;
  personalized.p835 = aeval::dnsmos::P835Model::personalized;
  personalized.p808 = false;
  const Scorer regular(model_dir()), personal(model_dir(), personalized);
  int resampled = 0;
  for (const auto& r : records) {
    if (!r["resampled"].get<bool>() || !sampled(r)) continue;
    ++resampled;
    const std::string id = r["id"];
    const aeval::Audio audio = aeval::decode_audio(aeval::testing::reference_dir() / "dnsmos" / r["input_file"].get<std::string>());
    ASSERT_EQ(audio.channels, 1) << id;
    const std::vector<double> samples(audio.samples.begin(), audio.samples.end());  // int16 / 32768, as soundfile
    // The resampled signal is the golden one (stored in float32) to its last bit.
    const std::vector<double> at16k = aeval::resampy_resample(samples, audio.sample_rate, 16000);
    const std::vector<double> golden = input16k(r);
    ASSERT_GE(golden.size(), at16k.size()) << id;
    double worst = 0;
    for (std::size_t i = 0; i < at16k.size(); ++i) worst = std::max(worst, std::fabs(double(float(at16k[i])) - golden[i]));
    EXPECT_LE(worst, 1e-7) << id;

    const ClipScores got = regular.score(samples, audio.sample_rate);
    expect_windows(r, got);
    expect_p835(r["results"]["from_file"]["regular"], got, id);
    expect_p808(r["results"]["from_file"]["regular"], got, id);
    expect_p835(r["results"]["from_file"]["personalized"], personal.score(samples, audio.sample_rate), id);
  }
  EXPECT_GT(resampled, 0);
}

// Every kernel set this CPU runs gives the golden values (float32 rounding apart).
TEST(DnsmosConformance, EveryKernelSetTheCpuHas) {
  AEVAL_REQUIRE_GOLDEN(records, "dnsmos/dnsmos.jsonl");
  AEVAL_REQUIRE_DNSMOS_MODELS();
  for (auto simd : {aeval::dnsmos::Simd::avx512, aeval::dnsmos::Simd::avx2, aeval::dnsmos::Simd::portable}) {
    Options options;
    options.simd = simd;
    std::unique_ptr<Scorer> scorer;
    try {
      scorer = std::make_unique<Scorer>(model_dir(), options);
    } catch (const aeval::Error&) {
      continue;  // this CPU lacks the instruction set
    }
    const auto& r = records.front();
    const ClipScores got = scorer->score(input16k(r), 16000);
    expect_p835(r["results"]["from_npy"]["regular"], got, r["id"]);
    expect_p808(r["results"]["from_npy"]["regular"], got, r["id"]);
  }
}

// The script's quirks switched off: every hop of a clip the float rounding shortens, and a short
// clip repeated to exactly one window instead of doubled.
TEST(DnsmosConformance, CorrectedWindowingOptions) {
  AEVAL_REQUIRE_GOLDEN(records, "dnsmos/dnsmos.jsonl");
  AEVAL_REQUIRE_DNSMOS_MODELS();
  Options options;
  options.p835 = aeval::dnsmos::P835Model::none;
  options.window_ends = aeval::dnsmos::WindowEnds::exact;
  options.short_clips = aeval::dnsmos::ShortClips::repeated_to_window;
  const Scorer scorer(model_dir(), options);
  for (const auto& r : records) {
    const std::string id = r["id"];
    if (id != "concat16_18s" && id != "jfk_0-5s_16k__clean") continue;
    const std::vector<double> audio = input16k(r);
    const ClipScores got = scorer.score(audio, 16000);
    if (id == "concat16_18s") {  // 9 hops, of which the script scores 7
      ASSERT_EQ(got.windows.size(), 9u);
      for (std::size_t i = 0; i < 9; ++i) {
        EXPECT_EQ(got.windows[i].start, i * 16000);
        EXPECT_EQ(got.windows[i].end, i * 16000 + aeval::dnsmos::kWindowSamples);
      }
    } else {  // 5 s: one window of the clip, its start repeated after it
      EXPECT_EQ(got.repeated_samples, aeval::dnsmos::kWindowSamples);
      EXPECT_EQ(got.hops, 1u);
      ASSERT_EQ(got.windows.size(), 1u);
    }
  }
}

// UltraEval-Audio's DNSMOS (audio_evals/lib/DNSMOS/main.py): the clip zero-padded to one window and
// only its first window scored, whatever its length; the window itself goes through the networks
// the golden records check.
TEST(DnsmosConformance, UltraEvalAudiosFirstZeroPaddedWindow) {
  AEVAL_REQUIRE_GOLDEN(records, "dnsmos/dnsmos.jsonl");
  AEVAL_REQUIRE_DNSMOS_MODELS();
  Options options;
  options.short_clips = aeval::dnsmos::ShortClips::zero_padded;
  options.first_window_only = true;
  const Scorer scorer(model_dir(), options);
  for (const auto& r : records) {
    const std::string id = r["id"];
    if (id != "concat16_18s" && id != "jfk_0-5s_16k__clean") continue;
    const std::vector<double> audio = input16k(r);
    const ClipScores got = scorer.score(audio, 16000);
    ASSERT_EQ(got.windows.size(), 1u) << id;
    EXPECT_EQ(got.hops, 1u) << id;
    std::vector<double> window(audio.begin(), audio.begin() + long(std::min(audio.size(), aeval::dnsmos::kWindowSamples)));
    window.resize(aeval::dnsmos::kWindowSamples, 0.0);
    EXPECT_EQ(got.repeated_samples, std::max(audio.size(), aeval::dnsmos::kWindowSamples)) << id;
    const std::vector<float> as_float(window.begin(), window.end());
    const auto raw = scorer.p835_raw(as_float);
    EXPECT_EQ(got.sig_raw, raw[0]) << id;
    EXPECT_EQ(got.ovrl_raw, raw[2]) << id;
    EXPECT_EQ(got.p808_mos, scorer.p808_raw(scorer.p808_input(std::span(window).first(window.size() - 160)))) << id;
  }
}

TEST(DnsmosErrors, MissingModelNamesTheFileAndItsSha256) {
  aeval::testing::TempDir dir;
  try {
    Scorer scorer(dir.path());
    FAIL() << "no error";
  } catch (const aeval::Error& e) {
    EXPECT_EQ(e.category(), aeval::ErrorCategory::model);
    const std::string message = e.what();
    EXPECT_NE(message.find((dir / "sig_bak_ovr.onnx").string()), std::string::npos) << message;
    EXPECT_NE(message.find("cannot be read"), std::string::npos) << message;
    EXPECT_NE(message.find("269fbebdb513aa23cddfbb593542ecc540284a91849ac50516870e1ac78f6edd"), std::string::npos) << message;
  }
}

TEST(DnsmosErrors, CorruptOrWrongModelsAreRefusedByName) {
  AEVAL_REQUIRE_DNSMOS_MODELS();
  aeval::testing::TempDir dir;
  std::string bytes = aeval::testing::read_bytes(model_dir() / "model_v8.onnx");
  aeval::testing::write_bytes(dir / "model_v8.onnx", bytes);
  const auto expect_refused = [&](const Options& options, const std::string& file, const std::string& why) {
    try {
      Scorer scorer(dir.path(), options);
      ADD_FAILURE() << "no error for " << file;
    } catch (const aeval::Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find((dir / file).string()), std::string::npos) << message;
      EXPECT_NE(message.find(why), std::string::npos) << message;
      EXPECT_NE(message.find("sha256 "), std::string::npos) << message;
    }
  };
  Options p808_only;
  p808_only.p835 = aeval::dnsmos::P835Model::none;
  EXPECT_NO_THROW(Scorer(dir.path(), p808_only));

  // One weight changed: the file no longer has the official digest.
  bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 1);
  aeval::testing::write_bytes(dir / "model_v8.onnx", bytes);
  expect_refused(p808_only, "model_v8.onnx",
                 "expected the official model_v8.onnx (microsoft/DNS-Challenge @ 591184a9fcb2cbdec02520fed81a32bbbf9d73ff, "
                 "DNSMOS/DNSMOS/model_v8.onnx, sha256 9246480c58567bc6affd4200938e77eef49468c8bc7ed3776d109c07456f6e91)");
  // Without the digest check, the graph check still refuses a truncated file and another model.
  Options any_weights = p808_only;
  any_weights.require_official_weights = false;
  aeval::testing::write_bytes(dir / "model_v8.onnx", bytes.substr(0, bytes.size() / 3));
  expect_refused(any_weights, "model_v8.onnx", "not an ONNX model");
  aeval::testing::write_bytes(dir / "model_v8.onnx", aeval::testing::read_bytes(model_dir() / "model_v8.onnx"));
  aeval::testing::write_bytes(dir / "sig_bak_ovr.onnx", aeval::testing::read_bytes(model_dir() / "model_v8.onnx"));
  any_weights.p835 = aeval::dnsmos::P835Model::regular;
  expect_refused(any_weights, "sig_bak_ovr.onnx", "its input input_1 does not have the architecture's shape");
}

TEST(DnsmosErrors, EmptyNonFiniteAndBadRatesAreRefused) {
  AEVAL_REQUIRE_DNSMOS_MODELS();
  Options options;
  options.p835 = aeval::dnsmos::P835Model::none;
  const Scorer scorer(model_dir(), options);
  const auto expect_audio_error = [&](const std::vector<double>& samples, int rate, const std::string& why) {
    try {
      scorer.score(samples, rate);
      ADD_FAILURE() << "no error for: " << why;
    } catch (const aeval::Error& e) {
      EXPECT_EQ(e.category(), aeval::ErrorCategory::audio);
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  expect_audio_error({}, 16000, "no samples");
  std::vector<double> samples(16000, 0.1);
  samples[1234] = std::numeric_limits<double>::quiet_NaN();
  expect_audio_error(samples, 16000, "sample 1234 of the clip is not finite");
  samples[1234] = std::numeric_limits<double>::infinity();
  expect_audio_error(samples, 8000, "sample 1234 of the clip is not finite");
  samples[1234] = 0.1;
  expect_audio_error(samples, 0, "invalid sample rate");
  expect_audio_error({0.1}, 44100, "too few to resample");
  EXPECT_THROW(scorer.p835_raw(std::vector<float>(aeval::dnsmos::kWindowSamples)), aeval::Error);  // no P.835 model
}

}  // namespace
