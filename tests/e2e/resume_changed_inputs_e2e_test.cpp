// A resume notices a dataset edited since the run began: a finished sample
// whose reference, fields or audio bytes changed is listed and the resume
// refused, or, with --rerun-changed, run again, so a summary never mixes two
// versions of a manifest (issue 15).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "support/answered_dataset.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/spawn.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

class ResumeChangedInputs : public ::testing::Test {
 protected:
  // Three rows answered by a predictions file; the third row lacks its
  // reference, so the first session ends with one failed sample, and the
  // manifest is then mended as a user would before resuming.
  void SetUp() override {
    write_bytes(dir_ / "a.wav", "audio of a");
    write_bytes(dir_ / "b.wav", "audio of b");
    write_bytes(dir_ / "c.wav", "audio of c");
    write_manifest("hello world", false);
    write_bytes(dir_ / "p.jsonl", R"({"id": "1", "prediction": "hello world"})" "\n"
                                  R"({"id": "2", "prediction": "good night"})" "\n"
                                  R"({"id": "3", "prediction": "thank you"})" "\n");
    aeval::testing::write_answered_dataset_registry(dir_.path());
    const auto first = aeval::testing::run_answered_dataset(dir_.path(), "--no-cache");
    ASSERT_EQ(first.status, 0) << first.output;
    ASSERT_EQ(aeval::testing::read_only_run(dir_ / "out").summary["counts"]["failed"], 1);
    run_ = aeval::testing::run_dirs(dir_ / "out").front();
    write_manifest("hello world", true);
  }

  void write_manifest(const std::string& first_reference, bool third_has_reference) {
    write_bytes(dir_ / "m.jsonl", R"({"id": "1", "audio": "a.wav", "text": ")" + first_reference + "\"}\n" +
                                      R"({"id": "2", "audio": "b.wav", "text": "good night"})" "\n" +
                                      (third_has_reference ? R"({"id": "3", "audio": "c.wav", "text": "thank you"})"
                                                           : R"({"id": "3", "audio": "c.wav"})") +
                                      "\n");
  }

  aeval::testing::Outcome resume(const std::string& extra = "") {
    return run_aeval(fmt::format("run --resume {} --no-cache -q {}", run_.string(), extra));
  }

  TempDir dir_;
  std::filesystem::path run_;
};

TEST_F(ResumeChangedInputs, AnUnchangedDatasetResumes) {
  const auto o = resume();
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(aeval::testing::read_only_run(dir_ / "out").summary["counts"]["failed"], 0);
}

TEST_F(ResumeChangedInputs, AnEditedReferenceOrAudioFileIsRefusedAndListed) {
  write_manifest("hello word", true);
  write_bytes(dir_ / "b.wav", "other audio of b");
  const auto o = resume();
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("2 finished samples changed since they were run (reference, fields or audio bytes): 1, 2. "
                          "Resuming would mix two versions of the dataset; add --rerun-changed"),
            std::string::npos)
      << o.output;
  // Nothing ran: the third sample is still the failure the first session left.
  EXPECT_EQ(aeval::testing::read_only_run(dir_ / "out").summary["counts"]["failed"], 1);
}

TEST_F(ResumeChangedInputs, RerunChangedRunsExactlyThoseAgain) {
  write_manifest("hello word", true);
  const auto o = resume("--rerun-changed");
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir_ / "out");
  EXPECT_EQ(run.summary["counts"]["failed"], 0);
  EXPECT_EQ(run.by_id.at("1")["reference"], "hello word");  // the edited row, scored against its new reference
  EXPECT_EQ(run.by_id.at("1")["scores"]["wer"]["substitutions"], 1);
  const auto sessions = nlohmann::json::parse(aeval::testing::read_bytes(run_ / "run.json"))["sessions"];
  ASSERT_EQ(sessions.size(), 2u);
  EXPECT_EQ(sessions[1]["samples_run"], 2);  // the changed sample and the failed one
  EXPECT_NE(run.log.find(R"("event":"inputs_changed")"), std::string::npos);
}

TEST(ResumeChangedInputsFlag, RerunChangedGoesWithResume) {
  const auto o = run_aeval("run --task asr-quickstart --rerun-changed");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("--rerun-changed requires --resume"), std::string::npos) << o.output;
}

}  // namespace
