#pragma once
// What a task defined on UltraEval-Audio's registry reports, in the words benchmarks use (WER, BLEU, accuracy,
// ...): `aeval list benchmarks` and `aeval describe` print it.
#include <string>
#include <vector>

#include "aeval/pipeline/task_spec.hpp"
#include "registry/registry.hpp"

namespace aeval::pipeline {

// What a task bound to UltraEval-Audio's registry reports (`registry` holds the UEA entries `bound` names): what its
// aggregations compute, read from their classes and, where an aggregation averages whatever the evaluator scores,
// from the evaluator's (an ensemble's components'). aeval's evaluators scored beside UEA's are not among them.
std::vector<std::string> uea_task_metrics(const registry::Registry& registry, const TaskSpec& bound);

}  // namespace aeval::pipeline
