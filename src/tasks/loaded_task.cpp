#include "tasks/loaded_task.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "aeval/error.hpp"

#include "evaluators/model_loading.hpp"
#include "models/each_audio.hpp"

namespace aeval::pipeline {

using registry::Registry;
using datasets::load_dataset;

LoadedTask LoadedTask::load(const Registry& registry, const TaskSpec& task, bool with_model) {
  LoadedTask t{load_dataset(registry, task.dataset), Prompt::load(registry, task.prompt), nullptr, {},
               std::make_shared<ScoringModels>(registry), {}, {}};
  if (with_model && !t.dataset.audio_dir_missing.empty())
    throw Error(ErrorCategory::config, fmt::format("dataset '{}': {}", t.dataset.name, t.dataset.audio_dir_missing));
  if (with_model) t.model = load_model(registry, task.model);
  if (t.model && t.prompt.asks_each_audio()) t.model = models::ask_each_audio(std::move(t.model));
  for (const auto& name : task.post_process) t.post_process.push_back(load_post_process(registry, name, t.scoring));
  for (const auto& name : task.evaluators) {
    t.evaluators.push_back(load_evaluator(registry, name, t.scoring));
    t.evaluators.back()->own_corpus =
        std::find(task.beside_uea.begin(), task.beside_uea.end(), name) != task.beside_uea.end();
  }
  for (const auto& name : task.aggregators) t.aggregators.push_back(load_aggregator(registry, name));
  return t;
}

}  // namespace aeval::pipeline
