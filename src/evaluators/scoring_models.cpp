#include "evaluators/scoring_models.hpp"

#include <fmt/format.h>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "util/sha256.hpp"
#include "evaluators/model_loading.hpp"
#include "models/each_audio.hpp"
#include "prompts/prompt.hpp"
#include "response_cache/response_cache.hpp"

namespace aeval::pipeline {

models::Model& ScoringModels::get(const std::string& name) {
  const std::lock_guard lock(mutex_);
  auto& model = models_[name];
  if (!model) model = load_model(registry_, name);
  return *model;
}

models::Model& ScoringModels::get_each_audio(const std::string& name) {
  models::Model& whole = get(name);
  const std::lock_guard lock(mutex_);
  auto& model = each_audio_[name];
  if (!model) model = models::ask_each_audio(whole);
  return *model;
}

models::Response ScoringModels::cached_infer(models::Model& model, const std::string& key,
                                             const std::function<models::Request()>& request) {
  if (cache_ && model.cacheable())
    if (auto cached = cache_->get(key)) return *cached;
  models::Response response = model.infer_and_wait(request());
  if (cache_ && model.cacheable()) cache_->put(key, response);
  return response;
}

models::Response ScoringModels::ask(const std::string& name, const Prompt& prompt, const Sample& context, int attempt,
                                    const nlohmann::json& inference_kwargs) {
  models::Model& model = prompt.asks_each_audio() ? get_each_audio(name) : get(name);
  const RenderedPrompt rendered = prompt.render(context);
  const bool converts = model.input_sample_rate() > 0;  // else a model opening the files itself, or none
  if (!converts && !model.reads_audio_files() && !rendered.audio.empty())
    throw Error(ErrorCategory::config, fmt::format("model '{}' reads no audio, but its prompt gives it some", name));
  std::vector<std::string> audio_sha256;
  for (const auto& path : rendered.audio) audio_sha256.push_back(aeval::audio_sha256(path));
  std::string variant = attempt ? fmt::format("attempt {}", attempt) : "";
  if (!inference_kwargs.empty()) variant += (variant.empty() ? "" : "; ") + inference_kwargs.dump();
  const std::string key = ResponseCache::key(model.identity(), variant, rendered.shape, audio_sha256);
  return cached_infer(model, key, [&] {
    std::vector<Audio> audio;
    if (converts)
      for (const auto& path : rendered.audio) audio.push_back(load_mono(path, model.input_sample_rate()));
    models::Request request = rendered.request(context.id, std::move(audio));
    request.inference_kwargs = inference_kwargs;
    return request;
  });
}

nlohmann::json ScoringModels::identity(const std::string& name) { return get(name).identity(); }

models::Response ScoringModels::hear(const std::string& name, const std::filesystem::path& audio) {
  models::Model& model = get(name);
  if (model.input_sample_rate() <= 0)
    throw Error(ErrorCategory::config, fmt::format("model '{}' reads no audio: it cannot score audio", name));
  const std::string content = aeval::audio_sha256(audio);
  std::promise<models::Response> promise;
  std::shared_future<models::Response> answer;
  bool mine = false;
  {
    const std::lock_guard lock(mutex_);
    auto [it, inserted] = heard_.try_emplace(name + '\n' + content, promise.get_future().share());
    answer = it->second;
    mine = inserted;
  }
  if (!mine) {  // another evaluator asked first: its answer
    const models::WaitingOnModel waiting;
    return answer.get();
  }
  try {
    // Content-addressed: the same audio under any path or sample id is the same question.
    const std::string key = ResponseCache::key(model.identity(), "", {{"transcribe", content}}, {});
    promise.set_value(cached_infer(model, key, [&] {
      models::Request request;
      request.sample_id = audio.filename().string();
      request.audio.push_back(load_mono(audio, model.input_sample_rate()));
      return request;
    }));
  } catch (...) {
    promise.set_exception(std::current_exception());
  }
  return answer.get();
}

models::Response ScoringModels::embed_text(const std::string& name, const std::string& text) {
  models::Model& model = get(name);
  const std::string key = ResponseCache::key(model.identity(), "", {{"embed_text", text}}, {});
  return cached_infer(model, key, [&] {
    models::Request request;
    request.sample_id = "text";
    request.fields = {{"text", text}};
    return request;
  });
}

metrics::Matrix embedding_of(const models::Response& r, const std::string& model, const std::string& who) {
  if (!r.embedding)
    throw Error(ErrorCategory::model,
                fmt::format("{}: model '{}' answered without an embedding (is it an embedder?)", who, model));
  return metrics::to_matrix(*r.embedding, "model '" + model + "''s embedding");
}

void check_widths(const metrics::Matrix& a, const metrics::Matrix& b, bool vectors, const std::string& who,
                  const std::string& model, const char* what) {
  if (a.cols() == b.cols() && (!vectors || (a.rows() == 1 && b.rows() == 1))) return;
  throw Error(ErrorCategory::model,
              fmt::format("{}: model '{}' gave {} of {}×{} and {}×{}; they must be {} of one size", who, model, what,
                          a.rows(), a.cols(), b.rows(), b.cols(), vectors ? "two vectors" : "frames"));
}

double speaker_similarity(ScoringModels& scoring, const std::string& model, const std::filesystem::path& a,
                          const std::filesystem::path& b, const std::string& who) {
  const metrics::Matrix x = embedding_of(scoring.hear(model, a), model, who);
  const metrics::Matrix y = embedding_of(scoring.hear(model, b), model, who);
  check_widths(x, y, true, who, model, "speaker embeddings");
  return metrics::cosine_similarity(x.row(0).transpose(), y.row(0).transpose());
}

}  // namespace aeval::pipeline
