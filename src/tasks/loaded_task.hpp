#pragma once
// A task's components, loaded from the registry: what a run, a merge and a
// rescore work with.
#include <memory>
#include <vector>

#include "aeval/models/model.hpp"
#include "aeval/pipeline/task_spec.hpp"
#include "aggregators/aggregator.hpp"
#include "datasets/dataset.hpp"
#include "evaluators/evaluator.hpp"
#include "post_process/post_process.hpp"
#include "prompts/prompt.hpp"
#include "evaluators/scoring_models.hpp"

namespace aeval::pipeline {

struct LoadedTask {
  datasets::Dataset dataset;
  Prompt prompt;
  std::unique_ptr<models::Model> model;  // none when scores are recomputed from stored predictions
  std::vector<PostProcess> post_process;
  std::shared_ptr<ScoringModels> scoring;  // models the evaluators use
  std::vector<std::unique_ptr<Evaluator>> evaluators;
  std::vector<Aggregator> aggregators;

  // `registry` must outlive the result: the scoring models load from it as they are asked for.
  static LoadedTask load(const registry::Registry& registry, const TaskSpec& task, bool with_model);
};

}  // namespace aeval::pipeline
