#include "aeval/error.hpp"
#include "aeval/pipeline/args.hpp"
#include "aeval/pipeline/components.hpp"

namespace aeval::pipeline {

nlohmann::json TaskSpec::to_json() const {
  return {{"name", name}, {"dataset", dataset}, {"model", model},
          {"post_process", post_process}, {"evaluators", evaluators}};
}

TaskSpec resolve_task(const Registry& registry, const std::string& task, const TaskOverrides& overrides) {
  const Entry& entry = registry.get(Kind::task, task);
  if (entry.class_id != "task")
    throw Error(ErrorCategory::config, entry.where() + ": a task entry has class 'task', not '" + entry.class_id + "'");
  Args args(entry);
  TaskSpec spec;
  spec.name = task;
  spec.dataset = overrides.dataset.value_or(args.required_string("dataset"));
  spec.model = overrides.model.value_or(args.required_string("model"));
  const auto post_process = args.strings("post_process");
  const auto evaluators = args.strings("evaluators");
  args.reject_unknown();
  spec.post_process = overrides.post_process.value_or(post_process);
  spec.evaluators = overrides.evaluators.value_or(evaluators);
  if (spec.evaluators.empty()) throw Error(ErrorCategory::config, entry.where() + ": task '" + task + "' has no evaluators");

  // Fail before any work on a name that does not exist.
  const bool dataset_is_manifest = std::filesystem::path(spec.dataset).extension() == ".jsonl";
  if (!dataset_is_manifest) registry.get(Kind::dataset, spec.dataset);
  registry.get(Kind::model, spec.model);
  for (const auto& name : spec.post_process) registry.get(Kind::post_process, name);
  for (const auto& name : spec.evaluators) registry.get(Kind::evaluator, name);
  return spec;
}

}  // namespace aeval::pipeline
