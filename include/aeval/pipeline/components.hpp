#pragma once
// Components built from registry entries: what a task binds together.
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "aeval/metrics/wer.hpp"
#include "aeval/models/model.hpp"
#include "aeval/pipeline/registry.hpp"
#include "aeval/pipeline/sample.hpp"

namespace aeval::pipeline {

// A task: one dataset, one model, a post-process chain, evaluators.
struct TaskSpec {
  std::string name;
  std::string dataset, model;
  std::vector<std::string> post_process, evaluators;
  nlohmann::json to_json() const;
};

struct TaskOverrides {
  std::optional<std::string> dataset, model;
  std::optional<std::vector<std::string>> post_process, evaluators;
};

// Resolves a task and its overrides, checking that every name exists before
// any work starts.
TaskSpec resolve_task(const Registry& registry, const std::string& task, const TaskOverrides& overrides = {});

struct Dataset {
  std::string name;
  std::vector<Sample> samples;
  nlohmann::json description;      // class, source files, counts
  std::vector<std::string> notes;  // things the user should be told (skipped rows)
};

// A registry dataset name, or the path of a JSONL manifest.
Dataset load_dataset(const Registry& registry, const std::string& name_or_path);

std::unique_ptr<models::Model> load_model(const Registry& registry, const std::string& name);

// A text transform applied to references and predictions before scoring.
struct TextTransform {
  std::string name;
  std::function<std::string(const std::string&)> apply;
  nlohmann::json identity;
  std::vector<std::string> notes;
};
TextTransform load_post_process(const Registry& registry, const std::string& name);

// An error-rate evaluator (WER or CER): per-sample counts, corpus from summed counts.
struct ErrorRateEvaluator {
  std::string name;
  bool characters = false;
  metrics::EditCounts count(const std::string& reference, const std::string& prediction) const;
  nlohmann::json identity() const;
};
ErrorRateEvaluator load_evaluator(const Registry& registry, const std::string& name);

}  // namespace aeval::pipeline
