// Isolated process models (docs/process-protocol.md) driven through aeval run:
// the reference Python processes answer, misbehave on purpose, die and are
// restarted, and every sample is accounted for.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "util/sha256.hpp"
#include "support/asterisk.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::read_bytes;
using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;

const std::filesystem::path& kSounds = aeval::testing::kAsteriskSounds;

TEST(ProcessModelE2E, CrashesAndKillsFailOnlyTheirSamplesAndTheProcessRestarts) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  std::ofstream m(dir / "m.jsonl");
  for (int i = 0; i < 14; ++i) {
    const std::string text = i == 4 ? "please CRASH now" : i == 9 ? "KILL9 yourself" : i == 13 ? "REFUSE this" : fmt::format("sentence {}", i);
    m << json{{"id", fmt::format("s{:02}", i)}, {"audio", (kSounds / "vm-goodbye.g722").string()}, {"text", text}}.dump() << "\n";
  }
  m.close();
  std::filesystem::create_directories(dir / "registry" / "prompts");
  std::filesystem::create_directories(dir / "registry" / "evaluators");
  write_bytes(dir / "registry" / "prompts" / "p.yaml",
              "say:\n  class: chat\n  args:\n    messages:\n      - role: user\n        content:\n"
              "          - {type: audio, value: '{{ audio }}'}\n          - {type: text, value: '{{ reference }}'}\n");
  write_bytes(dir / "registry" / "evaluators" / "e.yaml", "same:\n  class: exact-match\n");
  const auto o = run_aeval(fmt::format("--registry {} run --dataset {} --prompt say --model echo-process --evaluator same "
                                       "--no-cache -q --output {}",
                                       (dir / "registry").string(), (dir / "m.jsonl").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir / "out");
  const auto& by_id = run.by_id;
  const auto& log = run.log;
  const auto& summary = run.summary;
  ASSERT_EQ(by_id.size(), 14u);

  // The crash and the kill each fail their own sample, or, in a schedule where the other one's request reached the
  // process first while this one was in flight, the other's death takes it: either way the two fail.
  const std::string crash = by_id.at("s04")["error"]["message"];
  const bool crashed = crash.find("crashing on purpose") != std::string::npos;
  EXPECT_TRUE(crashed || crash.find("killed by signal 9") != std::string::npos) << crash;
  if (crashed) {
    EXPECT_NE(crash.find("process model 'echo-process' exited with status 3"), std::string::npos) << crash;
  }
  const std::string killed = by_id.at("s09")["error"]["message"];
  EXPECT_TRUE(killed.find("killed by signal 9") != std::string::npos ||
              killed.find("crashing on purpose") != std::string::npos)
      << killed;
  // With two requests in flight, a death takes at most one other sample with it, whichever was
  // in flight (answers arrive out of order). Every other sample is answered, by a restarted process
  // after each death; every failure is one of the three provoked ones.
  int failed = 0;
  for (const auto& [id, r] : by_id) {
    if (r["error"].is_null()) {
      EXPECT_EQ(r["prediction"], r["reference"]) << id;
      continue;
    }
    ++failed;
    const std::string message = r["error"]["message"];
    EXPECT_TRUE(message.find("crashing on purpose") != std::string::npos ||
                message.find("killed by signal 9") != std::string::npos ||
                message.find("refused on purpose") != std::string::npos)
        << id << ": " << message;
  }
  EXPECT_GE(failed, 3);
  EXPECT_LE(failed, 5);
  EXPECT_EQ(summary["counts"]["failed"].get<int>(), failed);
  EXPECT_NE(log.find("\"event\":\"model_died\""), std::string::npos) << log;
  if (crashed) {
    EXPECT_NE(log.find("\"event\":\"model_stderr\""), std::string::npos) << "what it said dying: " << log;
  }
  EXPECT_NE(log.find("\"event\":\"model_ready\""), std::string::npos) << log;
}

TEST(ProcessModelE2E, RuleBasedModelReadsTheAudioFilesAevalWrites) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  std::ofstream m(dir / "m.jsonl");
  for (const char* id : {"vm-goodbye", "conf-onlyperson", "auth-thankyou"})
    m << json{{"id", id}, {"audio", (kSounds / (std::string(id) + ".g722")).string()}, {"text", ""}}.dump() << "\n";
  m.close();
  const auto o = run_aeval(fmt::format("run --dataset {} --model duration-process --evaluator wer -q --no-cache --output {}",
                                       (dir / "m.jsonl").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  for (const auto& [id, r] : aeval::testing::read_only_run(dir / "out").by_id) {
    const double seconds = r["audio_seconds"];
    EXPECT_EQ(r["prediction"], seconds < 1 ? "short" : seconds < 3 ? "medium" : "long") << id << " " << seconds;
  }
}

TEST(ProcessModelE2E, AProcessThatCannotStartIsAClearError) {
  TempDir dir;
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              "broken:\n  class: process\n  args:\n    command: [no-such-program-aeval]\n    input_sample_rate: 0\n"
              "    max_restarts: 0\n");
  write_bytes(dir / "m.jsonl", R"({"id": "1", "text": "x"})" "\n");
  const auto o = run_aeval(fmt::format("--registry {} run --dataset {} --model broken --evaluator wer -q --no-cache --output {}",
                                       (dir / "registry").string(), (dir / "m.jsonl").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 3) << o.output;  // the sample fails and the run reports it; all failed: status 3
  const auto r = aeval::testing::read_only_run(dir / "out").by_id.at("1");
  const std::string message = r["error"]["message"];
  EXPECT_NE(message.find("did not start"), std::string::npos) << message;
  EXPECT_NE(message.find("cannot run no-such-program-aeval"), std::string::npos) << message;
}

}  // namespace

namespace {

TEST(ProcessModelE2E, RequirementsGetAVirtualEnvironmentBuiltOnce) {
  TempDir dir;
  const std::string echo = (std::filesystem::path(AEVAL_SOURCE_DIR) / "examples/process-models/echo_model.py").string();
  // A fingerprint of its own (the comment), so the test always builds a fresh environment.
  write_bytes(dir / "requirements.txt", fmt::format("# nothing to install ({})\n", dir.path().filename().string()));
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("venv-echo:\n  class: process\n  args:\n    command: [python3, {}]\n    input_sample_rate: 0\n"
                          "    requirements: {}\n",
                          echo, (dir / "requirements.txt").string()));
  write_bytes(dir / "m.jsonl", R"({"id": "1", "text": "hello"})" "\n");
  std::filesystem::create_directories(dir / "registry" / "prompts");
  write_bytes(dir / "registry" / "prompts" / "p.yaml", "say:\n  class: fields\n  args:\n    fields: {text: '{{ reference }}'}\n");
  const auto run = [&](const std::string& out) {
    return run_aeval(fmt::format("--registry {} run --dataset {} --prompt say --model venv-echo --evaluator wer -q "
                                 "--no-cache --output {}",
                                 (dir / "registry").string(), (dir / "m.jsonl").string(), (dir / out).string()));
  };
  const auto first = run("out1");
  ASSERT_EQ(first.status, 0) << first.output;
  const auto first_run = aeval::testing::read_only_run(dir / "out1");
  const auto& log = first_run.log;
  EXPECT_EQ(first_run.by_id.at("1")["prediction"], "hello");
  const auto venvs = aeval::cache_dir() / "venvs";
  EXPECT_NE(log.find(venvs.string()), std::string::npos) << "the model ran in the environment: " << log;
  std::filesystem::path ready;
  for (const auto& e : std::filesystem::directory_iterator(venvs))
    if (std::filesystem::exists(e.path() / ".aeval-ready") && log.find(e.path().string()) != std::string::npos)
      ready = e.path() / ".aeval-ready";
  ASSERT_FALSE(ready.empty());
  const auto built = std::filesystem::last_write_time(ready);
  ASSERT_EQ(run("out2").status, 0);
  EXPECT_EQ(std::filesystem::last_write_time(ready), built) << "the second run reused the environment";

  // A requirement that cannot be installed (no index here) is a clear error before any sample runs.
  write_bytes(dir / "requirements.txt", "aeval-no-such-package==1.0\n");
  setenv("PIP_NO_INDEX", "1", 1);
  const auto failing = run("out3");
  unsetenv("PIP_NO_INDEX");
  EXPECT_EQ(failing.status, 1);
  EXPECT_NE(failing.output.find("installing"), std::string::npos) << failing.output;
  EXPECT_NE(failing.output.find("aeval-no-such-package"), std::string::npos) << failing.output;
  EXPECT_NE(failing.output.find("PIP_FIND_LINKS"), std::string::npos) << failing.output;
}

}  // namespace
