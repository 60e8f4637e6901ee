#include "report/summary.hpp"

namespace aeval::report {

using nlohmann::json;

json build_summary(const RunCounts& counts, json metrics, json aggregations, const json& provenance) {
  const std::size_t total = counts.samples, failed = counts.failed;
  const json& task = provenance.at("task");
  return {{"task", task.at("name")},
          {"model", task.at("model")},
          {"dataset", task.at("dataset")},
          {"metrics", std::move(metrics)},
          {"aggregations", std::move(aggregations)},
          {"counts", {{"samples", total}, {"succeeded", total - failed}, {"failed", failed}}},
          {"fail_rate", total ? double(failed) / double(total) : 0.0},
          {"audio_seconds", counts.audio_seconds},
          {"provenance", provenance}};
}

}  // namespace aeval::report
