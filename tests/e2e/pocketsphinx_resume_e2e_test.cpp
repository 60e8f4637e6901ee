// Eight SIGKILLs of a PocketSphinx run, each followed by a resume, end
// byte-identical to a run never interrupted: every resume starts fresh
// decoders and hands them samples in another order, so this holds only when
// a transcript depends on its own audio alone (issue 15).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <random>
#include <thread>

#include "support/asterisk.hpp"
#include "support/run_aeval.hpp"
#include "support/spawn.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::read_bytes;
using aeval::testing::run_aeval;
using aeval::testing::run_dirs;
using aeval::testing::spawn;
using aeval::testing::stored_samples;
using aeval::testing::TempDir;
using aeval::testing::wait_for;

// Sized for a minute or two on two cores; the first 40 prompts include
// conf-adminmenu-162 followed by conf-adminmenu-18, the pair of issue 15.
constexpr std::size_t kSamples = 40;
constexpr int kKills = 8;  // each a fresh start of the decoders: the test's cost

TEST(PocketSphinxResumeE2E, EightKillsAndResumesEndByteIdenticalToAnUninterruptedRun) {
#ifdef AEVAL_SANITIZED
  GTEST_SKIP() << "eight killed runs are the Release build's: the sanitizers add nothing to killing a process";
#endif
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  const auto whole = run_aeval(fmt::format("run --task asr-quickstart --limit {} --no-cache -q --output {}", kSamples,
                                           (dir / "whole").string()));
  ASSERT_EQ(whole.status, 0) << whole.output;

  // A fixed schedule: each session is killed once two to four more samples
  // are stored, plus up to 50 ms, so kills land at any point of a sample's
  // life (decoding, storing) while the run always moves forward.
  std::mt19937 rng(15);
  std::uniform_int_distribution<std::size_t> more_samples(2, 4);
  std::uniform_int_distribution<int> extra_ms(0, 50);
  const auto killed = dir / "killed";
  const auto sessions_log = dir / "sessions.stderr";  // what the sessions said, shown when one misbehaves
  int mid_run_kills = 0;
  for (int kill_number = 0; kill_number < kKills; ++kill_number) {
    const auto existing = run_dirs(killed);
    const std::size_t target = std::min(stored_samples(killed) + more_samples(rng), kSamples - 1);
    const pid_t pid = spawn(
        existing.empty() ? std::vector<std::string>{"run", "--task", "asr-quickstart", "--limit",
                                                    std::to_string(kSamples), "--no-cache", "-q", "--output",
                                                    killed.string()}
                         : std::vector<std::string>{"run", "--resume", existing.front().string(), "--no-cache", "-q"},
        sessions_log);
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0 && stored_samples(killed) < target)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::milliseconds(extra_ms(rng)));
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    mid_run_kills += WIFSIGNALED(status) && stored_samples(killed) < kSamples;
  }
  EXPECT_EQ(mid_run_kills, kKills) << "some kills did not land in the middle of the run; the sessions said:\n"
                                   << read_bytes(sessions_log);
  ASSERT_EQ(run_dirs(killed).size(), 1u);
  const auto resumed = run_dirs(killed).front();
  ASSERT_EQ(WEXITSTATUS(wait_for(spawn({"run", "--resume", resumed.string(), "--no-cache", "-q"}, sessions_log))), 0)
      << read_bytes(sessions_log);

  const auto uninterrupted = run_dirs(dir / "whole").front();
  EXPECT_EQ(read_bytes(resumed / "samples.jsonl"), read_bytes(uninterrupted / "samples.jsonl"));
  EXPECT_EQ(read_bytes(resumed / "summary.json"), read_bytes(uninterrupted / "summary.json"));

  // run.json lists every session, the killed ones too, and who stored what.
  const auto sessions = nlohmann::json::parse(read_bytes(resumed / "run.json"))["sessions"];
  ASSERT_EQ(sessions.size(), std::size_t(kKills + 1));
  std::size_t stored = 0;
  for (int i = 0; i < kKills; ++i) {
    EXPECT_EQ(sessions[i].value("interrupted", false), true) << sessions[i];
    stored += sessions[i]["samples_stored"].get<std::size_t>();
  }
  EXPECT_FALSE(sessions.back().contains("interrupted"));
  EXPECT_EQ(stored + sessions.back()["samples_run"].get<std::size_t>(), kSamples);
}

}  // namespace
