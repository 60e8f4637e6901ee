#pragma once
// summary.json: a run's corpus metrics and aggregations, with its counts,
// fail_rate, seconds of audio and provenance. Plain JSON in and out: the
// pipeline computes the metrics; this says what a summary holds and how it
// reads on the console.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aeval::report {

// A run's samples, those of them that failed, and the seconds of audio of those that succeeded.
struct RunCounts {
  std::size_t samples = 0, failed = 0;
  double audio_seconds = 0;
};

// `metrics` and `aggregations` as the aggregators computed them on the samples that succeeded;
// `provenance` names task, model and dataset.
nlohmann::json build_summary(const RunCounts& counts, nlohmann::json metrics, nlohmann::json aggregations,
                             const nlohmann::json& provenance);

// The short table printed after a run.
std::string format_summary_table(const nlohmann::json& summary);

}  // namespace aeval::report
