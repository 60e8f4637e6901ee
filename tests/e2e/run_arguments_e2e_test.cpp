// `aeval run` refuses arguments it would otherwise ignore or misread, and its
// exit status says when too many samples failed. Runs here use a tiny
// manifest and a predictions_file model, so each takes milliseconds.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "support/answered_dataset.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::Outcome;
using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A manifest with ids 1..`samples`, of which the predictions file answers
// the first `answered` (support/answered_dataset.hpp).
void write_run_inputs(const TempDir& dir, int samples, int answered) {
  std::string manifest, predictions;
  for (int id = 1; id <= samples; ++id) {
    manifest += fmt::format(R"({{"id": "{}", "audio": "{}.wav", "text": "hello"}})" "\n", id, id);
    if (id <= answered) predictions += fmt::format(R"({{"id": "{}", "prediction": "hello"}})" "\n", id);
  }
  write_bytes(dir / "m.jsonl", manifest);
  write_bytes(dir / "p.jsonl", predictions);
  aeval::testing::write_answered_dataset_registry(dir.path());
}

Outcome run(const TempDir& dir, const std::string& extra = "") {
  return aeval::testing::run_answered_dataset(dir.path(), "--evaluator wer " + extra);
}

TEST(RunArgumentsE2E, NegativeLimitAndJobsAreRefused) {
  TempDir dir;
  write_run_inputs(dir, 2, 2);
  const Outcome limit = run(dir, "--limit -1");
  EXPECT_EQ(limit.status, 2) << limit.output;
  EXPECT_TRUE(contains(limit.output, "--limit: must be 0 or more, not -1")) << limit.output;
  const Outcome jobs = run(dir, "--jobs -3");
  EXPECT_EQ(jobs.status, 2) << jobs.output;
  EXPECT_TRUE(contains(jobs.output, "--jobs: must be 0 or more, not -3")) << jobs.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out")) << "a refused command line must not start a run";
}

TEST(RunArgumentsE2E, MostSamplesFailedExitsThreeByDefault) {
  TempDir dir;
  write_run_inputs(dir, 3, 1);
  const Outcome o = run(dir);
  EXPECT_EQ(o.status, 3) << o.output;
  EXPECT_TRUE(contains(o.output, "exceeds --max-fail-rate 0.5")) << o.output;
  EXPECT_EQ(run(dir, "--max-fail-rate 0.7").status, 0);
}

TEST(RunArgumentsE2E, HalfTheSamplesFailedStillExitsZeroByDefault) {
  TempDir dir;
  write_run_inputs(dir, 2, 1);
  const Outcome o = run(dir);
  EXPECT_EQ(o.status, 0) << o.output;
}

// asr-jsonl groups by a `kind` field; a manifest whose rows have none makes no groups, not one named "(none)".
TEST(RunArgumentsE2E, AGroupingFieldNoSampleHasMakesNoGroups) {
  TempDir dir;
  write_run_inputs(dir, 2, 2);
  ASSERT_EQ(run(dir, "--aggregator by-kind").status, 0);
  const auto summary = aeval::testing::read_only_run(dir / "out").summary;
  EXPECT_FALSE(summary["aggregations"]["by-kind"]["wer"].contains("groups")) << summary.dump();
}

TEST(RunArgumentsE2E, EverySampleFailedExitsThreeWhateverTheLimit) {
  TempDir dir;
  write_run_inputs(dir, 2, 0);
  const Outcome o = run(dir, "--max-fail-rate 1");
  EXPECT_EQ(o.status, 3) << o.output;
  EXPECT_TRUE(contains(o.output, "every sample failed")) << o.output;
  // The cause is on stderr, not only in samples.jsonl.
  EXPECT_TRUE(contains(o.output, "every sample failed; the first: 1: ")) << o.output;
}

TEST(RunArgumentsE2E, HelpStatesTheExitStatusAndTheDefaultLimit) {
  const Outcome o = run_aeval("run --help");
  EXPECT_EQ(o.status, 0);
  EXPECT_TRUE(contains(o.output, "Exit status:")) << o.output;
  EXPECT_TRUE(contains(o.output, "every sample failed")) << o.output;
  EXPECT_TRUE(contains(o.output, "0.5")) << o.output;
}

TEST(RunArgumentsE2E, AWrongCommandLineExitsTwo) {
  EXPECT_EQ(run_aeval("run --no-such-option").status, 2);
  EXPECT_EQ(run_aeval("run --max-fail-rate 2").status, 2);
  const Outcome shard = run_aeval("run --task asr-quickstart --shard 5/4");
  EXPECT_EQ(shard.status, 2) << shard.output;
  EXPECT_TRUE(contains(shard.output, "--shard: '5/4' is no shard: I/N needs 0 <= I < N")) << shard.output;
  EXPECT_EQ(run_aeval("run --task asr-quickstart --shard 1").status, 2);
  const Outcome huge = run_aeval("run --task asr-quickstart --limit 99999999999999999999");
  EXPECT_EQ(huge.status, 2) << huge.output;
  EXPECT_TRUE(contains(huge.output, "more samples than any dataset holds")) << huge.output;
  EXPECT_EQ(run_aeval("run --task asr-quickstart --limit 2x").status, 2);
  EXPECT_EQ(run_aeval("run --model pocketsphinx-en").status, 2);  // neither a task nor a dataset
}

// Each argument no option took, as written and in order: the option, not its value first.
TEST(RunArgumentsE2E, AnUnknownOptionIsReportedAsWrittenBeforeAnyStrayArgument) {
  const Outcome valued = run_aeval("run --task asr-quickstart --limt 20");
  EXPECT_EQ(valued.status, 2) << valued.output;
  EXPECT_TRUE(contains(valued.output, "unknown option --limt (did you mean --limit?)\n")) << valued.output;
  EXPECT_FALSE(contains(valued.output, "20")) << "its value is not a second complaint: " << valued.output;
  const Outcome both = run_aeval("run --task asr-quickstart stray --jbos=2");
  EXPECT_EQ(both.status, 2) << both.output;
  EXPECT_TRUE(contains(both.output, "unknown option --jbos (did you mean --jobs?)\nunexpected argument stray\n"))
      << both.output;
}

// A task that names no model lacks an option, as a missing --task does: exit status 2.
TEST(RunArgumentsE2E, AMissingModelIsAUsageError) {
  const Outcome catalog = run_aeval("run --task librispeech-test-clean");
  EXPECT_EQ(catalog.status, 2) << catalog.output;
  EXPECT_TRUE(contains(catalog.output, "has no model: give --model NAME")) << catalog.output;
  TempDir dir;
  write_run_inputs(dir, 1, 1);
  const Outcome manifest = run_aeval(fmt::format("run --dataset {} --evaluator wer", (dir / "m.jsonl").string()));
  EXPECT_EQ(manifest.status, 2) << manifest.output;
  EXPECT_TRUE(contains(manifest.output, "the command line has no model")) << manifest.output;
}

TEST(RunArgumentsE2E, AResumedFolderWithATrailingSlashIsPrintedAsAFolder) {
  TempDir dir;
  write_run_inputs(dir, 2, 2);
  ASSERT_EQ(run(dir).status, 0);
  const std::string recorded = aeval::testing::read_only_run(dir / "out").dir.string();
  const Outcome resumed = run_aeval(fmt::format("run --resume {}/", recorded));
  EXPECT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "aeval: resuming " + recorded + "\n")) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "results: " + recorded + "/{samples.jsonl")) << resumed.output;
  EXPECT_FALSE(contains(resumed.output, "//")) << resumed.output;
}

TEST(RunArgumentsE2E, ResumeRefusesWhatTheRecordedRunWouldOverride) {
  TempDir dir;
  write_run_inputs(dir, 2, 2);
  ASSERT_EQ(run(dir).status, 0);
  const std::string recorded = aeval::testing::read_only_run(dir / "out").dir.string();
  const Outcome limit = run_aeval(fmt::format("run --resume {} --limit 1", recorded));
  EXPECT_EQ(limit.status, 2) << limit.output;
  EXPECT_TRUE(contains(limit.output, "--limit would be ignored; leave it out")) << limit.output;
  const Outcome task = run_aeval(fmt::format("run --resume {} --task asr-quickstart --shard 0/2", recorded));
  EXPECT_EQ(task.status, 2) << task.output;
  EXPECT_TRUE(contains(task.output, "--task, --shard would be ignored")) << task.output;
  EXPECT_EQ(run_aeval(fmt::format("run --resume {} --jobs 2 -q", recorded)).status, 0);
}

TEST(RunArgumentsE2E, ANonJsonlDatasetPathSaysManifestsEndInJsonl) {
  TempDir dir;
  write_run_inputs(dir, 1, 1);
  write_bytes(dir / "m.json", "[]");
  const Outcome o = run_aeval(fmt::format("--registry {} run --dataset {} --model answers --evaluator wer -q",
                                          (dir / "registry").string(), (dir / "m.json").string()));
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_TRUE(contains(o.output, "unknown dataset")) << o.output;
  EXPECT_TRUE(contains(o.output, "must end in .jsonl")) << o.output;
}

TEST(RunArgumentsE2E, GlobalOptionsComeBeforeOrAfterTheCommand) {
  TempDir dir;
  write_run_inputs(dir, 2, 2);
  const std::string registry = (dir / "registry").string();
  const auto before = run_aeval(fmt::format("--registry {} describe my-answers", registry));
  const auto after = run_aeval(fmt::format("describe my-answers --registry {}", registry));
  EXPECT_EQ(before.status, 0) << before.output;
  EXPECT_EQ(after.status, 0) << after.output;
  EXPECT_EQ(before.output, after.output);
  EXPECT_TRUE(contains(run_aeval("run --help").output, "--registry DIR")) << "run --help names the global option";
}

TEST(RunArgumentsE2E, MistypedOptionsCommandsAndKindsGetSuggestions) {
  const Outcome option = run_aeval("run --tsk asr-quickstart");
  EXPECT_EQ(option.status, 2) << option.output;
  EXPECT_TRUE(contains(option.output, "unknown option --tsk (did you mean --task?)")) << option.output;
  const Outcome command = run_aeval("lst tasks");
  EXPECT_EQ(command.status, 2) << command.output;
  EXPECT_TRUE(contains(command.output, "did you mean: list?")) << command.output;
  const Outcome kind = run_aeval("list dataset");
  EXPECT_EQ(kind.status, 2) << kind.output;
  EXPECT_TRUE(contains(kind.output, "'dataset' is none of tasks, datasets,")) << kind.output;
  EXPECT_TRUE(contains(kind.output, "(did you mean: datasets")) << kind.output;
}

}  // namespace
