#pragma once
// What a task binds together, by registry name, and the overrides a command
// line may give.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "aeval/report/published.hpp"

namespace aeval::pipeline {

// A task: one dataset, an optional prompt, one model, a post-process chain,
// evaluators and aggregators, all by registry name.
struct TaskSpec {
  std::string name;
  std::string dataset, prompt, model;  // prompt "": the sample's audio alone
  std::vector<std::string> post_process, evaluators, aggregators;
  // Of `evaluators`, aeval's own scored beside UltraEval-Audio's (Table 5's UTMOS and DNSMOS of
  // spoken answers): each keeps its own corpus value under UEA's aggregations.
  std::vector<std::string> beside_uea;
  // What the entry says about the task, not how a run computes it (not in a run's provenance):
  std::string language;                              // the benchmark's language (en, zh, en->zh); "" : unstated
  std::vector<std::string> prompt_variants;          // prompts `aeval run --prompt-variants` runs in turn
  std::vector<report::PublishedResult> published;    // numbers `aeval report` holds runs against
  // A task defined on UltraEval-Audio's registry: UEA's dataset entry and eval task (none: the
  // entry's default_task) give the dataset, prompt, post-processing, evaluator and aggregation
  // (pipeline::bind_task); `aggregators` and `evaluators` (beside_uea) are added to UEA's.
  std::string uea_dataset, uea_task;
  nlohmann::json to_json() const;
  static TaskSpec from_json(const nlohmann::json& j);
};

struct TaskOverrides {
  std::optional<std::string> dataset, prompt, model;
  std::optional<std::vector<std::string>> post_process, evaluators, aggregators;
};

}  // namespace aeval::pipeline
