#pragma once
// The models evaluators use to score (an ASR model transcribing a codec's
// reconstruction, an audio-language judge), shared by every evaluator of a run: each model is
// loaded once, and each audio file is transcribed once however many
// evaluators ask. Transcripts are also kept in the response cache by the
// audio's content, so the original audio of a dataset is transcribed once
// across all the codecs evaluated on it.
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "aeval/metrics/embedding.hpp"
#include "aeval/models/model.hpp"

namespace aeval::registry {
class Registry;
}  // namespace aeval::registry

namespace aeval::pipeline {

class ResponseCache;
class Prompt;
struct Sample;

class ScoringModels {
 public:
  explicit ScoringModels(const registry::Registry& registry) : registry_(registry) {}

  // What `model` (a registry name) makes of `audio`: a transcript, scores or an embedding, as the
  // model declares. Each (model, audio content) is asked once per run however many evaluators ask,
  // and kept in the response cache by content. Thread-safe.
  models::Response hear(const std::string& model, const std::filesystem::path& audio);
  // The text `model` hears in `audio`.
  std::string transcribe(const std::string& model, const std::filesystem::path& audio) { return hear(model, audio).text; }
  // A joint text-audio embedder's embedding of `text` (CLAP-style scores); cached like hear().
  models::Response embed_text(const std::string& model, const std::string& text);
  // The answer of `model` to `prompt` rendered for `context` (a sample, or
  // fields shaped like one); cached by the rendered request and the audio's
  // content, so a judge or decomposer asked the same thing again, in this
  // run or a later one, answers from the cache. A prompt with `each_audio` asks the model once per clip (its answer
  // the JSON array of theirs, models/each_audio.hpp). A nonzero `attempt` asks
  // again rather than taking the cached answer. Thread-safe.
  // `inference_kwargs`: for UltraEval-Audio's own model classes, the keyword arguments of inference().
  models::Response ask(const std::string& model, const Prompt& prompt, const Sample& context, int attempt = 0,
                       const nlohmann::json& inference_kwargs = nlohmann::json::object());
  nlohmann::json identity(const std::string& model);
  void use_cache(ResponseCache* cache) { cache_ = cache; }

 private:
  models::Model& get(const std::string& model);
  // The same model asked once per audio clip of a request (a prompt with `each_audio`).
  models::Model& get_each_audio(const std::string& model);
  // The cached answer under `key`, else the model's answer to request() (then cached).
  models::Response cached_infer(models::Model& model, const std::string& key,
                                const std::function<models::Request()>& request);

  const registry::Registry& registry_;
  ResponseCache* cache_ = nullptr;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<models::Model>> models_;
  std::map<std::string, std::unique_ptr<models::Model>> each_audio_;  // over models_' (declared after: gone first)
  std::map<std::string, std::shared_future<models::Response>> heard_;  // (model, audio sha256) → answer
};

// A scoring model's embedding as a matrix. Throws aeval::Error (model), `who` first (e.g. "sample 'x'"),
// when the model answered none.
metrics::Matrix embedding_of(const models::Response& r, const std::string& model, const std::string& who);
// Two embeddings a score compares must have one width (and be single vectors where `vectors`): a
// model answering another size is an aeval::Error (model) naming `what` they are.
void check_widths(const metrics::Matrix& a, const metrics::Matrix& b, bool vectors, const std::string& who,
                  const std::string& model, const char* what);
// The cosine of the speaker embeddings `model` gives two clips (Seed-TTS-Eval's SIM: torch's
// cosine_similarity, eps 1e-8), each clip heard once per run.
double speaker_similarity(ScoringModels& scoring, const std::string& model, const std::filesystem::path& a,
                          const std::filesystem::path& b, const std::string& who);

}  // namespace aeval::pipeline
