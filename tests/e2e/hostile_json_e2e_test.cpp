// JSON nested 100,000 deep, in a manifest row and in a model's answer: each
// overflowed a worker's stack at its first copy and ended the run. Now the
// sample fails alone, saying why, and the others score.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "support/openai_test_server.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;

constexpr int kDepth = 100'000;

std::string nested_lists(int depth) { return std::string(std::size_t(depth), '[') + std::string(std::size_t(depth), ']'); }

// A registry with a model answering through `server`, a prompt sending each row's reference, the
// "answer" of a JSON answer, and an evaluator comparing with the reference.
void write_registry(const TempDir& dir, const aeval::testing::OpenAiTestServer& server) {
  std::filesystem::create_directories(dir / "registry" / "models");
  std::filesystem::create_directories(dir / "registry" / "prompts");
  std::filesystem::create_directories(dir / "registry" / "post-process");
  std::filesystem::create_directories(dir / "registry" / "evaluators");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("llm:\n  class: openai_chat\n  args:\n    base_url: {}\n    model: m\n"
                          "    input_sample_rate: 0\n    max_retries: 0\n",
                          server.base_url()));
  write_bytes(dir / "registry" / "prompts" / "p.yaml",
              "say-it:\n  class: chat\n  args:\n    messages:\n      - role: user\n        content:\n"
              "          - {type: text, value: \"{{ reference }}\"}\n");
  write_bytes(dir / "registry" / "post-process" / "p.yaml", "answer-field:\n  class: json_field\n  args:\n    field: answer\n");
  write_bytes(dir / "registry" / "evaluators" / "e.yaml", "same-text:\n  class: exact-match\n");
}

std::string sent_text(const aeval::testing::ReceivedRequest& r) { return r.body["messages"][0]["content"][0]["text"]; }

// Runs the manifest `rows` through the registry's model with `options`, checks that every sample but
// `failing` scored 1 and that it alone failed, and gives its record.
json run_expecting_one_failure(const TempDir& dir, const std::string& rows, const std::string& options,
                               const std::string& failing) {
  write_bytes(dir / "m.jsonl", rows);
  const auto o = run_aeval(fmt::format("--registry {} run --dataset {} --prompt say-it --model llm {} "
                                       "--evaluator same-text -q --no-cache --output {}",
                                       (dir / "registry").string(), (dir / "m.jsonl").string(), options,
                                       (dir / "out").string()));
  EXPECT_EQ(o.status, 0) << o.output.substr(0, 2000);
  const auto run = aeval::testing::read_only_run(dir / "out");
  EXPECT_EQ(run.by_id.size(), 3u);
  for (const auto& [id, record] : run.by_id) {
    if (id == failing) continue;
    EXPECT_TRUE(record["error"].is_null()) << id;
    EXPECT_EQ(record["scores"]["same-text"]["value"], 1.0) << id;
  }
  EXPECT_EQ(run.summary["counts"]["failed"], 1);
  return run.by_id.count(failing) ? run.by_id.at(failing) : json();
}

TEST(HostileJsonE2E, AManifestFieldNestedTooDeepFailsItsSampleAlone) {
  aeval::testing::OpenAiTestServer server([](const aeval::testing::ReceivedRequest& r, int) {
    aeval::testing::ScriptedReply reply;
    reply.text = sent_text(r);
    return reply;
  });
  TempDir dir;
  write_registry(dir, server);
  const json failed = run_expecting_one_failure(
      dir,
      R"({"id": "a", "text": "one"})" "\n" R"({"id": "deep", "text": "two", "meta": )" + nested_lists(kDepth) + "}\n" +
          R"({"id": "c", "text": "three"})" "\n",
      "", "deep");
  EXPECT_EQ(failed["error"]["stage"], "dataset");
  EXPECT_EQ(failed["error"]["category"], "data");
  EXPECT_EQ(failed["error"]["message"], (dir / "m.jsonl").string() + ":2: field 'meta': JSON nested deeper than 1000 levels");
  EXPECT_EQ(failed["reference"], "two");
  EXPECT_FALSE(failed["fields"].contains("meta"));
  EXPECT_EQ(server.requests(), 2);
}

TEST(HostileJsonE2E, AnAnswerNestedTooDeepFailsItsSampleAlone) {
  aeval::testing::OpenAiTestServer server([](const aeval::testing::ReceivedRequest& r, int) {
    aeval::testing::ScriptedReply reply;
    const std::string sent = sent_text(r);
    reply.text = json{{"answer", sent}}.dump();
    if (sent == "two") reply.text = R"(Here it is: {"answer": )" + nested_lists(kDepth) + "}";
    return reply;
  });
  TempDir dir;
  write_registry(dir, server);
  const json failed = run_expecting_one_failure(
      dir, R"({"id": "a", "text": "one"})" "\n" R"({"id": "b", "text": "two"})" "\n" R"({"id": "c", "text": "three"})" "\n",
      "--post-process answer-field", "b");
  EXPECT_EQ(failed["error"]["stage"], "score");
  EXPECT_EQ(failed["error"]["message"], "JSON nested deeper than 1000 levels");
}

}  // namespace
