// The parts of `aeval submit slurm` that need no scheduler: --shard auto from
// a job array's environment, the scripts (valid bash, every argument one word),
// array index lists, progress from a run store, and response caches imported
// from the shards'. The real cluster runs in tests/e2e/slurm_e2e_test.cpp.
#include <gtest/gtest.h>

#include <cstdlib>

#include "aeval/error.hpp"
#include "aeval/pipeline/run_types.hpp"
#include "cluster/run_progress.hpp"
#include "cluster/slurm_array.hpp"
#include "response_cache/response_cache.hpp"
#include "support/run_aeval.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::Error;
using aeval::testing::ScopedEnv;
using aeval::testing::TempDir;

TEST(ShardAuto, TakesTheArrayTasksIndexAndCount) {
  const ScopedEnv id("SLURM_ARRAY_TASK_ID", "2"), count("SLURM_ARRAY_TASK_COUNT", "4"),
      min("SLURM_ARRAY_TASK_MIN", "0"), max("SLURM_ARRAY_TASK_MAX", "3"), step("SLURM_ARRAY_TASK_STEP", "1");
  const auto shard = aeval::pipeline::parse_shard("auto");
  EXPECT_EQ(shard.index, 2);
  EXPECT_EQ(shard.count, 4);
}

TEST(ShardAuto, OutsideAnArrayOrWithIndicesThatAreNotShardsIsRefused) {
  {
    const ScopedEnv id("SLURM_ARRAY_TASK_ID", nullptr), count("SLURM_ARRAY_TASK_COUNT", nullptr);
    try {
      aeval::pipeline::parse_shard("auto");
      FAIL() << "no array, yet a shard";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("SLURM_ARRAY_TASK_ID"), std::string::npos) << e.what();
    }
  }
  // --array=1-4: four tasks, but index 4 is no shard of four.
  const ScopedEnv id("SLURM_ARRAY_TASK_ID", "4"), count("SLURM_ARRAY_TASK_COUNT", "4"),
      min("SLURM_ARRAY_TASK_MIN", "1"), max("SLURM_ARRAY_TASK_MAX", "4"), step("SLURM_ARRAY_TASK_STEP", "1");
  try {
    aeval::pipeline::parse_shard("auto");
    FAIL() << "indices 1-4 taken as shards";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("0-3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--shard 4/N"), std::string::npos) << e.what();
  }
}

TEST(SlurmArray, IndicesAreRanges) {
  using aeval::cluster::array_indices;
  EXPECT_EQ(array_indices({0, 1, 2, 3}), "0-3");
  EXPECT_EQ(array_indices({1, 3}), "1,3");
  EXPECT_EQ(array_indices({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
  EXPECT_EQ(array_indices({6}), "6");
}

// Runs `script` with bash, `shard.sbatch`'s array index set, against a stand-in aeval that prints its arguments
// one per line: what the real aeval would be given.
std::string arguments_given(const TempDir& dir, const std::string& script, const std::string& extra_env = "") {
  const fs::path stand_in = dir / "aeval-args";
  aeval::testing::write_bytes(stand_in, "#!/bin/sh\nfor a in \"$@\"; do echo \"[$a]\"; done\n");
  fs::permissions(stand_in, fs::perms::owner_all);
  aeval::testing::write_bytes(dir / "script.sh", script);
  return aeval::testing::run_shell("SLURM_ARRAY_TASK_ID=1 " + extra_env + " bash " + (dir / "script.sh").string())
      .output;
}

aeval::cluster::SlurmArrayJob job_in(const TempDir& dir) {
  aeval::cluster::SlurmArrayJob job;
  job.folder = dir / "submission";
  job.aeval = dir / "aeval-args";
  job.working_dir = dir.path();
  job.global_args = {"--registry", (dir / "my registry").string()};
  job.run_args = {"--task", "t", "--set", "m.prompt=it's \"quoted\" $HOME `x`", "--limit", "8"};
  job.session_args = {"--jobs", "2"};
  job.task = "t";
  job.model = "m";
  job.shards = 4;
  job.resources.partition = "gpu";
  job.resources.gres = "gpu:1";
  return job;
}

TEST(SlurmArray, AShardStartsItsRunWithEveryArgumentOneWordAsGiven) {
  TempDir dir;
  const auto job = job_in(dir);
  const std::string script = aeval::cluster::shard_script(job);
  EXPECT_NE(script.find("#SBATCH --partition=gpu\n"), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --gres=gpu:1\n"), std::string::npos) << script;
  const std::string given = arguments_given(dir, script);
  const std::string expected = "[--registry]\n[" + (dir / "my registry").string() +
                               "]\n[run]\n[--task]\n[t]\n[--set]\n[m.prompt=it's \"quoted\" $HOME `x`]\n[--limit]\n[8]\n"
                               "[--shard]\n[1/4]\n[--output]\n[" + (job.folder / "shard-1").string() +
                               "]\n[--jobs]\n[2]\n";
  EXPECT_EQ(given, expected);
}

TEST(SlurmArray, AShardThatRanBeforeContinuesItsRun) {
  TempDir dir;
  const auto job = job_in(dir);
  fs::create_directories(job.folder / "shard-1" / "t" / "m" / "20261125T000000Z");
  aeval::testing::write_bytes(job.folder / "shard-1" / "t" / "m" / "20261125T000000Z" / "run.sqlite", "");
  const std::string given = arguments_given(dir, aeval::cluster::shard_script(job));
  EXPECT_EQ(given, "[run]\n[--resume]\n[--output]\n[" + (job.folder / "shard-1").string() + "]\n[--jobs]\n[2]\n");
}

TEST(SlurmArray, TheMergeJoinsEveryShardThenImportsTheirCaches) {
  TempDir dir;
  const auto job = job_in(dir);
  const std::string script = aeval::cluster::merge_script(job);
  EXPECT_EQ(script.find("--gres"), std::string::npos) << "the merge needs no GPU";
  // A shard without a run stops the merge, naming it.
  for (int i : {0, 1, 3}) {
    const fs::path run = job.folder / ("shard-" + std::to_string(i)) / "t" / "m" / "20261125T000000Z";
    fs::create_directories(run);
    aeval::testing::write_bytes(run / "run.sqlite", "");
  }
  EXPECT_EQ(arguments_given(dir, script + "echo reached-the-end\n").find("reached-the-end"), std::string::npos);
  const fs::path run2 = job.folder / "shard-2" / "t" / "m" / "20261125T000000Z";
  fs::create_directories(run2);
  aeval::testing::write_bytes(run2 / "run.sqlite", "");
  fs::create_directories(job.folder / "caches");
  aeval::testing::write_bytes(job.folder / "caches" / "shard-0.sqlite", "");
  const std::string given = arguments_given(dir, script);
  std::string expected = "[merge]\n[--output]\n[" + (job.folder / "merged").string() + "]\n";
  for (int i = 0; i < 4; ++i)
    expected += "[" + (job.folder / ("shard-" + std::to_string(i)) / "t" / "m" / "20261125T000000Z").string() + "]\n";
  expected += "[cache]\n[import]\n[" + (job.folder / "caches" / "shard-0.sqlite").string() + "]\n";
  EXPECT_EQ(given, expected);
}

TEST(SlurmArray, TheJobRoundTripsThroughItsRecord) {
  TempDir dir;
  auto job = job_in(dir);
  job.resources.array_limit = 3;
  job.resources.sbatch_args = {"--constraint=a100"};
  const auto back = aeval::cluster::SlurmArrayJob::from_json(job.to_json());
  EXPECT_EQ(back.to_json(), job.to_json());
  EXPECT_THROW(aeval::cluster::read_job(dir.path()), Error);  // no submission.json
}

TEST(RunProgress, AFolderWithoutAStoreIsNoRunAndStaysSo) {
  TempDir dir;
  EXPECT_THROW(aeval::cluster::run_progress(dir.path()), Error);
  EXPECT_FALSE(fs::exists(dir / "run.sqlite"));
  EXPECT_FALSE(aeval::cluster::run_under(dir.path()).has_value());
}

TEST(ResponseCacheImport, AddsWhatIsMissingWithItsEmbeddingAndRefusesWhatIsNoCache) {
  using aeval::pipeline::ResponseCache;
  TempDir dir;
  aeval::models::Response text;
  text.text = "hello";
  aeval::models::Response embedded;
  embedded.text = "";
  embedded.embedding = aeval::NpyArray{{2, 3}, "f4", {1, 2, 3, 4, 5, 6}};
  {
    ResponseCache shard(dir / "shard-0.sqlite");
    shard.put("a", text);
    shard.put("b", embedded);
  }
  ResponseCache mine(dir / "mine.sqlite");
  mine.put("a", text);
  EXPECT_EQ(mine.import(dir / "shard-0.sqlite"), 1u);
  const auto b = mine.get("b");
  ASSERT_TRUE(b && b->embedding);
  EXPECT_EQ(b->embedding->shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(b->embedding->values, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(mine.import(dir / "shard-0.sqlite"), 0u);  // nothing new the second time
  aeval::testing::write_bytes(dir / "notes.txt", "not a database at all");
  try {
    mine.import(dir / "notes.txt");
    FAIL() << "a text file imported";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not an aeval response cache"), std::string::npos) << e.what();
  }
  EXPECT_THROW(mine.import(dir / "missing.sqlite"), Error);
  EXPECT_EQ(mine.get("a")->text, "hello");  // still usable after refusals
}

TEST(ResponseCacheImport, AevalResponseCacheNamesTheFile) {
  const ScopedEnv file("AEVAL_RESPONSE_CACHE", "/somewhere/shard-3.sqlite");
  EXPECT_EQ(aeval::pipeline::ResponseCache::default_file(), fs::path("/somewhere/shard-3.sqlite"));
}

}  // namespace
