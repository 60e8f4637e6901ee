// What OpenAI-compatible servers answer, read: a chat completion (text, logprobs, a spoken
// answer), one assembled from its server-sent events, a transcription, and speech.
#include <fmt/format.h>

#include <cstdint>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "models/openai.hpp"
#include "util/base64.hpp"

namespace aeval::models {

namespace {

using nlohmann::json;

// The string at `key` of an object, else nullptr.
const std::string* text_at(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

// OpenAI's pcm16: raw 24 kHz mono 16-bit little-endian samples.
Audio pcm16_audio(const std::string& bytes, const std::string& what) {
  if (bytes.size() % 2 != 0) throw Error(ErrorCategory::audio, what + ": pcm16 audio of an odd number of bytes");
  Audio audio;
  audio.sample_rate = 24000;
  audio.channels = 1;
  audio.samples.reserve(bytes.size() / 2);
  for (std::size_t k = 0; k + 1 < bytes.size(); k += 2) {
    const auto v = static_cast<int16_t>(static_cast<uint16_t>(static_cast<unsigned char>(bytes[k])) |
                                        static_cast<uint16_t>(static_cast<unsigned char>(bytes[k + 1])) << 8);
    audio.samples.push_back(static_cast<float>(v) / 32768.0f);
  }
  validate_audio(audio, what);
  return audio;
}

}  // namespace

Audio answer_audio(const std::string& bytes, const std::string& format, const std::string& what) {
  if (bytes.empty()) throw Error(ErrorCategory::audio, what + ": the answer's audio is empty");
  if (format == "pcm16") return pcm16_audio(bytes, what);
  return decode_audio_bytes(bytes, what, "answer." + format);
}

std::optional<Response> chat_response(const json& reply, const std::string& audio_format) {
  const json* choice = reply.contains("choices") && reply["choices"].is_array() && !reply["choices"].empty()
                           ? &reply["choices"][0]
                           : nullptr;
  const json* message = choice && choice->is_object() && choice->contains("message") ? &(*choice)["message"] : nullptr;
  if (!message || !message->is_object()) return std::nullopt;
  const std::string* content = text_at(*message, "content");
  const json* audio = message->contains("audio") && (*message)["audio"].is_object() ? &(*message)["audio"] : nullptr;
  if (!content && !audio) return std::nullopt;
  Response response;
  if (content) response.text = *content;
  if (audio) {
    const std::string* data = text_at(*audio, "data");
    if (!data) throw Error(ErrorCategory::model, "the spoken answer (message.audio) has no base64 data");
    const auto bytes = util::unbase64(*data);
    if (!bytes) throw Error(ErrorCategory::model, "the spoken answer's data (message.audio.data) is not base64");
    response.audio = answer_audio(*bytes, audio_format, "the spoken answer");
    // As UltraEval-Audio's AdvancedGPT: the text, else what the audio says.
    if (const std::string* transcript = text_at(*audio, "transcript"); response.text.empty() && transcript)
      response.text = *transcript;
  }
  if (choice->contains("logprobs") && !(*choice)["logprobs"].is_null()) response.logprobs = (*choice)["logprobs"];
  return response;
}

std::optional<json> streamed_reply(const std::string& body) {
  std::string content, audio_data, transcript;
  json logprobs = nullptr;
  bool any = false, has_content = false, has_audio = false;
  std::size_t at = 0;
  while (at < body.size()) {
    std::size_t end = body.find('\n', at);
    if (end == std::string::npos) end = body.size();
    std::string line = body.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("data:", 0) != 0) continue;  // comments, event names, blank separators
    std::string data = line.substr(5);
    if (!data.empty() && data.front() == ' ') data.erase(0, 1);
    if (data == "[DONE]") break;
    const json event = json::parse(data, nullptr, false);
    if (event.is_discarded() || !event.is_object())
      throw Error(ErrorCategory::model, "a streamed event is not a JSON object: " + data.substr(0, 200));
    if (event.contains("error"))
      throw Error(ErrorCategory::model, "the stream ended with an error: " + event["error"].dump().substr(0, 300));
    any = true;
    if (!event.contains("choices") || !event["choices"].is_array() || event["choices"].empty()) continue;
    const json& choice = event["choices"][0];
    if (!choice.is_object()) continue;
    if (const auto d = choice.find("delta"); d != choice.end() && d->is_object()) {
      if (const std::string* piece = text_at(*d, "content")) {
        content += *piece;
        has_content = true;
      }
      if (const auto a = d->find("audio"); a != d->end() && a->is_object()) {
        has_audio = true;
        if (const std::string* piece = text_at(*a, "data")) audio_data += *piece;
        if (const std::string* piece = text_at(*a, "transcript")) transcript += *piece;
      }
    }
    if (const auto l = choice.find("logprobs"); l != choice.end() && l->is_object() && l->contains("content") &&
                                                  (*l)["content"].is_array()) {
      if (logprobs.is_null()) logprobs = {{"content", json::array()}};
      for (const auto& token : (*l)["content"]) logprobs["content"].push_back(token);
    }
  }
  if (!any) return std::nullopt;
  json message = {{"role", "assistant"}, {"content", has_content ? json(content) : json(nullptr)}};
  if (has_audio) message["audio"] = {{"data", audio_data}, {"transcript", transcript}};
  json choice = {{"index", 0}, {"message", message}};
  if (!logprobs.is_null()) choice["logprobs"] = logprobs;
  return json{{"choices", {choice}}};
}

std::optional<Response> transcription_response(const json& reply) {
  const std::string* text = text_at(reply, "text");
  if (!text) return std::nullopt;
  Response response;
  response.text = *text;
  return response;
}

}  // namespace aeval::models
