// aeval run against the local OpenAI-compatible test server: the rendered
// chat prompt with its audio reaches the server, answers and logprobs land
// in samples.jsonl, and a failing sample fails alone.
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

}  // namespace
