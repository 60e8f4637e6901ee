#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <thread>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "models/endpoint_budget.hpp"
#include "models/http_client.hpp"
#include "models/openai.hpp"
#include "models/model_classes.hpp"
#include "util/base64.hpp"
#include "util/download.hpp"

namespace aeval::models {

namespace {

bool retryable(const HttpResponse& r) {
  return r.status == 0 || r.status == 408 || r.status == 429 || r.status >= 500;
}

// What went wrong with one attempt, in words.
std::string reason(const HttpResponse& r) {
  if (r.status == 0) return r.transport_error;
  std::string snippet = r.body.substr(0, 300);
  for (char& c : snippet)
    if (c == '\n' || c == '\r') c = ' ';
  return fmt::format("HTTP {}{}", r.status, snippet.empty() ? "" : ": " + snippet);
}

// The shared machinery of both endpoints: key, load split, retries, redaction.
class OpenAiBase : public Model {
 public:
  explicit OpenAiBase(OpenAiConfig config, const char* backend) : config_(std::move(config)) {
    if (config_.base_urls.empty())
      throw Error(ErrorCategory::config, fmt::format("model '{}': no base_url", config_.name));
    for (auto& url : config_.base_urls)
      while (!url.empty() && url.back() == '/') url.pop_back();
    if (!config_.api_key_env.empty()) {
      const char* key = std::getenv(config_.api_key_env.c_str());
      if (!key || !*key)
        throw Error(ErrorCategory::config, fmt::format("model '{}': the environment variable {} (its API key) is not set",
                                                       config_.name, config_.api_key_env));
      key_ = key;
    }
    budget_ = EndpointBudget::of(config_.base_urls, config_.max_concurrency);
    identity_ = {{"backend", backend}, {"base_urls", config_.base_urls}, {"model", config_.model},
                 {"input_sample_rate", config_.input_sample_rate}};
    if (!config_.api_key_env.empty()) identity_["api_key_env"] = config_.api_key_env;  // the name, never the key
  }

  int input_sample_rate() const override { return config_.input_sample_rate; }
  int max_concurrency() const override { return config_.max_concurrency; }
  nlohmann::json identity() const override { return identity_; }

 protected:
  // What a call ends with: the parsed JSON of a 2xx answer, or the error.
  using Answer = std::function<void(std::exception_ptr error, nlohmann::json reply)>;

  // POSTs to `path` on one of the base URLs once the endpoint's budget has a
  // place, retrying what is retryable, and hands `done` the parsed JSON of a
  // 2xx answer or a redacted error. No thread waits meanwhile: the budget,
  // the transfers and the back-off all continue on the HTTP loop.
  void call(std::string path, HttpRequest request, std::string sample_id, Answer done) {
    if (!key_.empty()) request.headers.push_back("Authorization: Bearer " + key_);
    request.timeout_seconds = config_.timeout_seconds;
    request.first_byte_seconds = config_.first_byte_timeout_seconds;
    auto c = std::make_shared<Call>(Call{std::move(path), std::move(request), std::move(sample_id), std::move(done), 0, {}, 0});
    // The endpoint's budget holds for every caller at once: the runner, any
    // evaluator using this model, and other entries naming the endpoint.
    budget_->acquire([this, c] { attempt(c); });
  }

  // One inference: the HTTP request `build` makes goes to `path`, and `done`
  // gets what `read` makes of the reply, timed from now; a failure at any
  // step goes to `done` instead.
  template <typename Build, typename Read>
  void exchange(std::string path, const Request& request, Completion done, Build build, Read read) {
    const auto start = std::chrono::steady_clock::now();
    HttpRequest http;
    try {
      http = build();
    } catch (...) {
      return done(std::current_exception(), {});
    }
    call(std::move(path), std::move(http), request.sample_id,
         [done = std::move(done), read = std::move(read), start](std::exception_ptr error, nlohmann::json reply) {
           if (error) return done(std::move(error), {});
           complete(done, [&] {
             Response response = read(reply);
             response.compute_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
             return response;
           });
         });
  }

  // An Error with the API key blanked out: a server may echo the key back
  // (e.g. in a 401 body), and it must never leave this class.
  Error redacted(std::string message, ErrorCategory category = ErrorCategory::model) const {
    return Error(category, redact(fmt::format("model '{}': {}", config_.name, message)));
  }
  std::string redact(std::string message) const {
    if (!key_.empty())
      for (std::size_t at; (at = message.find(key_)) != std::string::npos;) message.replace(at, key_.size(), "[redacted]");
    return message;
  }

  [[noreturn]] void fail(std::string message) const { throw redacted(std::move(message)); }

  // A 2xx body as the endpoint answers: by default a JSON object (nullopt when it is not).
  virtual std::optional<nlohmann::json> reply_of(const std::string& body) const {
    auto j = nlohmann::json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    return j;
  }
  virtual const char* what_reply_is() const { return "a JSON object"; }

  OpenAiConfig config_;
  nlohmann::json identity_;

 private:
  struct Call {
    std::string path;
    HttpRequest request;
    std::string sample_id;
    Answer done;
    int attempts = 0;
    std::optional<std::chrono::steady_clock::time_point> first_failure;
    int answered_attempts = 0;  // attempts whose end came back (read and written on the HTTP loop only)
  };

  void attempt(const std::shared_ptr<Call>& c) {
    if (auto dead = dead_endpoint()) return end(c, std::make_exception_ptr(EndpointError(*dead)));
    ++c->attempts;
    std::string base = config_.base_urls[next_url_++ % config_.base_urls.size()];
    c->request.url = base + c->path;
    watch_for_silence(c, c->attempts);
    shared_http_client().send(c->request, [this, c, base = std::move(base)](HttpResponse r) { answered(c, base, r); });
  }

  // A request still unanswered after kSlowSeconds says so on stderr, once per model: a user waiting on a silent
  // or overloaded server learns within a minute what the run waits for.
  static constexpr double kSlowSeconds = 30;
  void watch_for_silence(const std::shared_ptr<Call>& c, int attempt) {
    if (silence_seconds() <= kSlowSeconds || slow_said_) return;
    shared_http_client().after(kSlowSeconds, [this, c, attempt] {
      if (c->answered_attempts >= attempt || slow_said_.exchange(true)) return;
      std::fprintf(stderr,
                   "aeval: model '%s': %s has not answered sample '%s' for %.0f s; each attempt waits up to %.0f s "
                   "(%s), %d attempts at most\n",
                   config_.name.c_str(), c->request.url.c_str(), c->sample_id.c_str(), kSlowSeconds,
                   silence_seconds(), silence_option(), config_.max_retries + 1);
    });
  }

  void answered(const std::shared_ptr<Call>& c, const std::string& base, const HttpResponse& r) {
    ++c->answered_attempts;
    if (r.status >= 200 && r.status < 300) {
      has_answered_ = true;
      met_dead_end(std::nullopt);
      std::optional<nlohmann::json> j;
      try {
        j = reply_of(r.body);
      } catch (const Error& e) {
        return end(c, redacted(fmt::format("{}{} answered sample '{}': {}", base, c->path, c->sample_id, e.what())));
      }
      if (!j)
        return end(c, redacted(fmt::format("{}{} answered sample '{}' with something that is not {}: {}", base, c->path,
                                           c->sample_id, what_reply_is(), r.body.substr(0, 200))));
      return end(c, nullptr, std::move(*j));
    }
    const std::string last = fmt::format("{}{}: {}", base, c->path, reason(r));
    if (const auto advice = dead_end(r)) {
      std::string message = redact(fmt::format("model '{}': {}; {}", config_.name, last, *advice));
      met_dead_end(message);
      return end(c, std::make_exception_ptr(EndpointError(std::move(message))));
    }
    if (!retryable(r)) return end(c, redacted(fmt::format("sample '{}': {}", c->sample_id, last)));
    const auto now = std::chrono::steady_clock::now();
    if (!c->first_failure) c->first_failure = now;
    const bool through_outage =
        has_answered_ && std::chrono::duration<double>(now - *c->first_failure).count() < config_.outage_seconds;
    if (c->attempts > config_.max_retries && !through_outage)
      return end(c, redacted(fmt::format("sample '{}': gave up after {} attempts; last: {}", c->sample_id, c->attempts,
                                         last),
                             ErrorCategory::network));
    // What the server asks (Retry-After, or its RateLimit window's reset); else exponential backoff with jitter.
    thread_local std::mt19937_64 rng(std::random_device{}());
    double wait = std::min(30.0, config_.backoff_seconds * std::pow(2.0, c->attempts - 1)) *
                  std::uniform_real_distribution<double>(0.5, 1.5)(rng);
    if (const auto asked = asked_wait_seconds(r.headers)) wait = std::min(double(*asked), 60.0);
    say_retrying(c, reason(r), wait);
    shared_http_client().after(wait, [this, c] { attempt(c); });
  }

  // While a failing server is retried no sample ends, so the progress line cannot say why it stalls: stderr says
  // so once for each cause (status or transport error), for the first few causes of this model.
  void say_retrying(const std::shared_ptr<Call>& c, const std::string& why, double wait) {
    const std::lock_guard lock(dead_mutex_);
    if (retry_causes_.size() >= 3 || !retry_causes_.insert(why.substr(0, why.find(':'))).second) return;
    std::fprintf(stderr, "aeval: model '%s': %s: %s; retrying in %.1f s (sample '%s', attempt %d of %s)\n",
                 config_.name.c_str(), redact(c->request.url).c_str(), redact(why).c_str(), wait, c->sample_id.c_str(),
                 c->attempts + 1,
                 has_answered_ ? "any, while the outage lasts" : std::to_string(config_.max_retries + 1).c_str());
  }

  // Why no request can succeed at this endpoint as it is configured, and what
  // to check; nullopt when a later attempt may. Nothing listening counts only
  // until the endpoint first answers: after that it is an outage or a
  // restart, which retries ride out.
  std::optional<std::string> dead_end(const HttpResponse& r) const {
    if (r.status == 0 && r.unreachable && !has_answered_)
      return "is its server running there? (base_url in the model's entry: `aeval describe " + config_.name + "`)";
    // A server that takes connections and never answers would hold every sample for each attempt's timeout.
    if (r.status == 0 && r.silent && !has_answered_)
      return fmt::format("it took the connection and answered nothing in {0} s: is the server still loading, or stuck? "
                         "(a slow one: raise {1}, `--set {2}.{1}=N`)",
                         silence_seconds(), silence_option(), config_.name);
    if (r.status == 401 || r.status == 403)
      return config_.api_key_env.empty()
                 ? "the server wants an API key: name the environment variable holding it in the entry's api_key_env"
                 : "check the API key in $" + config_.api_key_env;
    if (r.status == 404)
      return fmt::format("check base_url (OpenAI-compatible servers answer under /v1) and the model name '{}'",
                         config_.model);
    return std::nullopt;
  }

  // How long an attempt waits for its answer to begin, and the option that sets it.
  bool first_byte_limited() const {
    return config_.first_byte_timeout_seconds > 0 && config_.first_byte_timeout_seconds < config_.timeout_seconds;
  }
  double silence_seconds() const { return first_byte_limited() ? config_.first_byte_timeout_seconds : config_.timeout_seconds; }
  const char* silence_option() const { return first_byte_limited() ? "first_byte_timeout_seconds" : "timeout_seconds"; }

  // Counts requests in a row that met a dead end (nullopt: one was answered).
  void met_dead_end(std::optional<std::string> message) {
    const std::lock_guard lock(dead_mutex_);
    dead_ends_ = message ? dead_ends_ + 1 : 0;
    if (message) dead_end_ = std::move(*message);
  }
  // After kDeadEndpointRun requests in a row met a dead end, the endpoint is
  // dead for this model: later calls fail with that error, unsent.
  std::optional<std::string> dead_endpoint() {
    const std::lock_guard lock(dead_mutex_);
    if (dead_ends_ < kDeadEndpointRun) return std::nullopt;
    return fmt::format("{} (not sent: the last {} requests met this)", dead_end_, dead_ends_);
  }

  // The call's end: its place in the budget goes to the next request first.
  void end(const std::shared_ptr<Call>& c, std::exception_ptr error, nlohmann::json reply = nullptr) {
    budget_->release();
    c->done(std::move(error), std::move(reply));
  }
  void end(const std::shared_ptr<Call>& c, const Error& error) { end(c, std::make_exception_ptr(error)); }


  std::shared_ptr<EndpointBudget> budget_;
  std::atomic<bool> has_answered_{false};  // a 2xx came back: the endpoint works
  std::atomic<bool> slow_said_{false};     // the slow-endpoint line was printed
  std::mutex dead_mutex_;
  int dead_ends_ = 0;     // requests in a row that met a dead end
  std::set<std::string> retry_causes_;  // the causes of retries said on stderr (guarded by dead_mutex_)
  std::string dead_end_;  // the last one's error
  std::string key_;
  std::atomic<std::size_t> next_url_{0};
};

class OpenAiChat final : public OpenAiBase {
 public:
  explicit OpenAiChat(OpenAiConfig config) : OpenAiBase(std::move(config), "openai_chat") {
    nlohmann::json parameters = nlohmann::json::object();
    if (config_.temperature) parameters["temperature"] = *config_.temperature;
    if (config_.max_tokens) parameters["max_tokens"] = *config_.max_tokens;
    if (config_.seed) parameters["seed"] = *config_.seed;
    if (!config_.stop.empty()) parameters["stop"] = config_.stop;
    if (config_.logprobs) parameters["logprobs"] = true;
    if (config_.top_logprobs > 0) parameters["top_logprobs"] = config_.top_logprobs;
    if (!config_.modalities.empty()) parameters["modalities"] = config_.modalities;
    if (speaks()) parameters["audio"] = {{"voice", config_.voice}, {"format", config_.audio_format}};
    if (config_.stream) parameters["stream"] = true;
    parameters_ = parameters;
    identity_["parameters"] = parameters;
  }

  void infer(Request request, Completion done) override {
    exchange(
        "/chat/completions", request, std::move(done), [&] { return body_of(request); },
        [this, id = request.sample_id](const nlohmann::json& reply) {
          std::optional<Response> response;
          try {
            response = chat_response(reply, config_.audio_format);
          } catch (const Error& e) {
            fail(fmt::format("sample '{}': {}", id, e.what()));
          }
          if (!response)
            fail(fmt::format("the answer to sample '{}' has no choices[0].message.content{}: {}", id,
                             speaks() ? " or .audio" : "", reply.dump().substr(0, 200)));
          if (speaks() && !response->audio)
            fail(fmt::format("sample '{}': asked for a spoken answer (modalities {}), the answer has no audio", id,
                             nlohmann::json(config_.modalities).dump()));
          return std::move(*response);
        });
  }

 private:
  bool speaks() const {
    return std::find(config_.modalities.begin(), config_.modalities.end(), "audio") != config_.modalities.end();
  }
  std::optional<nlohmann::json> reply_of(const std::string& body) const override {
    return config_.stream ? streamed_reply(body) : OpenAiBase::reply_of(body);
  }
  const char* what_reply_is() const override {
    return config_.stream ? "a stream of server-sent events" : "a JSON object";
  }

  HttpRequest body_of(const Request& request) const {
    nlohmann::json messages = nlohmann::json::array();
    const auto audio_part = [&](std::size_t index) {
      return nlohmann::json{{"type", "input_audio"},
                            {"input_audio", {{"data", util::base64(encode_wav(request.audio.at(index)))}, {"format", "wav"}}}};
    };
    for (const auto& m : request.messages) {
      nlohmann::json content = nlohmann::json::array();
      for (const auto& part : m.parts)
        content.push_back(part.type == Part::Type::audio ? audio_part(part.audio_index)
                                                         : nlohmann::json{{"type", "text"}, {"text", part.text}});
      messages.push_back({{"role", m.role}, {"content", content}});
    }
    if (request.messages.empty()) {  // a non-chat prompt: its text fields and audio as one user turn
      nlohmann::json content = nlohmann::json::array();
      for (std::size_t k = 0; k < request.audio.size(); ++k) content.push_back(audio_part(k));
      for (const auto& [field, value] : request.fields.items())
        content.push_back({{"type", "text"}, {"text", value}});
      messages.push_back({{"role", "user"}, {"content", content}});
    }
    nlohmann::json body = parameters_;
    body["model"] = config_.model;
    body["messages"] = messages;
    HttpRequest http;
    http.headers = {"Content-Type: application/json"};
    http.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return http;
  }

  nlohmann::json parameters_;
};

class OpenAiTranscription final : public OpenAiBase {
 public:
  explicit OpenAiTranscription(OpenAiConfig config) : OpenAiBase(std::move(config), "openai_transcription") {
    if (!config_.language.empty()) identity_["language"] = config_.language;
  }

  void infer(Request request, Completion done) override {
    exchange(
        "/audio/transcriptions", request, std::move(done),
        [&] {
          if (request.audio.size() != 1)
            fail(fmt::format("transcription takes one audio input, sample '{}' has {}", request.sample_id,
                             request.audio.size()));
          HttpRequest http;
          http.parts.push_back({"file", encode_wav(request.audio[0]), "audio.wav", "audio/wav"});
          http.parts.push_back({"model", config_.model, "", ""});
          http.parts.push_back({"response_format", "json", "", ""});
          if (!config_.language.empty()) http.parts.push_back({"language", config_.language, "", ""});
          return http;
        },
        [this, id = request.sample_id](const nlohmann::json& reply) {
          if (auto response = transcription_response(reply)) return std::move(*response);
          fail(fmt::format("the transcription of sample '{}' has no text: {}", id, reply.dump().substr(0, 200)));
        });
  }
};

// /audio/speech: the prompt's text read aloud; the body is the audio itself.
class OpenAiSpeech final : public OpenAiBase {
 public:
  explicit OpenAiSpeech(OpenAiConfig config) : OpenAiBase(std::move(config), "openai_speech") {
    identity_["voice"] = config_.voice;
    identity_["audio_format"] = config_.audio_format;
  }

  void infer(Request request, Completion done) override {
    exchange(
        "/audio/speech", request, std::move(done),
        [&] {
          HttpRequest http;
          http.headers = {"Content-Type: application/json"};
          http.body = nlohmann::json{{"model", config_.model}, {"input", text_to_speak(request)},
                                     {"voice", config_.voice}, {"response_format", config_.audio_format}}
                          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
          return http;
        },
        [this, id = request.sample_id](const nlohmann::json& reply) {
          Response response;
          try {
            response.audio = answer_audio(reply.get_ref<const std::string&>(), config_.audio_format,
                                          fmt::format("the speech of sample '{}'", id));
          } catch (const Error& e) {
            fail(e.what());
          }
          return response;
        });
  }

 private:
  // The audio's bytes, as a JSON string for the base class to carry.
  std::optional<nlohmann::json> reply_of(const std::string& body) const override { return nlohmann::json(body); }
  const char* what_reply_is() const override { return "audio"; }
};

}  // namespace

std::unique_ptr<Model> make_openai_chat(const OpenAiConfig& config) { return std::make_unique<OpenAiChat>(config); }

std::unique_ptr<Model> make_openai_transcription(const OpenAiConfig& config) {
  return std::make_unique<OpenAiTranscription>(config);
}

std::unique_ptr<Model> make_openai_speech(const OpenAiConfig& config) { return std::make_unique<OpenAiSpeech>(config); }

namespace {
namespace arg = registry::arg;
using registry::ArgSpec;

// Arguments every OpenAI-compatible backend takes (input_sample_rate those that send audio).
std::vector<ArgSpec> remote_args(std::vector<ArgSpec> extra, bool sends_audio = true) {
  const OpenAiConfig d;
  std::vector<ArgSpec> args = {
      arg::required_texts("base_url", "http://host:port/v1; a list splits the load"),
      arg::required_text("model", "the model name the server knows"),
      arg::text("api_key_env", d.api_key_env, "environment variable holding the API key (never logged)")};
  if (sends_audio)
    args.push_back(arg::integer("input_sample_rate", d.input_sample_rate, "rate of the WAV audio sent (0: text alone)").at_least(0));
  const std::vector<ArgSpec> transport = {
      arg::integer("max_concurrency", d.max_concurrency, "requests in flight to the endpoint, shared by all entries naming it")
          .at_least(1),
      arg::number("timeout_seconds", d.timeout_seconds, "per attempt, for the whole answer").above(0),
      arg::number("first_byte_timeout_seconds", d.first_byte_timeout_seconds,
                  "per attempt, for the answer to begin (0: timeout_seconds); a streamed answer that has begun keeps "
                  "timeout_seconds")
          .at_least(0),
      arg::integer("max_retries", d.max_retries, "for connection errors, timeouts, 408, 429, 5xx").at_least(0),
      arg::number("backoff_seconds", d.backoff_seconds, "first retry delay; doubles, with jitter").at_least(0),
      arg::number("outage_seconds", d.outage_seconds,
                  "once the endpoint has answered: how long a request retries through an outage, past max_retries")
          .at_least(0)};
  args.insert(args.end(), transport.begin(), transport.end());
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// `sends_audio` false: a model of text alone (input_sample_rate 0: the pipeline decodes no audio for it).
OpenAiConfig remote_config(const registry::Args& args, bool sends_audio = true) {
  OpenAiConfig config;
  config.name = args.entry().name;
  config.base_urls = args.strings("base_url");
  config.model = args.text("model");
  config.api_key_env = args.text("api_key_env");
  config.input_sample_rate = sends_audio ? args.integer("input_sample_rate") : 0;
  config.max_concurrency = args.integer("max_concurrency");
  config.timeout_seconds = args.number("timeout_seconds");
  config.first_byte_timeout_seconds = args.number("first_byte_timeout_seconds");
  config.max_retries = args.integer("max_retries");
  config.backoff_seconds = args.number("backoff_seconds");
  config.outage_seconds = args.number("outage_seconds");
  return config;
}

// UltraEval-Audio's GPT(model_name, is_azure, sample_params): the openai client's chat completions at
// $OPENAI_BASE_URL (the client's own default api.openai.com), key $OPENAI_API_KEY, sample_params as
// request parameters. UEA sends each message's first part as plain text (its judges' prompts are
// text alone); the same text in a part array is the same request to the model.
std::optional<YAML::Node> uea_gpt(const YAML::Node& uea, const std::filesystem::path&) {
  YAML::Node args;
  for (const auto& item : uea) {
    const std::string key = item.first.Scalar();
    if (key == "model_name") args["model"] = item.second;
    else if (key == "is_azure" && item.second.as<std::string>() != "false" && item.second.as<std::string>() != "False")
      throw Error(ErrorCategory::config, "Azure OpenAI (is_azure) is not an endpoint aeval calls");
    else if (key == "sample_params")
      for (const auto& p : item.second) {
        const std::string name = p.first.Scalar();
        if (name != "temperature" && name != "max_tokens" && name != "seed" && name != "stop")
          throw Error(ErrorCategory::config, "sample parameter '" + name + "' is not one aeval's openai_chat sends");
        args[name] = p.second;
      }
    else if (key != "is_azure")
      throw Error(ErrorCategory::config, "GPT has no argument '" + key + "'");
  }
  const char* base_url = std::getenv("OPENAI_BASE_URL");
  args["base_url"] = base_url && *base_url ? base_url : "https://api.openai.com/v1";
  args["api_key_env"] = "OPENAI_API_KEY";
  return args;
}

// UltraEval-Audio's AdvancedGPT(model_name, modalities, voice, audio_format, base_url, api_key,
// sample_params): chat completions with spoken answers; the key from $OPENAI_API_KEY.
std::optional<YAML::Node> uea_advanced_gpt(const YAML::Node& uea, const std::filesystem::path&) {
  YAML::Node args, gpt;
  args["base_url"] = "https://api.openai.com/v1";
  for (const auto& item : uea) {
    const std::string key = item.first.Scalar();
    if (key == "modalities" || key == "voice" || key == "audio_format" || key == "base_url") args[key] = item.second;
    else if (key == "api_key")
      throw Error(ErrorCategory::config, "a key written in the entry (api_key): aeval reads keys from the environment");
    else gpt[key] = item.second;
  }
  const YAML::Node rest = *uea_gpt(gpt, {});
  for (const auto& item : rest)
    if (item.first.Scalar() != "base_url") args[item.first.Scalar()] = item.second;
  return args;
}

const ModelClasses::Registration kOpenAiChatClass{
    {registry::Kind::model, "openai_chat",
     "An OpenAI-compatible chat completions endpoint: text and audio input, logprobs, spoken answers",
     remote_args({arg::optional_number("temperature"), arg::optional_integer("max_tokens"), arg::optional_integer("seed"),
                  arg::texts("stop", {}), arg::boolean("logprobs", false, "return token log-probabilities"),
                  arg::integer("top_logprobs", 0, "alternatives per token"),
                  arg::texts("modalities", {}, "output modalities sent, e.g. [text, audio] for spoken answers (none: not sent)"),
                  arg::text("voice", OpenAiConfig{}.voice, "the voice of spoken answers"),
                  arg::choice("audio_format", OpenAiConfig{}.audio_format, {"wav", "mp3", "flac", "opus", "pcm16"},
                              "the format of spoken answers (pcm16: raw 24 kHz)"),
                  arg::boolean("stream", false, "ask for server-sent events and join them into the answer")}),
     {},
     {{"audio_evals.models.openai.GPT", uea_gpt}, {"audio_evals.models.openai.AdvancedGPT", uea_advanced_gpt}}},
    [](const registry::Args& args) {
      OpenAiConfig config = remote_config(args);
      config.temperature = args.optional_number("temperature");
      config.max_tokens = args.optional_integer("max_tokens");
      config.seed = args.optional_integer("seed");
      config.stop = args.strings("stop");
      config.logprobs = args.boolean("logprobs");
      config.top_logprobs = args.integer("top_logprobs");
      config.modalities = args.strings("modalities");
      config.voice = args.text("voice");
      config.audio_format = args.text("audio_format");
      config.stream = args.boolean("stream");
      return make_openai_chat(config);
    }};

const ModelClasses::Registration kOpenAiSpeechClass{
    {registry::Kind::model, "openai_speech",
     "An OpenAI-compatible /audio/speech endpoint: text to speech (the prompt's text field, or its last user turn)",
     remote_args({arg::text("voice", OpenAiConfig{}.voice, "the voice"),
                  arg::choice("audio_format", OpenAiConfig{}.audio_format, {"wav", "mp3", "flac", "opus", "pcm16"},
                              "the response_format asked for (pcm16: raw 24 kHz)")},
                 false)},
    [](const registry::Args& args) {
      OpenAiConfig config = remote_config(args, false);
      config.voice = args.text("voice");
      config.audio_format = args.text("audio_format");
      return make_openai_speech(config);
    }};

const ModelClasses::Registration kOpenAiTranscriptionClass{
    {registry::Kind::model, "openai_transcription",
     "An OpenAI-compatible /audio/transcriptions endpoint (multipart upload)",
     remote_args({arg::text("language", "", "ISO-639-1 hint")})},
    [](const registry::Args& args) {
      OpenAiConfig config = remote_config(args);
      config.language = args.text("language");
      return make_openai_transcription(config);
    }};
}  // namespace

}  // namespace aeval::models
