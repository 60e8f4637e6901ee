// Isolated process models (docs/process-protocol.md) driven through aeval run:
// the reference Python processes answer, misbehave on purpose, die and are
// restarted, and every sample is accounted for.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "support/run_aeval.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::read_bytes;
using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;

const std::filesystem::path kSounds = "/usr/share/asterisk/sounds/en_US_f_Allison";

std::map<std::string, json> records_by_id(const std::filesystem::path& out, std::string* log = nullptr,
                                          json* summary = nullptr) {
  std::map<std::string, json> by_id;
  for (const auto& e : std::filesystem::recursive_directory_iterator(out)) {
    if (e.path().filename() != "samples.jsonl") continue;
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);) {
      const json r = json::parse(line);
      by_id[r["id"]] = r;
    }
    if (log) *log = read_bytes(e.path().parent_path() / "run.log");
    if (summary) *summary = json::parse(read_bytes(e.path().parent_path() / "summary.json"));
  }
  return by_id;
}

TEST(ProcessModelE2E, CrashesAndKillsFailOnlyTheirSamplesAndTheProcessRestarts) {
  if (!std::filesystem::exists(kSounds / "vm-goodbye.g722")) GTEST_SKIP() << "asterisk-core-sounds-en-g722 not installed";
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
  write_bytes(dir / "registry" / "evaluators" / "e.yaml", "same:\n  class: exact_match\n");
  const auto o = run_aeval(fmt::format("--registry {} run --dataset {} --prompt say --model echo-process --evaluator same "
                                       "--no-cache -q --output {}",
                                       (dir / "registry").string(), (dir / "m.jsonl").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  std::string log;
  json summary;
  const auto by_id = records_by_id(dir / "out", &log, &summary);
  ASSERT_EQ(by_id.size(), 14u);

  const std::string crash = by_id.at("s04")["error"]["message"];
  EXPECT_NE(crash.find("process model 'echo-process' exited with status 3"), std::string::npos) << crash;
  EXPECT_NE(crash.find("crashing on purpose"), std::string::npos) << crash;
  const std::string killed = by_id.at("s09")["error"]["message"];
  EXPECT_NE(killed.find("killed by signal 9"), std::string::npos) << killed;
  EXPECT_NE(std::string(by_id.at("s13")["error"]["message"]).find("refused on purpose"), std::string::npos)
      << by_id.at("s13").dump();
  // Requests in flight with a death (up to two after it, as answers arrive out of order) fail
  // with it; samples clear of the deaths are answered, after each death by a restarted process.
  for (const char* id : {"s00", "s01", "s02", "s07", "s12"}) {
    EXPECT_TRUE(by_id.at(id)["error"].is_null()) << id << ": " << by_id.at(id)["error"].dump();
    EXPECT_EQ(by_id.at(id)["prediction"], by_id.at(id)["reference"]) << id;
  }
  EXPECT_LE(summary["counts"]["failed"].get<int>(), 7);
  EXPECT_GE(summary["counts"]["failed"].get<int>(), 3);
  EXPECT_NE(log.find("\"event\":\"model_died\""), std::string::npos) << log;
  EXPECT_NE(log.find("\"event\":\"model_stderr\""), std::string::npos) << log;
  EXPECT_NE(log.find("\"event\":\"model_ready\""), std::string::npos) << log;
}

TEST(ProcessModelE2E, RuleBasedModelReadsTheAudioFilesAevalWrites) {
  if (!std::filesystem::exists(kSounds / "vm-goodbye.g722")) GTEST_SKIP() << "asterisk-core-sounds-en-g722 not installed";
  TempDir dir;
  std::ofstream m(dir / "m.jsonl");
  for (const char* id : {"vm-goodbye", "conf-onlyperson", "auth-thankyou"})
    m << json{{"id", id}, {"audio", (kSounds / (std::string(id) + ".g722")).string()}, {"text", ""}}.dump() << "\n";
  m.close();
  const auto o = run_aeval(fmt::format("run --dataset {} --model duration-process --evaluator wer -q --no-cache --output {}",
                                       (dir / "m.jsonl").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  for (const auto& [id, r] : records_by_id(dir / "out")) {
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
  ASSERT_EQ(o.status, 0) << o.output;  // the sample fails, the run reports it
  const auto r = records_by_id(dir / "out").at("1");
  const std::string message = r["error"]["message"];
  EXPECT_NE(message.find("did not start"), std::string::npos) << message;
  EXPECT_NE(message.find("cannot run no-such-program-aeval"), std::string::npos) << message;
}

}  // namespace
