// DNSMOS as users reach it: `aeval score dnsmos` on audio files and the
// `dnsmos` evaluator in a run, on the golden set's own recordings (one at
// 16 kHz, one at 8 kHz that the pipeline resamples), against the values the
// official ONNX Runtime pipeline produced for them (shared/reference/dnsmos).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <map>

#include "support/reference.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::testing::run_aeval;

const char* const kRecords[] = {"jfk_0-5s_16k__clean", "ast_conf-invalidpin_8k__white_snr20"};
constexpr double kTolerance = 2e-4;  // the golden set's README, clip values

fs::path models_dir() { return aeval::testing::reference_dir().parent_path() / "models" / "dnsmos"; }

// The golden record and the absolute path of its input file.
std::map<std::string, std::pair<nlohmann::json, fs::path>> golden(const std::vector<nlohmann::json>& records) {
  std::map<std::string, std::pair<nlohmann::json, fs::path>> out;
  for (const auto& r : records)
    for (const char* id : kRecords)
      if (r["id"] == id)
        out[id] = {r["regular"], (aeval::testing::reference_dir() / "dnsmos" / r["input_file"].get<std::string>()).lexically_normal()};
  return out;
}

TEST(DnsmosE2E, ScoreCommandGivesTheOfficialPipelinesValues) {
  AEVAL_REQUIRE_GOLDEN(records, "dnsmos/dnsmos.jsonl");
  const auto expected = golden(records);
  ASSERT_EQ(expected.size(), 2u);
  aeval::testing::TempDir dir;
  std::string deg;
  for (const auto& [id, g] : expected) deg += " --deg " + g.second.string();
  const auto out = run_aeval(fmt::format("score dnsmos{} --models {} --per-sample {}", deg, models_dir().string(),
                                         (dir / "rows.jsonl").string()),
                             false);
  ASSERT_EQ(out.status, 0) << out.output;
  std::ifstream rows(dir / "rows.jsonl");
  std::string line;
  std::size_t n = 0;
  while (std::getline(rows, line)) {
    const auto row = nlohmann::json::parse(line);
    const auto& [g, file] = expected.at(fs::path(row["file"].get<std::string>()).stem().string());
    for (const char* key : {"SIG", "BAK", "OVRL", "P808_MOS"})
      EXPECT_NEAR(row[key].get<double>(), g[key].get<double>(), kTolerance) << file << " " << key;
    ++n;
  }
  EXPECT_EQ(n, 2u);
  const auto summary = nlohmann::json::parse(out.output);
  EXPECT_EQ(summary["files"], 2);
  EXPECT_EQ(summary["metric"], "dnsmos");
  // The same from the folder $DNSMOS_MODELS names, with nothing in the cache.
  aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "empty-cache").c_str());
  aeval::testing::ScopedEnv variable("DNSMOS_MODELS", models_dir().c_str());
  const auto by_variable = run_aeval(fmt::format("score dnsmos{}", deg), false);
  ASSERT_EQ(by_variable.status, 0) << by_variable.output;
  EXPECT_EQ(nlohmann::json::parse(by_variable.output)["OVRL"], summary["OVRL"]) << by_variable.output;
}

TEST(DnsmosE2E, TheEvaluatorScoresASamplesAudioInADatasetOnlyRun) {
  AEVAL_REQUIRE_GOLDEN(records, "dnsmos/dnsmos.jsonl");
  const auto expected = golden(records);
  aeval::testing::TempDir dir;
  std::ofstream manifest(dir / "clips.jsonl");
  for (const auto& [id, g] : expected) manifest << nlohmann::json{{"id", id}, {"audio", g.second.string()}}.dump() << "\n";
  manifest.close();
  fs::create_directories(dir / "registry" / "evaluators");
  std::ofstream(dir / "registry" / "evaluators" / "e.yaml")
      << "dnsmos-of-dataset:\n  class: dnsmos\n  args:\n    audio: sample\n    models_dir: " << models_dir().string() << "\n";
  const auto out = run_aeval(fmt::format("--registry {} run --dataset {} --model no-model --evaluator dnsmos-of-dataset "
                                         "-q --output {}",
                                         (dir / "registry").string(), (dir / "clips.jsonl").string(),
                                         (dir / "results").string()));
  ASSERT_EQ(out.status, 0) << out.output;
  const auto run = aeval::testing::read_only_run(dir / "results");
  double mean = 0;
  for (const auto& [id, g] : expected) {
    const auto& s = run.by_id.at(id)["scores"]["dnsmos-of-dataset"];
    EXPECT_NEAR(s["value"].get<double>(), g.first["OVRL"].get<double>(), kTolerance) << id;
    EXPECT_NEAR(s["P808_MOS"].get<double>(), g.first["P808_MOS"].get<double>(), kTolerance) << id;
    mean += s["value"].get<double>() / 2;
  }
  EXPECT_NEAR(run.summary["metrics"]["dnsmos-of-dataset"]["value"].get<double>(), mean, 1e-12);
  // The 8 kHz clip says it was resampled, and both short clips that they were repeated.
  EXPECT_NE(run.by_id.at(kRecords[1])["scores"]["dnsmos-of-dataset"]["notes"].dump().find("resampled from 8000 Hz"),
            std::string::npos);
  // The leaderboard names the built-in model behind the column, which the dnsmos class declares.
  const auto board = run_aeval(fmt::format("report {}", (dir / "results").string()), false);
  ASSERT_EQ(board.status, 0) << board.output;
  EXPECT_NE(board.output.find("| model | dnsmos-of-dataset (averaged as 20·x) |"), std::string::npos) << board.output;
  EXPECT_NE(board.output.find("Scored by: dnsmos-of-dataset: DNSMOS (built in, official weights)."), std::string::npos)
      << board.output;
}

TEST(DnsmosE2E, MissingModelsSayHowToGetThem) {
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  aeval::testing::ScopedEnv unset("DNSMOS_MODELS", nullptr);
  std::ofstream(dir / "a.wav") << "not audio";
  auto out = run_aeval(fmt::format("score dnsmos --deg {}", (dir / "a.wav").string()));
  EXPECT_EQ(out.status, 1);
  EXPECT_NE(out.output.find("run `aeval fetch model dnsmos`"), std::string::npos) << out.output;
  out = run_aeval(fmt::format("score dnsmos --deg {} --models {}", (dir / "a.wav").string(), dir.path().string()));
  EXPECT_NE(out.output.find("sha256 269fbebdb513aa23cddfbb593542ecc540284a91849ac50516870e1ac78f6edd"), std::string::npos)
      << out.output;
  // $DNSMOS_MODELS is where the files are looked for when no folder is given, and the error says so.
  {
    aeval::testing::ScopedEnv variable("DNSMOS_MODELS", dir.path().c_str());
    out = run_aeval(fmt::format("score dnsmos --deg {}", (dir / "a.wav").string()));
    EXPECT_NE(out.output.find("in " + dir.path().string() + " ($DNSMOS_MODELS); name a folder"), std::string::npos)
        << out.output;
    EXPECT_NE(out.output.find("--models (aeval score dnsmos), models_dir (the dnsmos evaluator) or $DNSMOS_MODELS"),
              std::string::npos)
        << out.output;
  }
  aeval::testing::ScopedEnv offline("HF_HUB_OFFLINE", "1");
  out = run_aeval("fetch model dnsmos");
  EXPECT_EQ(out.status, 1);
  EXPECT_NE(out.output.find("https://github.com/microsoft/DNS-Challenge/raw/591184a9fcb2cbdec02520fed81a32bbbf9d73ff/"),
            std::string::npos)
      << out.output;
}

}  // namespace
