// The OpenAI-compatible backends against the local scriptable test server:
// audio upload, logprobs passthrough, transcription upload (and the built-in Whisper server entry), every fault with
// its retry count, key redaction, and 2,000 requests at concurrency 128.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "evaluators/model_loading.hpp"
#include "models/openai.hpp"
#include "registry/registry.hpp"
#include "support/openai_test_server.hpp"

namespace {

using aeval::models::OpenAiConfig;
using aeval::testing::OpenAiTestServer;
using aeval::testing::ReceivedRequest;
using aeval::testing::ScriptedReply;
using nlohmann::json;

aeval::Audio tone(double seconds = 0.25) {
  aeval::Audio a;
  a.sample_rate = 16000;
  a.channels = 1;
  for (int i = 0; i < int(seconds * 16000); ++i) a.samples.push_back(0.3f * float(std::sin(i * 0.05)));
  return a;
}

aeval::models::Request chat_request(const std::string& text, bool with_audio = true) {
  aeval::models::Request r;
  r.sample_id = "s1";
  aeval::models::Message m{"user", {}};
  if (with_audio) {
    r.audio.push_back(tone());
    m.parts.push_back({aeval::models::Part::Type::audio, "", 0});
  }
  m.parts.push_back({aeval::models::Part::Type::text, text, 0});
  r.messages.push_back(m);
  return r;
}

OpenAiConfig config_for(const OpenAiTestServer& server) {
  OpenAiConfig c;
  c.name = "test-llm";
  c.base_urls = {server.base_url()};
  c.model = "judge-7b";
  c.timeout_seconds = 5;
  c.max_retries = 2;
  c.backoff_seconds = 0.01;
  return c;
}

// A server that takes the connection and answers each request only after `seconds`.
OpenAiTestServer::Script silent_for(double seconds) {
  return [seconds](const ReceivedRequest&, int) {
    ScriptedReply r;
    r.delay_seconds = seconds;
    return r;
  };
}

std::string error_of(aeval::models::Model& model, const aeval::models::Request& request) {
  try {
    model.infer_and_wait(request);
  } catch (const aeval::Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string base64_decode(const std::string& in) {
  std::string out;
  int value = 0, bits = -8;
  for (unsigned char c : in) {
    const auto pos = std::string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").find(char(c));
    if (pos == std::string::npos) break;
    value = (value << 6) + int(pos);
    bits += 6;
    if (bits >= 0) {
      out += char((value >> bits) & 0xFF);
      bits -= 8;
    }
  }
  return out;
}

TEST(OpenAiChat, SendsAudioAndParametersAndReturnsLogprobsIntact) {
  const json logprobs = {{"content", {{{"token", "Yes"}, {"logprob", -0.1},
                                       {"top_logprobs", {{{"token", "Yes"}, {"logprob", -0.1}}, {{"token", "No"}, {"logprob", -2.4}}}}}}}};
  OpenAiTestServer server([&](const ReceivedRequest&, int) {
    ScriptedReply r;
    r.text = "Yes";
    r.logprobs = logprobs;
    return r;
  });
  OpenAiConfig c = config_for(server);
  c.temperature = 0;
  c.max_tokens = 1;
  c.seed = 7;
  c.logprobs = true;
  c.top_logprobs = 5;
  auto model = aeval::models::make_openai_chat(c);
  const auto response = model->infer_and_wait(chat_request("Is there a dog?"));
  EXPECT_EQ(response.text, "Yes");
  EXPECT_EQ(response.logprobs, logprobs);

  const auto got = server.received().at(0);
  EXPECT_EQ(got.path, "/v1/chat/completions");
  EXPECT_EQ(got.body["model"], "judge-7b");
  EXPECT_EQ(got.body["temperature"], 0.0);
  EXPECT_EQ(got.body["max_tokens"], 1);
  EXPECT_EQ(got.body["seed"], 7);
  EXPECT_EQ(got.body["logprobs"], true);
  EXPECT_EQ(got.body["top_logprobs"], 5);
  const json& content = got.body["messages"][0]["content"];
  EXPECT_EQ(content[1], (json{{"type", "text"}, {"text", "Is there a dog?"}}));
  EXPECT_EQ(content[0]["type"], "input_audio");
  EXPECT_EQ(content[0]["input_audio"]["format"], "wav");
  const std::string wav = base64_decode(content[0]["input_audio"]["data"]);
  EXPECT_EQ(wav.substr(0, 4), "RIFF");
  EXPECT_EQ(wav.size(), 44u + 2 * 4000) << "16-bit PCM WAV of the 0.25 s input";
}

ScriptedReply hello_world(const ReceivedRequest&, int) {
  ScriptedReply r;
  r.text = "hello world";
  return r;
}

// What `model` sent `server` (which answers hello_world) for one clip, having checked the text it returned.
ReceivedRequest sent_for_one_clip(aeval::models::Model& model, const OpenAiTestServer& server) {
  aeval::models::Request request;
  request.sample_id = "a";
  request.audio.push_back(tone());
  EXPECT_EQ(model.infer_and_wait(request).text, "hello world");
  return server.received().back();
}

TEST(OpenAiTranscription, UploadsTheAudioAsMultipart) {
  OpenAiTestServer server(hello_world);
  OpenAiConfig c = config_for(server);
  c.model = "whisper-1";
  c.language = "en";
  auto model = aeval::models::make_openai_transcription(c);
  const auto got = sent_for_one_clip(*model, server);
  EXPECT_EQ(got.path, "/v1/audio/transcriptions");
  EXPECT_EQ(got.body["model"], "whisper-1");
  EXPECT_EQ(got.body["language"], "en");
  ASSERT_TRUE(got.files.count("file"));
  EXPECT_EQ(got.files.at("file").substr(0, 4), "RIFF");
}

// The built-in entry of a Whisper server, through its class (openai_transcription), pointed at the test server.
TEST(OpenAiTranscription, TheBuiltInWhisperServerEntryAsksForItsModelAndLanguage) {
  OpenAiTestServer server(hello_world);
  aeval::registry::Registry registry({aeval::registry::builtin_registry_dir()});
  aeval::registry::apply_assignment(registry, "whisper-large-v3-server.base_url=" + server.base_url());
  auto model = aeval::pipeline::load_model(registry, "whisper-large-v3-server");
  const auto got = sent_for_one_clip(*model, server);
  EXPECT_EQ(got.path, "/v1/audio/transcriptions");
  EXPECT_EQ(got.body["model"], "openai/whisper-large-v3");
  EXPECT_EQ(got.body["language"], "en");
}

TEST(OpenAiChat, RetriesWhatIsRetryableAndCountsAttempts) {
  struct Case {
    const char* name;
    std::function<ScriptedReply(int)> reply;
    int expected_requests;
    bool succeeds;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"5xx then success", [](int i) { ScriptedReply r; if (i < 2) r.status = 503; return r; }, 3, true, ""},
      {"429 without Retry-After", [](int i) { ScriptedReply r; if (i == 0) r.status = 429; return r; }, 2, true, ""},
      {"always 500", [](int) { ScriptedReply r; r.status = 500; r.body = "overloaded"; return r; }, 3, false,
       "gave up after 3 attempts; last: " },
      {"truncated body", [](int) { ScriptedReply r; r.truncate = true; return r; }, 3, false, "gave up after 3 attempts"},
      {"not JSON", [](int) { ScriptedReply r; r.body = "<html>oops</html>"; return r; }, 1, false,
       "not a JSON object: <html>oops</html>"},
      {"JSON without the fields", [](int) { ScriptedReply r; r.body = R"({"choices": []})"; return r; }, 1, false,
       "has no choices[0].message.content"},
      {"400 is not retried", [](int) { ScriptedReply r; r.status = 400; r.body = "bad request"; return r; }, 1, false,
       "HTTP 400: bad request"},
  };
  for (const auto& c : cases) {
    OpenAiTestServer server([&](const ReceivedRequest&, int index) { return c.reply(index); });
    auto model = aeval::models::make_openai_chat(config_for(server));
    const std::string message = error_of(*model, chat_request("hi", false));
    EXPECT_EQ(server.requests(), c.expected_requests) << c.name;
    if (c.succeeds) EXPECT_EQ(message, "(no error)") << c.name;
    else EXPECT_NE(message.find(c.message), std::string::npos) << c.name << ": " << message;
  }
}

// An endpoint that has answered and then goes down for a while (every
// request refused for 1.5 s here, ten times what max_retries at this back-off
// outlasts) fails no sample: retries go on through the outage.
TEST(OpenAiChat, RetriesOutlastAnOutageOfAWorkingEndpoint) {
  std::atomic<bool> down{false};
  std::chrono::steady_clock::time_point outage_ends;
  OpenAiTestServer server([&](const ReceivedRequest&, int) {
    ScriptedReply r;
    if (down && std::chrono::steady_clock::now() < outage_ends) r.status = 503;
    return r;
  });
  OpenAiConfig c = config_for(server);  // two retries, 10 ms apart at first: 0.1 s at most
  c.max_concurrency = 4;
  auto model = aeval::models::make_openai_chat(c);
  ASSERT_EQ(error_of(*model, chat_request("before", false)), "(no error)");
  outage_ends = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
  down = true;
  std::vector<std::thread> samples;
  std::atomic<int> failed{0};
  for (int i = 0; i < 8; ++i)
    samples.emplace_back([&] {
      if (error_of(*model, chat_request("during", false)) != "(no error)") ++failed;
    });
  for (auto& t : samples) t.join();
  EXPECT_EQ(failed, 0);
  EXPECT_GT(server.requests(), 9) << "the outage was retried";
}

// An endpoint that never answered gets max_retries only: a dead one fails fast.
TEST(OpenAiChat, ADeadEndpointGetsMaxRetriesOnly) {
  OpenAiTestServer server([](const ReceivedRequest&, int) {
    ScriptedReply r;
    r.status = 503;
    return r;
  });
  auto model = aeval::models::make_openai_chat(config_for(server));
  EXPECT_NE(error_of(*model, chat_request("hi", false)).find("gave up after 3 attempts"), std::string::npos);
  EXPECT_EQ(server.requests(), 3);
}

// The IETF draft's RateLimit field (its reset, t=) is honoured as Retry-After is, as the Hub client does.
TEST(OpenAiChat, HonoursARateLimitFieldsReset) {
  OpenAiTestServer server([](const ReceivedRequest&, int index) {
    ScriptedReply r;
    if (index == 0) r.status = 429, r.headers["RateLimit"] = "\"default\";r=0;t=1";
    return r;
  });
  auto model = aeval::models::make_openai_chat(config_for(server));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(model->infer_and_wait(chat_request("hi", false)).text, "ok");
  EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.95);
  EXPECT_EQ(server.requests(), 2);
}

TEST(OpenAiChat, HonoursRetryAfter) {
  OpenAiTestServer server([](const ReceivedRequest&, int index) {
    ScriptedReply r;
    if (index == 0) r.status = 429, r.headers["Retry-After"] = "1";
    return r;
  });
  auto model = aeval::models::make_openai_chat(config_for(server));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(model->infer_and_wait(chat_request("hi", false)).text, "ok");
  EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.95);
  EXPECT_EQ(server.requests(), 2);
}

// An endpoint that has answered before rides out timeouts with retries; one that takes the connection and has never
// answered anything is a dead end at once (a server stuck or still loading would hold every sample for each
// attempt's timeout), as is a refused connection at an endpoint that never answered (nothing listens there).
TEST(OpenAiChat, TimeoutsAreRetriedOnceTheEndpointAnsweredAndSilenceOrRefusalBeforeIsADeadEnd) {
  OpenAiTestServer silent(silent_for(1.5));
  OpenAiConfig c = config_for(silent);
  c.timeout_seconds = 0.3;
  c.max_retries = 1;
  const std::string never = error_of(*aeval::models::make_openai_chat(c), chat_request("hi", false));
  EXPECT_EQ(never.find("gave up"), std::string::npos) << never;
  EXPECT_NE(never.find("took the connection and answered nothing in 0.3 s"), std::string::npos) << never;
  EXPECT_NE(never.find("timeout_seconds=N"), std::string::npos) << never;
  EXPECT_EQ(silent.requests(), 1);

  OpenAiTestServer stalls([](const ReceivedRequest&, int index) {
    ScriptedReply r;
    if (index > 0) r.delay_seconds = 1.5;
    return r;
  });
  c.base_urls = {stalls.base_url()};
  c.outage_seconds = 0;  // retries bounded by max_retries alone
  auto model = aeval::models::make_openai_chat(c);
  EXPECT_EQ(model->infer_and_wait(chat_request("hi", false)).text, "ok");
  const std::string timeout = error_of(*model, chat_request("hi", false));
  EXPECT_NE(timeout.find("gave up after 2 attempts"), std::string::npos) << timeout;
  EXPECT_NE(timeout.find("imed out"), std::string::npos) << timeout;

  std::string closed_url;
  {
    OpenAiTestServer gone([](const ReceivedRequest&, int) { return ScriptedReply{}; });
    closed_url = gone.base_url();
  }
  c.base_urls = {closed_url};
  auto refused = aeval::models::make_openai_chat(c);
  const std::string message = error_of(*refused, chat_request("hi", false));
  EXPECT_EQ(message.find("gave up"), std::string::npos) << message;
  EXPECT_NE(message.find("onnect"), std::string::npos) << message;
  EXPECT_NE(message.find("is its server running there?"), std::string::npos) << message;
}

// first_byte_timeout_seconds ends an attempt whose answer has not begun, long before timeout_seconds, and names
// itself as what to raise; a streamed answer that began in time may take the whole timeout_seconds.
TEST(OpenAiChat, AnAnswerMustBeginInTheFirstByteTimeoutAndAStreamThatBeganKeepsTheWholeTimeout) {
  OpenAiTestServer silent(silent_for(3));
  OpenAiConfig c = config_for(silent);
  c.timeout_seconds = 30;
  c.first_byte_timeout_seconds = 0.3;
  const auto start = std::chrono::steady_clock::now();
  const std::string never = error_of(*aeval::models::make_openai_chat(c), chat_request("hi", false));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.5)
      << "ended by the first-byte limit, not by the 3 s reply";
  EXPECT_NE(never.find("answered nothing in 0.3 s"), std::string::npos) << never;
  EXPECT_NE(never.find("--set test-llm.first_byte_timeout_seconds=N"), std::string::npos) << never;

  OpenAiTestServer trickles([](const ReceivedRequest&, int) {
    ScriptedReply r;
    r.text = "a slow stream";
    r.event_gap_seconds = 0.25;  // five events: about 1 s in all, after the first came at once
    return r;
  });
  c.base_urls = {trickles.base_url()};
  c.stream = true;
  EXPECT_EQ(aeval::models::make_openai_chat(c)->infer_and_wait(chat_request("hi", false)).text, "a slow stream");
  EXPECT_EQ(trickles.requests(), 1) << "no attempt was cut short";
}

// After kDeadEndpointRun requests in a row meet a dead end, no more are sent.
TEST(OpenAiChat, ADeadEndStopsSendingAfterARun) {
  OpenAiTestServer server([](const ReceivedRequest&, int) {
    ScriptedReply r;
    r.status = 403;
    return r;
  });
  auto model = aeval::models::make_openai_chat(config_for(server));
  for (int k = 0; k < 3 * aeval::kDeadEndpointRun; ++k) {
    const std::string message = error_of(*model, chat_request("hi", false));
    EXPECT_NE(message.find("HTTP 403"), std::string::npos) << message;
    EXPECT_EQ(message.find("not sent") != std::string::npos, k >= aeval::kDeadEndpointRun) << message;
  }
  EXPECT_EQ(server.requests(), aeval::kDeadEndpointRun);
}

TEST(OpenAiChat, TheApiKeyIsSentButNeverShown) {
  setenv("AEVAL_TEST_API_KEY", "sk-test-very-secret-42", 1);
  OpenAiTestServer server([](const ReceivedRequest& r, int) {
    ScriptedReply reply;
    reply.status = 401;
    reply.body = "invalid key " + r.authorization;  // servers do echo keys
    return reply;
  });
  OpenAiConfig c = config_for(server);
  c.api_key_env = "AEVAL_TEST_API_KEY";
  auto model = aeval::models::make_openai_chat(c);
  const std::string message = error_of(*model, chat_request("hi", false));
  EXPECT_EQ(server.received().at(0).authorization, "Bearer sk-test-very-secret-42");
  EXPECT_EQ(message.find("sk-test-very-secret-42"), std::string::npos) << message;
  EXPECT_NE(message.find("[redacted]"), std::string::npos) << message;
  EXPECT_EQ(model->identity().dump().find("sk-test"), std::string::npos);
  EXPECT_EQ(model->identity()["api_key_env"], "AEVAL_TEST_API_KEY");

  c.api_key_env = "AEVAL_TEST_UNSET_KEY";
  unsetenv("AEVAL_TEST_UNSET_KEY");
  try {
    aeval::models::make_openai_chat(c);
    ADD_FAILURE() << "no error for an unset key variable";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("AEVAL_TEST_UNSET_KEY"), std::string::npos);
  }
}

TEST(OpenAiChat, TwoThousandRequestsAtConcurrency128AllAnsweredWithinTheBudget) {
  OpenAiTestServer server([&](const ReceivedRequest& r, int) {
    ScriptedReply reply;
    reply.delay_seconds = 0.005;
    reply.text = r.body["messages"][0]["content"][0]["text"];
    return reply;
  });
  OpenAiConfig c = config_for(server);
  c.base_urls = {server.base_url(), server.base_url() + "/"};  // two URLs split the load
  c.max_concurrency = 100;  // fewer than the callers: the model's budget holds
  auto model = aeval::models::make_openai_chat(c);
  constexpr int kRequests = 2000, kThreads = 128;
  std::atomic<int> next{0}, correct{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i; (i = next++) < kRequests;) {
        const std::string text = "request " + std::to_string(i);
        try {
          correct += model->infer_and_wait(chat_request(text, false)).text == text;
        } catch (const aeval::Error&) {
        }
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(correct.load(), kRequests);
  EXPECT_EQ(server.requests(), kRequests);
  EXPECT_LE(server.most_in_flight(), 100);
  EXPECT_GE(server.most_in_flight(), 20) << "requests did not run concurrently";
}

TEST(OpenAiChat, OneCallerKeepsManyRequestsInFlightWithoutWaiting) {
  OpenAiTestServer server([&](const ReceivedRequest& r, int) {
    ScriptedReply reply;
    reply.delay_seconds = 0.300;
    reply.text = r.body["messages"][0]["content"][0]["text"];
    return reply;
  });
  OpenAiConfig c = config_for(server);
  c.max_concurrency = 24;  // fewer than the requests: the rest wait in the budget, not in a thread
  auto model = aeval::models::make_openai_chat(c);
  constexpr int kRequests = 40;
  std::mutex mutex;
  std::condition_variable all_ended;
  int ended = 0, correct = 0;
  std::set<std::thread::id> completing_threads;
  for (int i = 0; i < kRequests; ++i) {
    const std::string text = "question " + std::to_string(i);
    model->infer(chat_request(text, false), [&, text](std::exception_ptr error, aeval::models::Response response) {
      const std::lock_guard lock(mutex);
      correct += !error && response.text == text;
      completing_threads.insert(std::this_thread::get_id());
      if (++ended == kRequests) all_ended.notify_one();
    });
  }
  {
    const std::lock_guard lock(mutex);
    EXPECT_EQ(ended, 0) << "infer() waited for an answer";
  }
  std::unique_lock lock(mutex);
  ASSERT_TRUE(all_ended.wait_for(lock, std::chrono::seconds(30), [&] { return ended == kRequests; }));
  EXPECT_EQ(correct, kRequests);
  EXPECT_EQ(server.most_in_flight(), 24) << "the budget did not fill, or did not hold";
  ASSERT_EQ(completing_threads.size(), 1u) << "completions ran on several threads";
  EXPECT_NE(*completing_threads.begin(), std::this_thread::get_id()) << "a completion ran on the caller";
}

TEST(OpenAiChat, EntriesNamingOneEndpointShareTheSmallestBudget) {
  OpenAiTestServer server([&](const ReceivedRequest&, int) {
    ScriptedReply reply;
    reply.delay_seconds = 0.005;
    return reply;
  });
  OpenAiConfig subject = config_for(server), judge = config_for(server);
  subject.max_concurrency = 8;
  judge.name = "judge";
  judge.base_urls = {server.base_url() + "/"};  // the same endpoint, spelled with a trailing slash
  judge.max_concurrency = 3;
  auto a = aeval::models::make_openai_chat(subject);
  auto b = aeval::models::make_openai_chat(judge);
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) (t % 2 ? a : b)->infer_and_wait(chat_request("hi", false));
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(server.requests(), 160);
  EXPECT_EQ(server.most_in_flight(), 3) << "the two entries did not share one budget of 3";
}


// A spoken answer: 0.5 s of a 24 kHz tone as 16-bit WAV.
aeval::Audio spoken(int rate = 24000) {
  aeval::Audio a;
  a.sample_rate = rate;
  a.channels = 1;
  for (int i = 0; i < rate / 2; ++i) a.samples.push_back(0.25f * float(std::sin(i * 0.03)));
  return a;
}

OpenAiConfig speaking(const OpenAiTestServer& server) {
  OpenAiConfig c = config_for(server);
  c.modalities = {"text", "audio"};
  c.voice = "verse";
  return c;
}

TEST(OpenAiChat, ASpokenAnswerIsItsAudioAndItsTranscript) {
  OpenAiTestServer server([](const ReceivedRequest&, int) {
    ScriptedReply r;
    r.text = "Paris is the capital.";
    r.audio = aeval::encode_wav(spoken());
    return r;
  });
  auto model = aeval::models::make_openai_chat(speaking(server));
  const auto response = model->infer_and_wait(chat_request("What is the capital of France?"));
  EXPECT_EQ(response.text, "Paris is the capital.") << "no content: the transcript is the text";
  ASSERT_TRUE(response.audio);
  EXPECT_EQ(response.audio->sample_rate, 24000);
  EXPECT_EQ(response.audio->samples.size(), 12000u);
  EXPECT_NEAR(response.audio->samples[100], spoken().samples[100], 1.0 / 32768);
  const json body = server.received().at(0).body;
  EXPECT_EQ(body["modalities"], (json{"text", "audio"}));
  EXPECT_EQ(body["audio"], (json{{"voice", "verse"}, {"format", "wav"}}));
  EXPECT_FALSE(body.contains("stream"));
}

TEST(OpenAiChat, AStreamedAnswerIsJoinedFromItsEvents) {
  OpenAiTestServer server([](const ReceivedRequest& request, int) {
    ScriptedReply r;
    r.text = "Paris is the capital.";
    if (request.body.contains("modalities")) r.audio = aeval::encode_wav(spoken());
    return r;
  });
  OpenAiConfig c = speaking(server);
  c.stream = true;
  const auto response = aeval::models::make_openai_chat(c)->infer_and_wait(chat_request("Capital of France?"));
  EXPECT_EQ(server.received().at(0).body["stream"], true);
  EXPECT_EQ(response.text, "Paris is the capital.");
  ASSERT_TRUE(response.audio);
  EXPECT_EQ(response.audio->samples.size(), 12000u) << "the audio's base64, cut across events, joined whole";

  OpenAiConfig text_only = config_for(server);
  text_only.stream = true;
  EXPECT_EQ(aeval::models::make_openai_chat(text_only)->infer_and_wait(chat_request("Capital?")).text,
            "Paris is the capital.");
}

TEST(OpenAiChat, Pcm16AnswersAreRaw24kHzSamples) {
  OpenAiTestServer server([](const ReceivedRequest&, int) {
    ScriptedReply r;
    r.text = "yes";
    const std::vector<int16_t> pcm = aeval::to_pcm16(spoken().samples);
    r.audio.assign(reinterpret_cast<const char*>(pcm.data()), pcm.size() * 2);
    return r;
  });
  OpenAiConfig c = speaking(server);
  c.audio_format = "pcm16";
  const auto response = aeval::models::make_openai_chat(c)->infer_and_wait(chat_request("Yes?"));
  ASSERT_TRUE(response.audio);
  EXPECT_EQ(response.audio->sample_rate, 24000);
  EXPECT_EQ(response.audio->samples.size(), 12000u);
  EXPECT_EQ(server.received().at(0).body["audio"]["format"], "pcm16");
}

TEST(OpenAiChat, ABrokenSpokenAnswerFailsWithItsCause) {
  const auto answer = [](std::string audio, std::string body = "") {
    return [audio, body](const ReceivedRequest&, int) {
      ScriptedReply r;
      r.text = "Paris";
      r.audio = audio;
      r.body = body;
      return r;
    };
  };
  const auto error_with = [&](OpenAiTestServer::Script script, bool ask_audio = true) {
    OpenAiTestServer server(std::move(script));
    auto model = aeval::models::make_openai_chat(ask_audio ? speaking(server) : config_for(server));
    return error_of(*model, chat_request("Capital?"));
  };
  EXPECT_NE(error_with(answer("this is not audio at all, just words")).find("the spoken answer"), std::string::npos);
  const std::string not_base64 =
      R"({"choices":[{"message":{"role":"assistant","content":null,"audio":{"data":"@@@@","transcript":"x"}}}]})";
  EXPECT_NE(error_with(answer("", not_base64)).find("not base64"), std::string::npos);
  const std::string empty = R"({"choices":[{"message":{"role":"assistant","content":null,"audio":{"data":""}}}]})";
  EXPECT_NE(error_with(answer("", empty)).find("empty"), std::string::npos);
  EXPECT_NE(error_with(answer("")).find("asked for a spoken answer"), std::string::npos)
      << "a text answer where audio was asked for";
  const std::string stream_error = "data: {\"error\": {\"message\": \"overloaded\"}}\n\n";
  OpenAiTestServer server(answer("", stream_error));
  OpenAiConfig c = config_for(server);
  c.stream = true;
  c.max_retries = 0;
  auto model = aeval::models::make_openai_chat(c);
  EXPECT_NE(error_of(*model, chat_request("Capital?")).find("overloaded"), std::string::npos);
}

TEST(OpenAiSpeech, ReadsTheTextAloudThroughAudioSpeech) {
  OpenAiTestServer server([](const ReceivedRequest&, int) {
    ScriptedReply r;
    r.audio = aeval::encode_wav(spoken(16000));
    return r;
  });
  OpenAiConfig c = config_for(server);
  c.model = "tts-1";
  c.voice = "alloy";
  auto model = aeval::models::make_openai_speech(c);
  aeval::models::Request request;
  request.sample_id = "u1";
  request.fields = {{"text", "Hello there."}};
  const auto response = model->infer_and_wait(request);
  ASSERT_TRUE(response.audio);
  EXPECT_EQ(response.audio->sample_rate, 16000);
  EXPECT_EQ(response.audio->samples.size(), 8000u);
  const auto got = server.received().at(0);
  EXPECT_EQ(got.path, "/v1/audio/speech");
  EXPECT_EQ(got.body, (json{{"model", "tts-1"}, {"input", "Hello there."}, {"voice", "alloy"}, {"response_format", "wav"}}));

  request.fields = {{"text", "  "}};
  EXPECT_NE(error_of(*model, request).find("nothing to speak"), std::string::npos);
}

}  // namespace
