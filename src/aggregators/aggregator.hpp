#pragma once
// Aggregators: corpus values, groups and bootstrap intervals over a run's samples.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "evaluators/evaluator.hpp"
#include "registry/factory.hpp"

namespace aeval::pipeline {

struct Aggregator;

// The samples that succeeded, as aggregation reads them, taken one at a time in dataset order (issue 54): each
// evaluator's statistics rows, the values of the fields the aggregators group by, and the records themselves (as
// far as aggregation reads them) only where a corpus value needs them: an evaluator whose statistics do not give
// its whole corpus result, or UltraEval-Audio's aggregation of an evaluator's results. A run scored by WER and
// CER keeps twelve small integers a sample (statistics_table.hpp).
class AggregationSamples {
 public:
  // What `aggregators` read over `evaluators` (the evaluators in the order aggregate() gets them).
  AggregationSamples(const std::vector<std::unique_ptr<Evaluator>>& evaluators,
                     const std::vector<const Aggregator*>& aggregators);
  // Takes one sample's record. An evaluator whose rows it lacks (a record stored by an older aeval) is aggregated
  // from the records where they are kept; where they are not, its corpus result would need what the rows read, and
  // this throws aeval::Error (data) naming it.
  void add(nlohmann::json record);
  // Room for `n` samples at once: a table grown by doubling would hold its old and new copy at the end.
  void reserve(std::size_t n);
  std::size_t size() const { return size_; }
  bool keeps_records() const { return keep_records_; }

 private:
  friend struct Aggregator;
  struct Rows {
    std::string evaluator;
    SampleStatistics statistics;
    SampleStatistics::Table table;
    std::vector<double> row;  // one sample's, before the table takes it
    bool readable = true;  // every record held what `row` reads (else aggregation reads the records)
  };
  // A grouping field's values: each sample's index into `names` ("(none)" where its record lacks the field).
  struct Field {
    std::vector<std::string> names;
    std::unordered_map<std::string, std::uint32_t> index;  // name → its place in `names`
    std::vector<std::uint32_t> of_sample;
    bool anyone = false;  // some sample has the field
  };
  std::vector<std::optional<Rows>> rows_;  // per evaluator
  std::map<std::string, Field> fields_;
  bool keep_records_ = false;
  std::vector<nlohmann::json> records_;
  std::size_t size_ = 0;
};

struct Aggregator {
  std::string name = "corpus";
  std::vector<std::string> group_by;
  int bootstrap = 0;
  double confidence = 0.95;
  std::uint64_t seed = 0;
  // UltraEval-Audio's aggregations (uea_aggregations.cpp) compute from each evaluator's per-sample
  // results as UEA keeps them ({"pred", "ref", ...}), not from the evaluator's corpus value;
  // their keys ("wer(%)", "acc(%)") are kept as UEA names them, the first number is "value".
  std::function<nlohmann::ordered_json(const std::vector<nlohmann::ordered_json>& results)> uea;
  // {evaluator: {"value", "interval"?, "groups"?: {field: {group: {"value", "samples"}}}}}
  nlohmann::json aggregate(const std::vector<std::unique_ptr<Evaluator>>& evaluators,
                           const AggregationSamples& samples) const;
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
