// A reference the evaluators need but the rows lack is an error, never an
// empty reference scored as if it were one.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/answered_dataset.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;

// A jsonl dataset of these rows, answered by a predictions file, scored by WER and CER.
aeval::testing::Outcome run_wer(const TempDir& dir, const std::string& rows) {
  write_bytes(dir / "m.jsonl", rows);
  write_bytes(dir / "p.jsonl", R"({"id": "1", "prediction": "hello world"})" "\n"
                               R"({"id": "2", "prediction": "good night"})" "\n"
                               R"({"id": "3", "prediction": "thank you"})" "\n");
  aeval::testing::write_answered_dataset_registry(dir.path());
  return aeval::testing::run_answered_dataset(dir.path());
}

TEST(MissingReferenceE2E, NoRowWithTheReferenceStopsBeforeInferenceListingTheFields) {
  TempDir dir;
  const auto o = run_wer(dir, R"({"id": "1", "audio": "a.wav", "transcript": "hello world"})" "\n"
                              R"({"id": "2", "audio": "b.wav", "transcript": "good night"})" "\n");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("no sample of dataset 'my-data' has a reference text that evaluator 'wer' compares with; "
                          "the rows have the fields audio, id, transcript"),
            std::string::npos)
      << o.output;
  if (std::filesystem::exists(dir / "out")) {
    for (const auto& f : std::filesystem::recursive_directory_iterator(dir / "out")) {
      EXPECT_NE(f.path().filename(), "samples.jsonl") << "no sample ran";
    }
  }
}

TEST(MissingReferenceE2E, ARowWithoutItFailsAloneNamingIt) {
  TempDir dir;
  const auto o = run_wer(dir, R"({"id": "1", "audio": "a.wav", "text": "hello world"})" "\n"
                              R"({"id": "2", "audio": "b.wav", "transcript": "good night"})" "\n"
                              R"({"id": "3", "audio": "c.wav", "text": ""})" "\n");
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir / "out");
  EXPECT_EQ(run.summary["counts"]["failed"], 1);
  const json& failed = run.by_id.at("2");
  EXPECT_EQ(failed["error"]["stage"], "score");
  EXPECT_NE(failed["error"]["message"].get<std::string>().find("sample '2' has no reference text"), std::string::npos)
      << failed["error"];
  EXPECT_TRUE(failed["reference"].is_null());
  // An empty reference is a reference: jiwer 4.0 counts its insertions.
  EXPECT_EQ(run.by_id.at("3")["scores"]["wer"]["insertions"], 2);
  EXPECT_EQ(run.summary["metrics"]["wer"]["reference_tokens"], 2);
}

TEST(MissingReferenceE2E, ANullReferenceFailsAloneAndTheRunGoesOn) {
  TempDir dir;
  const auto o = run_wer(dir, R"({"id": "1", "audio": "a.wav", "text": "hello world"})" "\n"
                              R"({"id": "2", "audio": "b.wav", "text": null})" "\n"
                              R"({"id": "3", "audio": "c.wav", "text": "thank you"})" "\n");
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir / "out");
  EXPECT_EQ(run.summary["counts"]["failed"], 1);
  EXPECT_NE(run.by_id.at("2")["error"]["message"].get<std::string>().find("sample '2' has no reference text"),
            std::string::npos)
      << run.by_id.at("2");
  EXPECT_EQ(run.summary["metrics"]["wer"]["reference_tokens"], 4);
}

}  // namespace
