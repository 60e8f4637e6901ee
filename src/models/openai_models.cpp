#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include <thread>

#include "aeval/error.hpp"
#include "aeval/models/endpoint_budget.hpp"
#include "aeval/models/http_client.hpp"
#include "aeval/models/openai.hpp"

namespace aeval::models {

namespace {

std::string base64(const std::string& bytes) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (unsigned char)bytes[i] << 16 | (unsigned char)bytes[i + 1] << 8 | (unsigned char)bytes[i + 2];
    out += {table[v >> 18], table[(v >> 12) & 63], table[(v >> 6) & 63], table[v & 63]};
  }
  if (i + 1 == bytes.size()) {
    const unsigned v = (unsigned char)bytes[i] << 16;
    out += {table[v >> 18], table[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const unsigned v = (unsigned char)bytes[i] << 16 | (unsigned char)bytes[i + 1] << 8;
    out += {table[v >> 18], table[(v >> 12) & 63], table[(v >> 6) & 63], '='};
  }
  return out;
}

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
    if (config_.max_concurrency < 1)
      throw Error(ErrorCategory::config, fmt::format("model '{}': max_concurrency must be at least 1", config_.name));
    budget_ = EndpointBudget::of(config_.base_urls, config_.max_concurrency);
    identity_ = {{"backend", backend}, {"base_urls", config_.base_urls}, {"model", config_.model},
                 {"input_sample_rate", config_.input_sample_rate}};
    if (!config_.api_key_env.empty()) identity_["api_key_env"] = config_.api_key_env;  // the name, never the key
  }

  int input_sample_rate() const override { return config_.input_sample_rate; }
  int max_concurrency() const override { return config_.max_concurrency; }
  nlohmann::json identity() const override { return identity_; }

 protected:
  // POSTs to `path` on one of the base URLs, retrying what is retryable;
  // returns the parsed JSON of a 2xx answer or throws a redacted error.
  nlohmann::json call(const std::string& path, HttpRequest request, const std::string& sample_id) {
    // The endpoint's budget holds for every caller at once: the runner's
    // workers, any evaluator using this model, and other entries naming the endpoint.
    const EndpointBudget::Slot slot(*budget_);
    if (!key_.empty()) request.headers.push_back("Authorization: Bearer " + key_);
    request.timeout_seconds = config_.timeout_seconds;
    thread_local std::mt19937_64 rng(std::random_device{}());
    std::string last;
    const int attempts = config_.max_retries + 1;
    for (int attempt = 1; attempt <= attempts; ++attempt) {
      const std::string& base = config_.base_urls[next_url_++ % config_.base_urls.size()];
      request.url = base + path;
      const HttpResponse r = shared_http_client().send(request).get();
      if (r.status >= 200 && r.status < 300) {
        const auto j = nlohmann::json::parse(r.body, nullptr, false);
        if (j.is_discarded() || !j.is_object())
          fail(fmt::format("{}{} answered sample '{}' with something that is not a JSON object: {}", base, path, sample_id,
                           r.body.substr(0, 200)));
        return j;
      }
      last = fmt::format("{}{}: {}", base, path, reason(r));
      if (!retryable(r) || attempt == attempts) {
        if (!retryable(r)) fail(fmt::format("sample '{}': {}", sample_id, last));
        break;
      }
      // Retry-After (seconds) when the server says; else exponential backoff with jitter.
      double wait = std::min(30.0, config_.backoff_seconds * std::pow(2.0, attempt - 1)) *
                    std::uniform_real_distribution<double>(0.5, 1.5)(rng);
      if (auto it = r.headers.find("retry-after"); it != r.headers.end()) {
        char* end = nullptr;
        const double seconds = std::strtod(it->second.c_str(), &end);
        if (end != it->second.c_str() && seconds >= 0) wait = std::min(seconds, 60.0);
      }
      std::this_thread::sleep_for(std::chrono::duration<double>(wait));
    }
    fail(fmt::format("sample '{}': gave up after {} attempts; last: {}", sample_id, attempts, last), ErrorCategory::network);
  }

  [[noreturn]] void fail(std::string message, ErrorCategory category = ErrorCategory::model) const {
    // A server may echo the key back (e.g. in a 401 body): it never leaves this function.
    if (!key_.empty())
      for (std::size_t at; (at = message.find(key_)) != std::string::npos;) message.replace(at, key_.size(), "[redacted]");
    throw Error(category, fmt::format("model '{}': {}", config_.name, message));
  }

  OpenAiConfig config_;
  nlohmann::json identity_;

 private:
  std::shared_ptr<EndpointBudget> budget_;
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
    parameters_ = parameters;
    identity_["parameters"] = parameters;
  }

  Response infer(const Request& request) override {
    const auto start = std::chrono::steady_clock::now();
    nlohmann::json messages = nlohmann::json::array();
    const auto audio_part = [&](std::size_t index) {
      return nlohmann::json{{"type", "input_audio"},
                            {"input_audio", {{"data", base64(encode_wav(request.audio.at(index)))}, {"format", "wav"}}}};
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
    const nlohmann::json reply = call("/chat/completions", std::move(http), request.sample_id);
    const nlohmann::json* choice =
        reply.contains("choices") && reply["choices"].is_array() && !reply["choices"].empty() ? &reply["choices"][0] : nullptr;
    if (!choice || !choice->contains("message") || !(*choice)["message"].contains("content") ||
        !(*choice)["message"]["content"].is_string())
      fail(fmt::format("the answer to sample '{}' has no choices[0].message.content: {}", request.sample_id,
                       reply.dump().substr(0, 200)));
    Response response;
    response.text = (*choice)["message"]["content"];
    if (choice->contains("logprobs") && !(*choice)["logprobs"].is_null()) response.logprobs = (*choice)["logprobs"];
    response.compute_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return response;
  }

 private:
  nlohmann::json parameters_;
};

class OpenAiTranscription final : public OpenAiBase {
 public:
  explicit OpenAiTranscription(OpenAiConfig config) : OpenAiBase(std::move(config), "openai_transcription") {
    if (!config_.language.empty()) identity_["language"] = config_.language;
  }

  Response infer(const Request& request) override {
    const auto start = std::chrono::steady_clock::now();
    if (request.audio.size() != 1)
      fail(fmt::format("transcription takes one audio input, sample '{}' has {}", request.sample_id, request.audio.size()));
    HttpRequest http;
    http.parts.push_back({"file", encode_wav(request.audio[0]), "audio.wav", "audio/wav"});
    http.parts.push_back({"model", config_.model, "", ""});
    http.parts.push_back({"response_format", "json", "", ""});
    if (!config_.language.empty()) http.parts.push_back({"language", config_.language, "", ""});
    const nlohmann::json reply = call("/audio/transcriptions", std::move(http), request.sample_id);
    if (!reply.contains("text") || !reply["text"].is_string())
      fail(fmt::format("the transcription of sample '{}' has no text: {}", request.sample_id, reply.dump().substr(0, 200)));
    Response r;
    r.text = reply["text"];
    r.compute_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }
};

}  // namespace

std::unique_ptr<Model> make_openai_chat(const OpenAiConfig& config) { return std::make_unique<OpenAiChat>(config); }

std::unique_ptr<Model> make_openai_transcription(const OpenAiConfig& config) {
  return std::make_unique<OpenAiTranscription>(config);
}

}  // namespace aeval::models
