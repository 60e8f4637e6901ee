#pragma once
// Aggregators: corpus values, groups and bootstrap intervals over sample records.
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "components/evaluator.hpp"
#include "registry/factory.hpp"

namespace aeval::pipeline {

struct Aggregator {
  std::string name = "corpus";
  std::vector<std::string> group_by;
  int bootstrap = 0;
  double confidence = 0.95;
  std::uint64_t seed = 0;
  // UltraEval-Audio's aggregations (uea_scoring.cpp) compute from each evaluator's per-sample
  // results as UEA keeps them ({"pred", "ref", ...}), not from the evaluator's corpus value;
  // their keys ("wer(%)", "acc(%)") are kept as UEA names them, the first number is "value".
  std::function<nlohmann::ordered_json(const std::vector<nlohmann::ordered_json>& results)> uea;
  // {evaluator: {"value", "interval"?, "groups"?: {field: {group: {"value", "samples"}}}}}
  nlohmann::json aggregate(const std::vector<std::unique_ptr<Evaluator>>& evaluators,
                           const std::vector<const nlohmann::json*>& records) const;
  nlohmann::json identity() const;
};
Aggregator load_aggregator(const registry::Registry& registry, const std::string& name);

// The arguments of the `summary` class (group_by, bootstrap, confidence, seed), which UEA's
// aggregations take too, and reading them into an aggregator.
std::vector<registry::ArgSpec> summary_args();
void read_summary_args(const registry::Args& args, Aggregator& a);

// Aggregator classes register here (registry/factory.hpp).
using AggregatorClasses = registry::ClassFactories<Aggregator>;

}  // namespace aeval::pipeline
