#pragma once
// What every model backend implements. A model turns a rendered request (text
// and audio inputs) into a response. Implementations are thread-safe up to
// max_concurrency() calls in flight.
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "aeval/audio.hpp"

namespace aeval::models {

// One part of a chat message: text, or the index of an input in Request::audio.
struct Part {
  enum class Type { text, audio } type = Type::text;
  std::string text;
  std::size_t audio_index = 0;
};

struct Message {
  std::string role;  // system, user or assistant
  std::vector<Part> parts;
};

struct Request {
  std::string sample_id;
  std::vector<Message> messages;  // chat prompts; empty for plain field prompts
  nlohmann::json fields = nlohmann::json::object();  // non-chat prompts: rendered text fields
  std::vector<Audio> audio;       // inputs, already converted by the audio layer
};

struct Response {
  std::string text;
  double compute_seconds = 0;  // time the model itself spent
  nlohmann::json logprobs;     // the server's logprobs object, intact (null when none)
  std::optional<Audio> audio;  // codecs and TTS: the audio produced
};

class Model {
 public:
  virtual ~Model() = default;
  virtual Response infer(const Request& request) = 0;
  // What input audio this model needs; the pipeline converts before infer().
  // 0: the model reads no audio (the pipeline does not decode any).
  virtual int input_sample_rate() const = 0;
  virtual int max_concurrency() const = 0;
  // Whether answers may be served from the response cache (paid or slow
  // inference, text answers). Local codecs and TTS say no.
  virtual bool cacheable() const { return true; }
  // Name, backend, versions and files: recorded in every summary.
  virtual nlohmann::json identity() const = 0;
  // Where the model's own events go (a process model's stderr): the run log.
  // nullptr detaches it. Models without events ignore it.
  virtual void set_log(std::function<void(const nlohmann::json&)> sink) { (void)sink; }
};

}  // namespace aeval::models
