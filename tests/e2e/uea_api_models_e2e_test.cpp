// UltraEval-Audio's API model classes, as a UEA user names them (its own `gemini-1.5-pro` and `gpt4o_audio`
// entries, unchanged), run by aeval through its bridge to UEA's classes against local stand-ins that speak the
// vendors' protocols: Gemini's generateContent over HTTP, OpenAI's Realtime API over a TLS WebSocket
// (tests/support/uea_python/realtime_standin.py). The classes find the stand-ins where a user points them
// elsewhere: GOOGLE_BASE_URL, OPENAI_URL (and SSL_CERT_FILE for the stand-in's certificate). Proved against UEA's
// own main.py: the same requests, the same result files. UEA's `mb-gpt4o-mini` (LlmCenterModel, whose address is
// written into the class) reaches its stand-in through an HTTPS proxy. UEA's `gpt4o_transcribe` (AudioTranscribe) runs through
// a stand-in for the `openai` SDK, which Debian lacks (tests/support/uea_python/openai_standin.py).
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <set>

#include "support/openai_test_server.hpp"
#include "support/require.hpp"
#include "support/uea_python.hpp"
#include "util/base64.hpp"
#include "util/sha256.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::testing::lines_of;
using aeval::testing::read_bytes;
using aeval::testing::run_aeval;
using aeval::testing::run_shell;
using aeval::testing::ScopedEnv;
using nlohmann::json;

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

// A stand-in server written in Python (tests/support/uea_python/SCRIPT FOLDER), which prints its port first; a
// TLS certificate for `host` in FOLDER/cert.pem and key.pem, made before it starts. Stopped with the test.
class PythonStandin {
 public:
  void start(const std::string& script, const fs::path& folder, const std::string& host) {
    const std::string san = host.find_first_not_of("0123456789.") == std::string::npos ? "IP:" + host : "DNS:" + host;
    const auto made = run_shell(fmt::format(
        "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN={} -addext subjectAltName={} -keyout {} -out {} 2>&1",
        host, san, quoted(folder / "key.pem"), quoted(folder / "cert.pem")));
    ASSERT_EQ(0, made.status) << made.output;
    int out[2];
    ASSERT_EQ(0, pipe(out));
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      const std::string path = std::string(AEVAL_SOURCE_DIR) + "/tests/support/uea_python/" + script;
      execl(aeval::testing::kDebianPython.c_str(), "python3", path.c_str(), folder.c_str(), nullptr);
      _exit(127);
    }
    close(out[1]);
    FILE* port_line = fdopen(out[0], "r");
    ASSERT_EQ(1, fscanf(port_line, "%d", &port_)) << script << " did not start";
    fclose(port_line);
  }
  int port() const { return port_; }
  ~PythonStandin() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

// Runs UEA's entry `model` on the stand-in set with aeval, then with UEA's main.py (`options` given to both),
// each saving UEA's result files.
class UeaApiModelsE2E : public aeval::testing::UeaTreeTest {
 protected:
  void run_both(const std::string& model, const std::string& options = "") {
    // Every request goes to the stand-in (none from the response cache, which outlives the test in its build).
    const auto ours = run_aeval(fmt::format("uea run --uea-dir {} --dataset standin-set --model {} {} --output {} --quiet "
                                            "--no-cache --save {}",
                                            quoted(dir_ / "uea"), model, options, quoted(dir_ / "results"),
                                            quoted(dir_ / "aeval.jsonl")));
    ASSERT_EQ(0, ours.status) << ours.output;
    asked_by_aeval_ = asked();
    const auto theirs =
        uea_main(fmt::format("--dataset standin-set --model {} {} --save {}", model, options, quoted(dir_ / "uea.jsonl")));
    ASSERT_EQ(0, theirs.status) << theirs.output;
  }

  // The requests the stand-in got so far, each as one line.
  virtual std::vector<std::string> asked() const = 0;

  // The stand-in got the same 6 requests from both, and both wrote the same result files (one worker: in order).
  void expect_same_requests_and_results() const {
    const std::vector<std::string> all = asked();
    ASSERT_EQ(12u, all.size());
    const std::multiset<std::string> by_aeval(all.begin(), all.begin() + 6), by_uea(all.begin() + 6, all.end());
    EXPECT_EQ(by_uea, by_aeval) << "the stand-in got other requests from aeval than from UEA's main.py";
    EXPECT_EQ(read_bytes(dir_ / "uea.jsonl"), read_bytes(dir_ / "aeval.jsonl"));
    EXPECT_EQ(read_bytes(dir_ / "uea-overall.json"), read_bytes(dir_ / "aeval-overall.json"));
    EXPECT_NE(read_bytes(dir_ / "aeval-overall.json").find("'wer(%)'"), std::string::npos);
  }

  std::vector<std::string> asked_by_aeval_;
  json answers_;  // the clip's sha256 → the stand-in tree's answer for it (standin_tree.py)
};

// UEA's Gemini class posts the clip inline, base64, to generateContent with the key in the query and as a bearer
// token. The stand-in answers each clip with the stand-in tree's answer for it, as UEA's asr prompt asks.
class GeminiE2E : public UeaApiModelsE2E {
 protected:
  std::vector<std::string> asked() const override {
    std::vector<std::string> lines;
    for (const auto& r : server_.received()) lines.push_back(r.path + " " + r.authorization + " " + r.body.dump());
    return lines;
  }

  aeval::testing::OpenAiTestServer server_{[this](const aeval::testing::ReceivedRequest& r, int) {
    aeval::testing::ScriptedReply reply;
    std::string clip;
    for (const auto& part : r.body["contents"][0]["parts"])
      if (part.contains("inlineData")) clip = aeval::util::unbase64(part["inlineData"]["data"].get<std::string>()).value_or("");
    const json answer = {{"content", answers_.value(aeval::sha256_hex(clip), "?")}};
    reply.body = json{{"candidates", {{{"content", {{"role", "model"}, {"parts", {{{"text", answer.dump()}}}}}}}}}}.dump();
    return reply;
  }};
};

TEST_F(GeminiE2E, UeasGeminiEntrySendsWhatUeaMainSendsAndGivesItsResults) {
  make_tree();
  answers_ = json::parse(read_bytes(dir_ / "weights" / "answers.json"));
  const std::string base = server_.base_url().substr(0, server_.base_url().size() - 3);  // without /v1
  const ScopedEnv url("GOOGLE_BASE_URL", base.c_str()), key("GOOGLE_API_KEY", "test-key");
  run_both("gemini-1.5-pro");
  ASSERT_FALSE(HasFatalFailure());
  expect_same_requests_and_results();
  const auto first = server_.received().front();
  EXPECT_EQ("/v1beta/models/gemini-1.5-pro:generateContent", first.path);
  EXPECT_EQ("Bearer test-key", first.authorization);
  EXPECT_EQ("audio/wav", first.body["contents"][0]["parts"][0]["inlineData"]["mimeType"]);
}

// UEA's AudioTranscribe class uploads the clip to /audio/transcriptions with the entry's model name. It reads the
// prompt as a dict with the clip under "audio": UEA's Whisper prompts (`whisper-asr`) render one, its chat prompts
// (the asr task's own) a list, on which the class raises in UEA as in aeval.
class TranscribeE2E : public UeaApiModelsE2E {
 protected:
  std::vector<std::string> asked() const override {
    std::vector<std::string> lines;
    for (const auto& r : transcriber_.received())
      lines.push_back(r.path + " " + r.authorization + " " + r.body.dump() + " " + aeval::sha256_hex(r.files.at("file")));
    return lines;
  }

  aeval::testing::OpenAiTestServer transcriber_{[this](const aeval::testing::ReceivedRequest& r, int) {
    aeval::testing::ScriptedReply reply;
    reply.text = answers_.value(aeval::sha256_hex(r.files.at("file")), "?");
    return reply;
  }};
};

TEST_F(TranscribeE2E, UeasGpt4oTranscribeEntrySendsWhatUeaMainSendsAndGivesItsResults) {
  AEVAL_REQUIRE(aeval::testing::write_python_standins("openai_standin.py", dir_ / "standins"),
                "tests/support/uea_python/openai_standin.py");
  make_tree();
  answers_ = json::parse(read_bytes(dir_ / "weights" / "answers.json"));
  const std::string path = (dir_ / "standins").string() + ":" + python_path_;
  const ScopedEnv python_path("PYTHONPATH", path.c_str()), url("OPENAI_BASE_URL", transcriber_.base_url().c_str()),
      key("OPENAI_API_KEY", "test-key");
  run_both("gpt4o_transcribe", "--prompt whisper-asr");
  ASSERT_FALSE(HasFatalFailure());
  expect_same_requests_and_results();
  const auto first = transcriber_.received().front();
  EXPECT_EQ("/v1/audio/transcriptions", first.path);
  EXPECT_EQ("gpt-4o-transcribe", first.body["model"]);
}

// UEA's GPT4oAudio class streams the clip, resampled to 24 kHz PCM16 by ffmpeg, in 100 ms appends after a
// session.update carrying the prompt's text as instructions, and reads the answer's text deltas.
class RealtimeE2E : public UeaApiModelsE2E {
 protected:
  void SetUp() override {
    UeaApiModelsE2E::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    AEVAL_REQUIRE(run_shell(aeval::testing::kDebianPython + " -c 'import websockets, pydub' 2>&1").status == 0 &&
                      run_shell("command -v ffmpeg openssl").status == 0,
                  "what UEA's GPT4oAudio class imports and runs (python3-websockets python3-pydub ffmpeg), and openssl");
    realtime_.start("realtime_standin.py", dir_.path(), "127.0.0.1");
    if (HasFatalFailure()) return;
    url_.emplace("OPENAI_URL", fmt::format("127.0.0.1:{}", realtime_.port()).c_str());
  }

  std::vector<std::string> asked() const override { return lines_of(dir_ / "sessions.log"); }

  PythonStandin realtime_;
  std::optional<ScopedEnv> url_;
  ScopedEnv key_{"OPENAI_API_KEY", "test-key"}, certificate_{"SSL_CERT_FILE", (dir_ / "cert.pem").c_str()};
};

TEST_F(RealtimeE2E, UeasGpt4oAudioEntrySendsWhatUeaMainSendsAndGivesItsResults) {
  make_tree();
  run_both("gpt4o_audio");
  ASSERT_FALSE(HasFatalFailure());
  expect_same_requests_and_results();
  const json session = json::parse(asked().front());
  EXPECT_EQ("/v1/realtime?model=gpt-4o-realtime-preview-2024-10-01", session["path"]);
  EXPECT_EQ("Bearer test-key", session["authorization"]);
  EXPECT_EQ("realtime=v1", session["openai_beta"]);
  EXPECT_EQ(json::array({"text"}), session["session.update"]["session"]["modalities"]);
  EXPECT_GT(session["appends"].get<int>(), 1);  // streamed in chunks
}

// UEA's LlmCenterModel (`mb-gpt4o-mini`) posts to ModelBest's LLM center, whose address is written into the
// class: the stand-in is reached through an HTTPS proxy, as from behind a company's (HTTPS_PROXY; its certificate
// for llm-center.modelbest.cn in REQUESTS_CA_BUNDLE). The class fetches a token, then posts each clip as a data URI.
class LlmCenterE2E : public UeaApiModelsE2E {
 protected:
  void SetUp() override {
    UeaApiModelsE2E::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    AEVAL_REQUIRE(run_shell("command -v openssl").status == 0, "openssl");
    center_.start("llmcenter_standin.py", dir_.path(), "llm-center.modelbest.cn");
    if (HasFatalFailure()) return;
    proxy_.emplace("HTTPS_PROXY", fmt::format("http://127.0.0.1:{}", center_.port()).c_str());
  }

  std::vector<std::string> asked() const override { return lines_of(dir_ / "calls.log"); }

  PythonStandin center_;
  std::optional<ScopedEnv> proxy_;
  ScopedEnv token_{"LLMCenterUserToken", "user-token"}, certificate_{"REQUESTS_CA_BUNDLE", (dir_ / "cert.pem").c_str()},
      no_proxy_{"NO_PROXY", nullptr}, no_proxy_lower_{"no_proxy", nullptr};
};

TEST_F(LlmCenterE2E, UeasLlmCenterEntrySendsWhatUeaMainSendsAndGivesItsResults) {
  make_tree();
  run_both("mb-gpt4o-mini");
  ASSERT_FALSE(HasFatalFailure());
  expect_same_requests_and_results();
  const json call = json::parse(asked().front());
  EXPECT_EQ("center-token-1", call["app-token"]);
  EXPECT_EQ(108, call["payload"]["modelId"]);
  EXPECT_EQ(30, call["payload"]["modelParamConfig"]["max_new_tokens"]);  // the entry's sample_params
}

}  // namespace
