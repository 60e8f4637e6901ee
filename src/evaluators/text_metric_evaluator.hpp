#pragma once
// An evaluator computing a text metric of the catalog (aeval/metrics/
// catalog.hpp) on the processed prediction and references: the same
// computation `aeval score` does, with the metric's value under "value".
#include "aeval/metrics/catalog.hpp"
#include "evaluators/evaluator.hpp"
#include "report/identity_reading.hpp"

namespace aeval::pipeline {

class TextMetricEvaluator : public Evaluator {
 public:
  TextMetricEvaluator(const metrics::TextMetric& metric, metrics::TextMetricOptions options, std::string class_id);
  nlohmann::json score(const Scored& scored) const override;
  nlohmann::json corpus(const Records& records) const override;
  std::optional<SampleStatistics> statistics() const override;
  nlohmann::json identity() const override;

 protected:
  // The corpus from the samples' results alone (summed edit counts), for
  // evaluators whose hypotheses are not the predictions (ASR of output audio).
  nlohmann::json corpus_of_results(const Records& records) const;

  const metrics::TextMetric& metric_;
  metrics::TextMetricOptions options_;
  std::string class_id_;
};

// How a leaderboard reads an error rate's identity that names no "metric": WER or CER by its unit.
report::IdentityReading error_rate_reading();

}  // namespace aeval::pipeline
