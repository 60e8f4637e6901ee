#pragma once
// What every model backend implements. A model turns a rendered request (text
// and audio inputs) into a response, asynchronously: infer() starts the work
// and a completion receives its end, so hundreds of remote requests need no
// thread each. Implementations are thread-safe up to max_concurrency() calls
// in flight.
#include <exception>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "aeval/audio.hpp"
#include "aeval/npy.hpp"

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
  // The prompt as its template's structure renders it (UltraEval-Audio's Prompt.load: chat
  // [{role, contents: [{type, value}]}], a map or a string), null for prompts without one; and the
  // audio the prompt names, as the dataset locates it, for models that read the files themselves.
  nlohmann::ordered_json structure;
  std::vector<std::filesystem::path> audio_files;
  // UltraEval-Audio's models: the keyword arguments inference() is called with besides the prompt (an
  // evaluator's, such as SeedTTSEvalASRWER's generate_kwargs); empty for a plain call.
  nlohmann::json inference_kwargs = nlohmann::json::object();
};

struct Response {
  std::string text;
  double compute_seconds = 0;  // time the model itself spent
  nlohmann::json logprobs;     // the server's logprobs object, intact (null when none)
  std::optional<Audio> audio;  // codecs and TTS: the audio produced
  nlohmann::json scores;       // scoring models: {"name": number, ...} (null when none)
  std::optional<NpyArray> embedding;  // embedders: a vector, or frames × dimensions
};

// The text a text-to-speech model reads aloud: the prompt's "text" field, or
// the text parts of the last user turn. Throws aeval::Error (data) when there
// is none.
std::string text_to_speak(const Request& request);

// Receives the end of one inference: the response when `error` is null, else
// the error (an aeval::Error for what the model or its transport did wrong).
using Completion = std::function<void(std::exception_ptr error, Response response)>;

// Hands `done` the response `make` returns, or the exception it throws. An
// exception from `done` itself is not the inference's: it propagates.
template <typename Make>
void complete(const Completion& done, Make&& make) {
  Response response;
  std::exception_ptr error;
  try {
    response = make();
  } catch (...) {
    error = std::current_exception();
  }
  done(std::move(error), std::move(response));
}

class Model {
 public:
  virtual ~Model() = default;
  // Starts one inference; never throws. `done` runs exactly once, on whichever
  // thread ends the work: the HTTP loop for remote models, the calling thread
  // (before infer returns) for blocking ones. It must neither block nor
  // throw: slow work (scoring, another model's answer) belongs on a thread of
  // its own. The model must outlive the inferences it started.
  virtual void infer(Request request, Completion done) = 0;
  // Starts infer() and waits for its end: for callers with a thread to spare
  // (evaluators, tests). Throws the inference's error.
  Response infer_and_wait(Request request);
  // What input audio this model needs; the pipeline converts before infer().
  // 0: the model reads no audio (the pipeline does not decode any).
  virtual int input_sample_rate() const = 0;
  // Whether the model opens the prompt's audio files itself (Request::audio_files): their content
  // then keys its cached answers although the pipeline decodes nothing for it.
  virtual bool reads_audio_files() const { return false; }
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

// A pool whose threads may wait on models (the runner's workers) is told
// when one starts and stops waiting, so it can keep enough threads that do
// not: a blocking model computing, infer_and_wait, an evaluator waiting for a
// transcript another thread asked for.
class WaitObserver {
 public:
  virtual ~WaitObserver() = default;
  virtual void waiting(bool started) noexcept = 0;
};

// Sets the calling thread's observer (nullptr: none).
void observe_waits(WaitObserver* observer);

// Reports the calling thread as waiting on a model while it lives (nested
// waits count once).
class WaitingOnModel {
 public:
  WaitingOnModel();
  ~WaitingOnModel();
  WaitingOnModel(const WaitingOnModel&) = delete;
  WaitingOnModel& operator=(const WaitingOnModel&) = delete;
};

// A model whose work occupies the calling thread (codecs, local ASR and TTS,
// a process answering over a pipe): it computes inside infer(), and the
// caller's threads provide its concurrency.
class BlockingModel : public Model {
 public:
  void infer(Request request, Completion done) final;

 protected:
  virtual Response compute(const Request& request) = 0;
};

}  // namespace aeval::models
