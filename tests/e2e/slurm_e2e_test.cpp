// aeval submit slurm on a real Slurm: Debian's slurmctld, slurmd and munged,
// started by the test as a one-node cluster on localhost. A 4-shard job array
// of PocketSphinx on the Asterisk prompts and its merge job give the run of one
// machine byte for byte; an array task cancelled mid-run and submitted again
// continues its run (no finished sample runs twice), and the merge is again
// identical. Under CI the daemons must start (a failure shows their logs);
// elsewhere the tests skip, saying why.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <thread>

#include "aeval/error.hpp"
#include "cluster/run_progress.hpp"
#include "support/asterisk.hpp"
#include "support/run_aeval.hpp"
#include "support/require.hpp"
#include "support/slurm_cluster.hpp"
#include "support/spawn.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::testing::read_bytes;
using aeval::testing::run_aeval;
using aeval::testing::run_dirs;
using aeval::testing::SlurmCluster;
using aeval::testing::TempDir;

#define AEVAL_NEED_SLURM(cluster) AEVAL_REQUIRE((cluster).up(), "a Slurm node that starts (" << (cluster).why_not() << ")")

#define AEVAL_NEED_SLURM_INSTALLED() AEVAL_REQUIRE(SlurmCluster::installed(), "slurm-wlm or munge")

constexpr int kShards = 4;

// The one-machine run the shards must reproduce.
fs::path whole_run(const fs::path& output, int limit) {
  const auto whole = run_aeval(fmt::format("run --task asr-quickstart --limit {} -q --output {}", limit, output.string()));
  EXPECT_EQ(whole.status, 0) << whole.output;
  return run_dirs(output).front();
}

// `aeval submit slurm` prints "folder:     PATH".
fs::path submission_folder(const std::string& printed) {
  const auto at = printed.find("folder:");
  if (at == std::string::npos) return {};
  const auto start = printed.find_first_not_of(' ', at + 7);
  return printed.substr(start, printed.find('\n', start) - start);
}

// The merged run, once the merge job has written it.
std::optional<fs::path> wait_for_merge(const fs::path& folder, const SlurmCluster& cluster) {
  cluster.wait_until_idle(std::chrono::seconds(240));
  const auto merged = run_dirs(folder / "merged");
  if (merged.empty() || !fs::exists(merged.front() / "summary.json")) return std::nullopt;
  return merged.front();
}

std::string job_logs(const fs::path& folder) {
  std::string out;
  for (const auto& e : fs::directory_iterator(folder / "logs"))
    out += e.path().filename().string() + ":\n" + read_bytes(e.path()) + "\n";
  return out;
}

TEST(SlurmE2E, AJobArrayAndItsMergeGiveTheRunOfOneMachine) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  AEVAL_NEED_SLURM_INSTALLED();
  TempDir dir;
  const SlurmCluster cluster(dir / "cluster");
  AEVAL_NEED_SLURM(cluster);
  constexpr int kLimit = 20;
  const fs::path whole = whole_run(dir / "whole", kLimit);

  // A partition the cluster lacks: sbatch's own words, and no folder left behind.
  const auto refused = run_aeval(fmt::format("submit slurm --task asr-quickstart --limit {} --shards {} --output {} "
                                             "--partition nowhere",
                                             kLimit, kShards, (dir / "refused").string()));
  EXPECT_EQ(refused.status, 1) << refused.output;
  EXPECT_NE(refused.output.find("sbatch refused"), std::string::npos) << refused.output;
  const fs::path refused_parent = dir / "refused" / "asr-quickstart" / "pocketsphinx-en";
  EXPECT_TRUE(!fs::exists(refused_parent) || fs::is_empty(refused_parent));

  const auto submitted = run_aeval(fmt::format("submit slurm --task asr-quickstart --limit {} --shards {} --output {}",
                                               kLimit, kShards, (dir / "sharded").string()));
  ASSERT_EQ(submitted.status, 0) << submitted.output;
  const fs::path folder = submission_folder(submitted.output);
  ASSERT_TRUE(fs::exists(folder / "submission.json")) << submitted.output;
  const auto merged = wait_for_merge(folder, cluster);
  ASSERT_TRUE(merged) << "no merged run; the queue: " << cluster.queue() << job_logs(folder) << cluster.logs();

  EXPECT_EQ(read_bytes(*merged / "samples.jsonl"), read_bytes(whole / "samples.jsonl"));
  EXPECT_EQ(read_bytes(*merged / "summary.json"), read_bytes(whole / "summary.json"));
  // Each shard ran its own part, in its own run.
  std::size_t stored = 0;
  for (int i = 0; i < kShards; ++i) {
    const auto shard = aeval::cluster::run_progress(run_dirs(folder / fmt::format("shard-{}", i)).front());
    EXPECT_EQ(shard.shard, fmt::format("{}/{}", i, kShards));
    EXPECT_TRUE(shard.complete()) << shard.state();
    stored += shard.stored;
  }
  EXPECT_EQ(stored, std::size_t(kLimit));
  // The shards' response caches went into the user's.
  EXPECT_NE(job_logs(folder).find("responses added"), std::string::npos) << job_logs(folder);
  const auto status = run_aeval("status " + folder.string());
  EXPECT_EQ(status.status, 0) << status.output;
  EXPECT_NE(status.output.find("merged: " + merged->string()), std::string::npos) << status.output;
}

TEST(SlurmE2E, AShardCancelledMidRunAndSubmittedAgainContinuesItsRun) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  AEVAL_NEED_SLURM_INSTALLED();
  TempDir dir;
  const SlurmCluster cluster(dir / "cluster");
  AEVAL_NEED_SLURM(cluster);
  // Enough samples, one at a time, that a shard is caught between its first and its last.
  constexpr int kLimit = 32;
  const fs::path whole = whole_run(dir / "whole", kLimit);

  const auto submitted =
      run_aeval(fmt::format("submit slurm --task asr-quickstart --limit {} --shards {} --jobs 1 --output {}", kLimit,
                            kShards, (dir / "sharded").string()));
  ASSERT_EQ(submitted.status, 0) << submitted.output;
  const fs::path folder = submission_folder(submitted.output);
  const std::string array_job = nlohmann::json::parse(read_bytes(folder / "submission.json"))["submissions"][0]["array_job"];

  // The first shard seen part way through is cancelled, as a pre-emption would.
  int victim = -1;
  std::size_t stored_at_cancel = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (victim < 0 && std::chrono::steady_clock::now() < deadline) {
    for (int i = 0; i < kShards && victim < 0; ++i) {
      const auto runs = run_dirs(folder / fmt::format("shard-{}", i));
      if (runs.empty()) continue;
      try {
        const auto p = aeval::cluster::run_progress(runs.front());
        if (p.planned > 0 && p.stored >= 1 && p.stored + 2 <= p.planned) {
          ASSERT_EQ(std::system(fmt::format("scancel {}_{}", array_job, i).c_str()), 0);
          victim = i;
          stored_at_cancel = p.stored;
        }
      } catch (const aeval::Error&) {  // the store is being created
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_GE(victim, 0) << "no shard was caught part way through; the queue: " << cluster.queue();
  // While the other shards are queued or running, nothing is submitted again.
  if (cluster.queue().find(array_job + "_") != std::string::npos) {
    const auto early = run_aeval("submit slurm --again " + folder.string());
    EXPECT_EQ(early.status, 1) << early.output;
    EXPECT_NE(early.output.find("still queued or running"), std::string::npos) << early.output;
  }
  // The other shards finish; the merge waits on an array that failed, and never runs.
  for (int i = 0; i < 600 && cluster.queue().find(array_job + "_") != std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(run_dirs(folder / "merged").empty());
  const auto status = run_aeval("status " + folder.string());
  EXPECT_NE(status.output.find("running or stopped"), std::string::npos) << status.output;

  const auto again = run_aeval("submit slurm --again " + folder.string());
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find(fmt::format("(shards {} of {})", victim, kShards)), std::string::npos) << again.output;
  const auto merged = wait_for_merge(folder, cluster);
  ASSERT_TRUE(merged) << "no merged run; the queue: " << cluster.queue() << job_logs(folder) << cluster.logs();
  EXPECT_EQ(read_bytes(*merged / "samples.jsonl"), read_bytes(whole / "samples.jsonl"));
  EXPECT_EQ(read_bytes(*merged / "summary.json"), read_bytes(whole / "summary.json"));

  // The cancelled shard's run has two sessions: the second ran only what the first had not stored.
  const fs::path shard = run_dirs(folder / fmt::format("shard-{}", victim)).front();
  const auto sessions = nlohmann::json::parse(read_bytes(shard / "run.json"))["sessions"];
  ASSERT_EQ(sessions.size(), 2u) << sessions.dump(2);
  EXPECT_TRUE(sessions[0].value("interrupted", false));
  const std::size_t first = sessions[0]["samples_stored"], planned = aeval::cluster::run_progress(shard).planned;
  EXPECT_GE(first, stored_at_cancel);
  EXPECT_EQ(sessions[1]["samples_run"].get<std::size_t>(), planned - first);
}

}  // namespace

// What `aeval submit slurm` checks before it asks Slurm anything: these need no cluster.
TEST(SlurmSubmit, ADryRunPrintsBothScriptsAndCreatesNothing) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  const auto dry = run_aeval(fmt::format("submit slurm --task asr-quickstart --limit 20 --shards 4 --array-limit 2 "
                                         "--gres gpu:1 --time 00:10:00 --output {} --dry-run",
                                         (dir / "results").string()));
  ASSERT_EQ(dry.status, 0) << dry.output;
  EXPECT_NE(dry.output.find("(sbatch --array=0-3%2)"), std::string::npos) << dry.output;
  EXPECT_NE(dry.output.find("#SBATCH --gres=gpu:1"), std::string::npos) << dry.output;
  EXPECT_NE(dry.output.find("--dependency=afterok"), std::string::npos) << dry.output;
  EXPECT_NE(dry.output.find("run --task asr-quickstart --limit 20 --shard \"$shard/4\""), std::string::npos)
      << dry.output;
  EXPECT_FALSE(fs::exists(dir / "results"));
}

TEST(SlurmSubmit, MistakesStopBeforeAnythingIsQueued) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  const std::string output = " --output " + (dir / "results").string();
  const auto empty = run_aeval("submit slurm --task asr-quickstart --limit 3 --shards 8" + output);
  EXPECT_EQ(empty.status, 1);
  EXPECT_NE(empty.output.find("would hold no sample"), std::string::npos) << empty.output;
  const auto unknown = run_aeval("submit slurm --task asr-quickstrat --shards 2" + output);
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.output.find("asr-quickstart"), std::string::npos) << "a did-you-mean: " << unknown.output;
  const auto no_shards = run_aeval("submit slurm --task asr-quickstart" + output);
  EXPECT_EQ(no_shards.status, 2);
  EXPECT_NE(no_shards.output.find("--shards"), std::string::npos) << no_shards.output;
  EXPECT_FALSE(fs::exists(dir / "results"));
  // --again takes its job from the folder's record: other settings are refused, as is a folder without one.
  const auto mixed = run_aeval("submit slurm --again " + dir.path().string() + " --limit 3");
  EXPECT_EQ(mixed.status, 2);
  EXPECT_NE(mixed.output.find("--limit would be ignored"), std::string::npos) << mixed.output;
  const auto not_a_submission = run_aeval("submit slurm --again " + dir.path().string());
  EXPECT_EQ(not_a_submission.status, 1);
  EXPECT_NE(not_a_submission.output.find("holds no submission.json"), std::string::npos) << not_a_submission.output;
}
