// A model endpoint that can serve no sample (nothing listening, a refused
// key, a wrong path) stops the run after a few samples instead of failing
// the whole dataset one sample at a time, and says why on stderr; a run
// that stored nothing leaves no folder behind.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "aeval/error.hpp"
#include "support/openai_test_server.hpp"
#include "support/run_aeval.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

// A registry with model `remote` at `base_url` (retries as by default) and a
// prompt that sends a sample's text, and 200 text samples.
void write_setup(const TempDir& dir, const std::string& base_url, int max_concurrency = 2) {
  std::ofstream m(dir / "numbers.jsonl");
  for (int i = 0; i < 200; ++i)
    m << nlohmann::json{{"id", fmt::format("n{}", i)}, {"text", fmt::format("number {}", i)}}.dump() << "\n";
  std::filesystem::create_directories(dir / "registry" / "models");
  std::filesystem::create_directories(dir / "registry" / "prompts");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("remote:\n  class: openai_chat\n  args:\n    base_url: {}\n    model: echo\n"
                          "    input_sample_rate: 0\n    max_concurrency: {}\n",
                          base_url, max_concurrency));
  write_bytes(dir / "registry" / "prompts" / "p.yaml",
              "say-it:\n  class: chat\n  args:\n    messages:\n      - role: user\n        content:\n"
              "          - {type: text, value: \"{{ reference }}\"}\n");
}

aeval::testing::Outcome run_remote(const TempDir& dir) {
  return run_aeval(fmt::format("--registry {} run --dataset {} --prompt say-it --model remote --evaluator wer -q "
                               "--no-cache --output {}",
                               (dir / "registry").string(), (dir / "numbers.jsonl").string(), (dir / "out").string()));
}

std::size_t run_folders(const std::filesystem::path& out) {
  std::size_t n = 0;
  if (std::filesystem::exists(out))
    for (const auto& f : std::filesystem::recursive_directory_iterator(out)) n += f.path().filename() == "run.sqlite";
  return n;
}

TEST(DeadEndpointE2E, NothingListeningStopsTheRunNamingTheCauseAndTheRunResumes) {
  std::string base_url;
  {  // a port that served once and listens no more
    aeval::testing::OpenAiTestServer gone([](const aeval::testing::ReceivedRequest&, int) { return aeval::testing::ScriptedReply{}; });
    base_url = gone.base_url();
  }
  TempDir dir;
  write_setup(dir, base_url);
  const auto o = run_remote(dir);
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("aeval: network error: model 'remote': " + base_url + "/chat/completions: "),
            std::string::npos) << o.output;
  EXPECT_NE(o.output.find("is its server running there?"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("5 samples in a row failed so, and the run stopped"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("aeval run --resume " + (dir / "out").string()), std::string::npos) << o.output;
  // The failed samples stay stored, as failed, so that --resume runs them again.
  EXPECT_EQ(run_folders(dir / "out"), 1u);
}

TEST(DeadEndpointE2E, ARefusedKeyStopsTheRunAfterAFewRequests) {
  aeval::testing::OpenAiTestServer server([](const aeval::testing::ReceivedRequest&, int) {
    aeval::testing::ScriptedReply reply;
    reply.status = 401;
    reply.body = R"({"error": {"message": "Incorrect API key provided"}})";
    return reply;
  });
  TempDir dir;
  write_setup(dir, server.base_url());
  const auto o = run_remote(dir);
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("HTTP 401: {\"error\": {\"message\": \"Incorrect API key provided\"}}; the server wants an "
                          "API key: name the environment variable holding it in the entry's api_key_env"),
            std::string::npos)
      << o.output;
  // The model sends no more after five in a row met the refusal (one more may
  // have left meanwhile, at max_concurrency 2): not 200.
  EXPECT_GE(server.requests(), aeval::kDeadEndpointRun);
  EXPECT_LE(server.requests(), aeval::kDeadEndpointRun + 1);
}

TEST(DeadEndpointE2E, AWrongPathNamesBaseUrlAndTheModel) {
  aeval::testing::OpenAiTestServer server([](const aeval::testing::ReceivedRequest&, int) {
    aeval::testing::ScriptedReply reply;
    reply.status = 404;
    reply.body = "The model `echo` does not exist.";
    return reply;
  });
  TempDir dir;
  write_setup(dir, server.base_url());
  const auto o = run_remote(dir);
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("check base_url (OpenAI-compatible servers answer under /v1) and the model name 'echo'"),
            std::string::npos)
      << o.output;
}

// A server that takes connections and never answers stops the run as one that refuses them does, instead of
// holding every sample for each attempt's timeout (on c42b611: 5 attempts of 120 s per sample, for hours).
TEST(DeadEndpointE2E, AServerThatNeverAnswersStopsTheRunNamingTheWait) {
  aeval::testing::OpenAiTestServer silent([](const aeval::testing::ReceivedRequest&, int) {
    aeval::testing::ScriptedReply reply;
    reply.delay_seconds = 5;
    return reply;
  });
  TempDir dir;
  write_setup(dir, silent.base_url());
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("remote:\n  class: openai_chat\n  args:\n    base_url: {}\n    model: echo\n"
                          "    input_sample_rate: 0\n    max_concurrency: 2\n    timeout_seconds: 0.5\n",
                          silent.base_url()));
  const auto o = run_remote(dir);
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("took the connection and answered nothing in 0.5 s"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("samples in a row failed so, and the run stopped"), std::string::npos) << o.output;
  EXPECT_LE(silent.requests(), 2 * aeval::kDeadEndpointRun) << "each sample was tried once, and few were";
}

// Samples that fail by other causes, or that alternate with answers, never stop a run.
TEST(DeadEndpointE2E, FailuresBetweenAnswersDoNotStopTheRun) {
  aeval::testing::OpenAiTestServer server([](const aeval::testing::ReceivedRequest&, int index) {
    aeval::testing::ScriptedReply reply;
    if (index % 2) reply.status = 404, reply.body = "not here";
    return reply;
  });
  TempDir dir;
  write_setup(dir, server.base_url(), 1);
  const auto o = run_remote(dir);
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(server.requests(), 200);
}

// A server failing for a while stalls the samples it fails, and no sample ends to update the progress line: each
// cause of the retries is said once on stderr as it starts, the URL, the server's answer and the wait.
TEST(DeadEndpointE2E, RetriesSayTheirCauseOnceEach) {
  aeval::testing::OpenAiTestServer server([](const aeval::testing::ReceivedRequest&, int index) {
    aeval::testing::ScriptedReply reply;
    if (index < 4) reply.status = 503, reply.body = "overloaded, try later";
    return reply;
  });
  TempDir dir;
  write_setup(dir, server.base_url(), 1);
  write_bytes(dir / "numbers.jsonl", "{\"id\": \"a\", \"text\": \"ok\"}\n{\"id\": \"b\", \"text\": \"ok\"}\n");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("remote:\n  class: openai_chat\n  args:\n    base_url: {}\n    model: echo\n"
                          "    input_sample_rate: 0\n    max_concurrency: 1\n    backoff_seconds: 0.01\n",
                          server.base_url()));
  const auto o = run_remote(dir);
  EXPECT_EQ(o.status, 0) << o.output;
  const std::string said = fmt::format("aeval: model 'remote': {}/chat/completions: HTTP 503: overloaded, try later; "
                                       "retrying in ", server.base_url());
  EXPECT_NE(o.output.find(said), std::string::npos) << o.output;
  EXPECT_EQ(o.output.find(said), o.output.rfind(said)) << "said once for its cause: " << o.output;
  EXPECT_NE(o.output.find("(sample 'a', attempt 2 of 5)"), std::string::npos) << o.output;
}

TEST(DeadEndpointE2E, ARunThatStoredNothingLeavesNoFolder) {
  TempDir dir;
  write_setup(dir, "http://127.0.0.1:9/v1");
  // Rows without a reference text for WER: the run stops before any inference.
  write_bytes(dir / "numbers.jsonl", "{\"id\": \"a\", \"note\": \"x\"}\n");
  const auto o = run_remote(dir);
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_TRUE(!std::filesystem::exists(dir / "out") || std::filesystem::is_empty(dir / "out")) << o.output;
}

}  // namespace
