// aeval run against the local OpenAI-compatible test server: the rendered
// chat prompt with its audio reaches the server, answers and logprobs land
// in samples.jsonl, and a failing sample fails alone; 2,000 samples at
// concurrency 128 are each recorded once.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "support/openai_test_server.hpp"
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

TEST(RemoteModelE2E, SpokenMcqThroughAChatServer) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  const std::filesystem::path& sounds = aeval::testing::kAsteriskSounds;
  aeval::testing::OpenAiTestServer server([](const aeval::testing::ReceivedRequest& r, int) {
    aeval::testing::ScriptedReply reply;
    const std::string question = r.body["messages"][1]["content"][1]["text"];
    if (question.find("broken") != std::string::npos) reply.status = 400, reply.body = "cannot answer";
    reply.text = question.find("leaving") != std::string::npos ? "The answer is (B)." : "A";
    reply.logprobs = {{"content", {{{"token", reply.text.substr(0, 1)}, {"logprob", -0.25}}}}};
    return reply;
  });
  TempDir dir;
  std::ofstream m(dir / "q.jsonl");
  m << json{{"id", "1"}, {"audio", (sounds / "vm-goodbye.g722").string()}, {"question", "Is the speaker leaving?"},
            {"options", {"No", "Yes"}}, {"answer", "B"}, {"category", "intent"}}.dump() << "\n"
    << json{{"id", "2"}, {"audio", (sounds / "auth-thankyou.g722").string()}, {"question", "Thanks or hello?"},
            {"options", {"Thanks", "Hello"}}, {"answer", "A"}, {"category", "content"}}.dump() << "\n"
    << json{{"id", "3"}, {"audio", (sounds / "auth-thankyou.g722").string()}, {"question", "A broken question"},
            {"options", {"x", "y"}}, {"answer", "A"}, {"category", "content"}}.dump() << "\n";
  m.close();
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("test-llm:\n  class: openai_chat\n  args:\n    base_url: {}\n    model: judge\n"
                          "    logprobs: true\n    top_logprobs: 2\n    max_retries: 0\n",
                          server.base_url()));
  const auto o = run_aeval(fmt::format("--registry {} run --task spoken-mcq --dataset {} --model test-llm -q --output {}",
                                       (dir / "registry").string(), (dir / "q.jsonl").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir / "out");
  auto by_id = run.by_id;
  const json& summary = run.summary;
  EXPECT_EQ(by_id["1"]["prediction_processed"], "B");
  EXPECT_EQ(by_id["1"]["logprobs"]["content"][0]["logprob"], -0.25);
  EXPECT_EQ(by_id["2"]["prediction_processed"], "A");
  EXPECT_NE(std::string(by_id["3"]["error"]["message"]).find("HTTP 400: cannot answer"), std::string::npos);
  EXPECT_DOUBLE_EQ(summary["metrics"]["accuracy"]["value"].get<double>(), 1.0);
  EXPECT_EQ(summary["counts"]["failed"], 1);
  // The server saw the system prompt, the audio and the lettered options.
  const auto first = server.received().at(0).body["messages"];
  EXPECT_EQ(first[0]["role"], "system");
  EXPECT_EQ(first[1]["content"][0]["type"], "input_audio");
  const std::string text = first[1]["content"][1]["text"];
  EXPECT_NE(text.find("A. "), std::string::npos) << text;
}

TEST(RemoteModelE2E, TwoThousandSamplesAtConcurrency128AreEachRecordedOnce) {
  aeval::testing::OpenAiTestServer server([&](const aeval::testing::ReceivedRequest& r, int) {
    aeval::testing::ScriptedReply reply;
    reply.delay_seconds = 0.020;
    const std::string text = r.body["messages"][0]["content"][0]["text"];
    // Every 100th sample fails: failures are recorded, and the rest goes on.
    if (text.ends_with("00")) reply.status = 400, reply.body = "refused";
    reply.text = text;
    return reply;
  });
  TempDir dir;
  std::ofstream m(dir / "numbers.jsonl");
  for (int i = 0; i < 2000; ++i) m << json{{"id", fmt::format("n{}", i)}, {"text", fmt::format("number {}", i)}}.dump() << "\n";
  m.close();
  std::filesystem::create_directories(dir / "registry" / "models");
  std::filesystem::create_directories(dir / "registry" / "prompts");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("echo-llm:\n  class: openai_chat\n  args:\n    base_url: {}\n    model: echo\n"
                          "    input_sample_rate: 0\n    max_retries: 0\n    max_concurrency: 128\n",
                          server.base_url()));
  std::filesystem::create_directories(dir / "registry" / "evaluators");
  write_bytes(dir / "registry" / "prompts" / "p.yaml",
              "say-it:\n  class: chat\n  args:\n    messages:\n      - role: user\n        content:\n"
              "          - {type: text, value: \"{{ reference }}\"}\n");
  write_bytes(dir / "registry" / "evaluators" / "e.yaml", "same-text:\n  class: exact-match\n");
  const auto o = run_aeval(fmt::format("--registry {} run --dataset {} --prompt say-it --model echo-llm --evaluator same-text "
                                       "-q --no-cache --output {}",
                                       (dir / "registry").string(), (dir / "numbers.jsonl").string(),
                                       (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir / "out");
  ASSERT_EQ(run.by_id.size(), 2000u);
  int failed = 0;
  for (const auto& [id, record] : run.by_id) {
    if (record["error"].is_null()) {
      EXPECT_EQ(record["prediction"], record["reference"]) << id;
    } else {
      ++failed;
      EXPECT_NE(std::string(record["error"]["message"]).find("HTTP 400: refused"), std::string::npos) << id;
    }
  }
  EXPECT_EQ(failed, 19);  // 100, 200, ..., 1900
  EXPECT_EQ(run.summary["counts"]["failed"], 19);
  EXPECT_EQ(server.requests(), 2000);
  EXPECT_LE(server.most_in_flight(), 128);
  EXPECT_GE(server.most_in_flight(), 32) << "samples did not run concurrently";
}

}  // namespace
