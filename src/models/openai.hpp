#pragma once
// Models served behind OpenAI-compatible APIs (vLLM, SGLang, llama.cpp
// server, OpenAI, Gemini's compatible endpoint): chat completions with text
// and audio input, logprobs and spoken answers (whole or streamed), audio
// transcriptions, and speech (text to speech). Requests go through
// the shared libcurl multi client; retryable failures (connection errors,
// timeouts, 408, 429 with or without Retry-After, 5xx, truncated bodies) are
// retried with exponential backoff and jitter; the API key, read from the
// environment variable the entry names, never appears in identities, logs or
// errors.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aeval/models/model.hpp"

namespace aeval::models {

struct OpenAiConfig {
  std::string name;                    // the registry entry, for messages
  std::vector<std::string> base_urls;  // "http://host:8000/v1"; several split the load
  std::string model;                   // the server's model name
  std::string api_key_env;             // "" : no Authorization header
  int input_sample_rate = 16000;
  int max_concurrency = 16;
  double timeout_seconds = 120;        // per attempt, the whole answer
  // How long an attempt waits for the answer to begin (0: timeout_seconds). Below timeout_seconds it ends a
  // silent attempt early while a streamed answer, once begun, keeps timeout_seconds.
  double first_byte_timeout_seconds = 0;
  int max_retries = 4;
  double backoff_seconds = 0.5;        // first retry delay; doubles, with jitter, capped at 30 s
  // Once the endpoint has answered a request, a later one keeps retrying past
  // max_retries for this long after its first failure: an outage or a restart
  // of a working server fails no sample, while a dead endpoint fails fast.
  double outage_seconds = 60;
  // chat completions
  std::optional<double> temperature;
  std::optional<int> max_tokens;
  std::optional<long> seed;
  std::vector<std::string> stop;
  bool logprobs = false;
  int top_logprobs = 0;
  // Spoken answers: modalities ["text", "audio"] asks for audio in `voice` and
  // `audio_format` (wav, mp3, flac, opus or pcm16). Empty: none sent.
  std::vector<std::string> modalities;
  std::string voice = "alloy";
  std::string audio_format = "wav";
  bool stream = false;  // ask for server-sent events and assemble them
  // transcriptions
  std::string language;
};

// What a 2xx answer's JSON object says: choices[0].message.content (with the
// choice's logprobs) and a spoken answer's audio (message.audio.data, base64
// in `audio_format`; its transcript is the text when there is no content)
// from chat completions, text from transcriptions; nullopt when the reply
// lacks it. Audio that is not base64, empty or undecodable throws aeval::Error.
std::optional<Response> chat_response(const nlohmann::json& reply, const std::string& audio_format = "wav");
std::optional<Response> transcription_response(const nlohmann::json& reply);
// A streamed chat completion (server-sent events, "data: {...}" lines up to
// "data: [DONE]") as the one reply it adds up to: the deltas' content, audio
// data and transcript, and logprobs, joined. nullopt when `body` holds no
// event; an event that is not JSON, or an error event, throws aeval::Error.
std::optional<nlohmann::json> streamed_reply(const std::string& body);
// Audio a server answered with, in `format` (pcm16: raw 24 kHz mono); `what`
// names it in errors. Empty or undecodable audio throws aeval::Error.
Audio answer_audio(const std::string& bytes, const std::string& format, const std::string& what);

// Throw aeval::Error (config) when no base URL is given or the key variable is unset.
std::unique_ptr<Model> make_openai_chat(const OpenAiConfig& config);
std::unique_ptr<Model> make_openai_transcription(const OpenAiConfig& config);
// /audio/speech: the request's text read aloud in `voice`, `audio_format`.
std::unique_ptr<Model> make_openai_speech(const OpenAiConfig& config);

}  // namespace aeval::models
