#pragma once
// summary.json: a run's corpus metrics and aggregations, with its counts,
// fail_rate, seconds of audio and provenance. Plain JSON in and out: the
// pipeline computes the metrics; this says what a summary holds and how it
// reads on the console.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aeval::report {

// One sample's record, as the run store keeps it (samples.jsonl's line).
struct SampleOutcome {
  const nlohmann::json* record;
  bool failed = false;  // the record states the error
  double audio_seconds = 0;  // the record's, read when it was whole
};

// The records of the samples that did not fail, in order: metrics are computed on these.
std::vector<const nlohmann::json*> succeeded(const std::vector<SampleOutcome>& samples);

// `samples` in dataset order; `metrics` and `aggregations` as the
// aggregators computed them on succeeded(samples); `provenance` names task,
// model and dataset.
nlohmann::json build_summary(const std::vector<SampleOutcome>& samples, nlohmann::json metrics,
                             nlohmann::json aggregations, const nlohmann::json& provenance);

// The short table printed after a run.
std::string format_summary_table(const nlohmann::json& summary);

}  // namespace aeval::report
