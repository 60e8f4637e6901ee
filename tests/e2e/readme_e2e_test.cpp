// The README's example of evaluating one's own model works as written: its
// model YAML, pointed at a local OpenAI-compatible server, runs a task with
// the command form the README shows (--registry after the command).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "support/openai_test_server.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::read_bytes;
using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

// The fenced block that starts with the line `first`, without its fences.
std::string readme_block(const std::string& first) {
  const std::string readme = read_bytes(std::filesystem::path(AEVAL_SOURCE_DIR) / "README.md");
  const auto start = readme.find("\n" + first + "\n");
  if (start == std::string::npos) return "";
  return readme.substr(start + 1, readme.find("```", start) - start - 1);
}

TEST(ReadmeE2E, TheOwnModelYamlRunsAsWritten) {
  std::string yaml = readme_block("# my-registry/models/my-server.yaml");
  ASSERT_FALSE(yaml.empty()) << "README.md shows no my-registry/models/my-server.yaml";
  const std::string readme = read_bytes(std::filesystem::path(AEVAL_SOURCE_DIR) / "README.md");
  ASSERT_NE(readme.find("aeval run --task librispeech-test-clean --model my-server --registry my-registry"),
            std::string::npos);
  aeval::testing::OpenAiTestServer server([](const aeval::testing::ReceivedRequest&, int) {
    aeval::testing::ScriptedReply reply;
    reply.text = "A";
    return reply;
  });
  const std::string url = "http://localhost:8000/v1";
  ASSERT_NE(yaml.find(url), std::string::npos) << yaml;
  yaml.replace(yaml.find(url), url.size(), server.base_url());
  TempDir dir;
  std::filesystem::create_directories(dir / "my-registry" / "models");
  write_bytes(dir / "my-registry" / "models" / "my-server.yaml", yaml);
  const auto o = run_aeval(fmt::format("run --task spoken-mcq --model my-server --registry {} -q --output {}",
                                       (dir / "my-registry").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir / "out");
  EXPECT_EQ(run.summary["counts"]["failed"], 0);
  EXPECT_EQ(server.requests(), run.summary["counts"]["samples"].get<int>());
  EXPECT_GT(server.requests(), 0);
  EXPECT_EQ(server.received().at(0).body["model"], "Qwen/Qwen2-Audio-7B-Instruct");
}

}  // namespace
