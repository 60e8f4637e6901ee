// A run killed with SIGKILL at random moments, resumed each time, ends with
// byte-identical samples.jsonl and summary.json to a run never interrupted;
// shards merged and stored predictions rescored agree with it too.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "support/asterisk.hpp"
#include "support/run_aeval.hpp"
#include "support/spawn.hpp"
#include "support/temp_dir.hpp"
#include "support/require.hpp"

namespace {

using aeval::testing::read_bytes;
using aeval::testing::run_aeval;
using aeval::testing::run_dirs;
using aeval::testing::spawn;
using aeval::testing::stored_samples;
using aeval::testing::TempDir;
using aeval::testing::wait_for;

const std::filesystem::path& kSounds = aeval::testing::kAsteriskSounds;
constexpr int kSamples = 16;

std::string run_args(const std::filesystem::path& output) {
  return fmt::format("run --task asr-quickstart --limit {} --no-cache -q --output {}", kSamples, output.string());
}

bool have_inputs() { return std::filesystem::exists(kSounds / "activated.g722"); }

TEST(ResumeE2E, SigkillAtRandomMomentsThenResumeIsByteIdentical) {
  AEVAL_REQUIRE(have_inputs(), "asterisk-core-sounds-en-g722");
  TempDir dir;
  ASSERT_EQ(run_aeval(run_args(dir / "whole"), false).status, 0);
  const auto whole = run_dirs(dir / "whole");
  ASSERT_EQ(whole.size(), 1u);

  // Each attempt kills the run once a random number of samples is stored, so
  // kills land mid-run however fast or loaded the machine is.
  std::mt19937 rng(20261122);
  std::uniform_int_distribution<std::size_t> stored_before_kill(1, kSamples / 2);
  const std::vector<std::string> fresh{"run",  "--task", "asr-quickstart", "--limit", std::to_string(kSamples),
                                       "--no-cache", "-q", "--output", (dir / "killed").string()};
  const auto stored_now = [&] { return stored_samples(dir / "killed"); };
  int partial_kills = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const auto existing = run_dirs(dir / "killed");
    const std::size_t target = std::min<std::size_t>(stored_now() + stored_before_kill(rng), kSamples - 1);
    const pid_t pid = spawn(existing.empty() ? fresh
                                             : std::vector<std::string>{"run", "--resume", existing.front().string(),
                                                                        "--no-cache", "-q"});
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0 && stored_now() < target)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    const std::size_t stored = stored_now();
    partial_kills += WIFSIGNALED(status) && stored > 0 && stored < std::size_t(kSamples);
  }
  EXPECT_GE(partial_kills, 1) << "no kill landed in the middle of a run; the test proved nothing";
  const auto killed = run_dirs(dir / "killed");
  ASSERT_EQ(killed.size(), 1u);
  ASSERT_EQ(WEXITSTATUS(wait_for(spawn({"run", "--resume", killed.front().string(), "--no-cache", "-q"}))), 0);

  EXPECT_EQ(read_bytes(killed.front() / "samples.jsonl"), read_bytes(whole.front() / "samples.jsonl"));
  EXPECT_EQ(read_bytes(killed.front() / "summary.json"), read_bytes(whole.front() / "summary.json"));
  const auto sessions = nlohmann::json::parse(read_bytes(killed.front() / "run.json"))["sessions"];
  EXPECT_GE(sessions.size(), 1u);
}

TEST(ResumeE2E, ShardsMergeAndRescoreAgreeWithTheWholeRun) {
  AEVAL_REQUIRE(have_inputs(), "asterisk-core-sounds-en-g722");
  TempDir dir;
  ASSERT_EQ(run_aeval(run_args(dir / "whole"), false).status, 0);
  for (int shard = 0; shard < 3; ++shard)
    ASSERT_EQ(run_aeval(fmt::format("{} --shard {}/3", run_args(dir / "shards"), shard), false).status, 0);
  const auto shards = run_dirs(dir / "shards");
  ASSERT_EQ(shards.size(), 3u);
  std::string merge = fmt::format("merge --output {}", (dir / "merged").string());
  for (const auto& s : shards) merge.append(" ").append(s.string());
  const auto merged = run_aeval(merge, false);
  ASSERT_EQ(merged.status, 0) << merged.output;

  const auto whole = nlohmann::json::parse(read_bytes(run_dirs(dir / "whole").front() / "summary.json"));
  // Byte for byte: the merged run says --limit as the whole run does, and selects no shard.
  EXPECT_EQ(read_bytes(run_dirs(dir / "merged").front() / "summary.json"),
            read_bytes(run_dirs(dir / "whole").front() / "summary.json"));
  EXPECT_EQ(read_bytes(run_dirs(dir / "merged").front() / "samples.jsonl"),
            read_bytes(run_dirs(dir / "whole").front() / "samples.jsonl"));
  // A shard is part of a run, never a leaderboard row of its own.
  const auto shards_only = run_aeval("report " + (dir / "shards").string());
  EXPECT_EQ(shards_only.status, 1);
  EXPECT_NE(shards_only.output.find("aeval merge"), std::string::npos) << shards_only.output;

  // Rescoring with a different normalizer changes the numbers without inference.
  const auto rescored =
      run_aeval(fmt::format("rescore {} --post-process whisper-basic --output {}", run_dirs(dir / "whole").front().string(),
                            (dir / "rescored").string()),
                false);
  ASSERT_EQ(rescored.status, 0) << rescored.output;
  const auto again = nlohmann::json::parse(read_bytes(run_dirs(dir / "rescored").front() / "summary.json"));
  EXPECT_EQ(again["provenance"]["task"]["post_process"], nlohmann::json::array({"whisper-basic"}));
  EXPECT_EQ(again["counts"], whole["counts"]);
  EXPECT_NE(again["metrics"]["wer"]["value"], whole["metrics"]["wer"]["value"]);
}

TEST(ResumeE2E, ResumeRefusesAChangedConfiguration) {
  AEVAL_REQUIRE(have_inputs(), "asterisk-core-sounds-en-g722");
  TempDir dir;
  std::filesystem::create_directories(dir / "registry" / "evaluators");
  ASSERT_EQ(run_aeval(fmt::format("--registry {} run --task asr-quickstart --limit 2 -q --output {}",
                                  (dir / "registry").string(), (dir / "out").string()),
                      false)
                .status,
            0);
  aeval::testing::write_bytes(dir / "registry" / "evaluators" / "e.yaml", "wer:\n  class: error_rate\n  args:\n    unit: chars\n");
  const auto o = run_aeval(fmt::format("run --resume {}", run_dirs(dir / "out").front().string()));
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.output.find("configuration changed"), std::string::npos) << o.output;
}

}  // namespace
