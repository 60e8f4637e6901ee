// Drives the aeval binary as a user does, on real Asterisk recordings plus a
// missing, an empty and a corrupt file.
#include <gtest/gtest.h>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/asterisk.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"
#include "support/require.hpp"

namespace {

using aeval::testing::Outcome;
using aeval::testing::run_aeval;
using aeval::testing::TempDir;

TEST(RunE2E, HelpTeaches) {
  const Outcome top = run_aeval("--help");
  EXPECT_EQ(top.status, 0);
  EXPECT_NE(top.output.find("aeval run --task asr-quickstart"), std::string::npos);
  const Outcome bare = run_aeval("");
  EXPECT_EQ(bare.status, 0);
  EXPECT_EQ(bare.output, top.output);
  const Outcome run = run_aeval("run --help");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.output.find("--dataset"), std::string::npos);
  EXPECT_NE(run.output.find("samples.jsonl"), std::string::npos);
}

TEST(RunE2E, UnknownTaskGetsDidYouMean) {
  const Outcome o = run_aeval("run --task asr-quickstrat");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.output.find("did you mean: asr-quickstart"), std::string::npos) << o.output;
}

TEST(RunE2E, BadFilesFailAloneAndCountInFailRate) {
  const std::filesystem::path& sounds = aeval::testing::kAsteriskSounds;
  AEVAL_REQUIRE(std::filesystem::exists(sounds / "auth-thankyou.g722"), "asterisk-core-sounds-en-g722");
  TempDir dir;
  aeval::testing::write_bytes(dir / "empty.wav", "");
  aeval::testing::write_bytes(dir / "corrupt.wav", "RIFF\x24\x00\x00\x00WAVEfmt this is not audio at all");
  std::ofstream manifest(dir / "manifest.jsonl");
  const std::pair<const char*, const char*> good[] = {
      {"auth-thankyou", "Thank you."}, {"vm-goodbye", "Goodbye."}, {"activated", "Activated."}};
  for (const auto& [id, text] : good)
    manifest << nlohmann::json{{"id", id}, {"audio", (sounds / (std::string(id) + ".g722")).string()}, {"text", text}}
                    .dump()
             << "\n";
  manifest << R"({"id": "missing", "audio": "missing.wav", "text": "nothing here"})" << "\n"
           << R"({"id": "empty", "audio": "empty.wav", "text": "nothing here"})" << "\n"
           << R"({"id": "corrupt", "audio": "corrupt.wav", "text": "nothing here"})" << "\n";
  manifest.close();

  const Outcome o = run_aeval("run --task asr-quickstart --dataset " + (dir / "manifest.jsonl").string() +
                              " --output " + (dir / "results").string());
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("wer"), std::string::npos) << o.output;

  const auto run_dir = aeval::testing::read_only_run(dir / "results").dir;
  // The terminal says where the run goes as it starts, and what failed: each kind with its count and first example,
  // and where every failure is.
  EXPECT_NE(o.output.find("aeval: run folder " + run_dir.string() + "\n"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("aeval: 3 failed at audio (audio), e.g. missing: "), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("aeval: each failure: " + (run_dir / "samples.jsonl").string()), std::string::npos)
      << o.output;
  nlohmann::json summary;
  ASSERT_NO_THROW(summary = nlohmann::json::parse(aeval::testing::read_bytes(run_dir / "summary.json")));
  EXPECT_EQ(summary["counts"]["samples"], 6);
  EXPECT_EQ(summary["counts"]["failed"], 3);
  EXPECT_DOUBLE_EQ(summary["fail_rate"].get<double>(), 0.5);
  EXPECT_EQ(summary["provenance"]["task"]["model"], "pocketsphinx-en");
  EXPECT_TRUE(summary["metrics"]["wer"]["value"].is_number());

  std::ifstream samples(run_dir / "samples.jsonl");
  std::string line;
  std::map<std::string, nlohmann::json> by_id;
  std::vector<std::string> order;
  while (std::getline(samples, line)) {
    const auto record = nlohmann::json::parse(line);
    by_id[record["id"]] = record;
    order.push_back(record["id"]);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"auth-thankyou", "vm-goodbye", "activated", "missing", "empty", "corrupt"}));
  EXPECT_NE(by_id["missing"]["error"]["message"].get<std::string>().find("no such file"), std::string::npos);
  EXPECT_NE(by_id["empty"]["error"]["message"].get<std::string>().find("empty file"), std::string::npos);
  EXPECT_EQ(by_id["corrupt"]["error"]["category"], "audio");
  EXPECT_TRUE(by_id["auth-thankyou"]["error"].is_null());
  EXPECT_EQ(by_id["auth-thankyou"]["references_processed"], nlohmann::json::array({"thank you"}));
  EXPECT_EQ(by_id["missing"]["error"]["stage"], "audio");
  EXPECT_FALSE(by_id["auth-thankyou"]["prediction"].get<std::string>().empty())
      << "PocketSphinx heard nothing in a clear studio prompt";

  // The same run with a fail-rate limit reports failure through its status.
  const Outcome strict = run_aeval("run --task asr-quickstart --dataset " + (dir / "manifest.jsonl").string() +
                                   " --output " + (dir / "strict").string() + " --max-fail-rate 0.1");
  EXPECT_EQ(strict.status, 3) << strict.output;
}

}  // namespace
