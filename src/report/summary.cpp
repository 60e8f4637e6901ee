#include "report/summary.hpp"

namespace aeval::report {

using nlohmann::json;

std::vector<const json*> succeeded(const std::vector<SampleOutcome>& samples) {
  std::vector<const json*> out;
  for (const auto& s : samples)
    if (!s.failed) out.push_back(s.record);
  return out;
}

json build_summary(const std::vector<SampleOutcome>& samples, json metrics, json aggregations, const json& provenance) {
  std::size_t failed = 0;
  double audio_seconds = 0;  // of the samples that succeeded
  for (const auto& s : samples) {
    if (s.failed)
      ++failed;
    else
      audio_seconds += s.audio_seconds;
  }
  const std::size_t total = samples.size();
  const json& task = provenance.at("task");
  return {{"task", task.at("name")},
          {"model", task.at("model")},
          {"dataset", task.at("dataset")},
          {"metrics", std::move(metrics)},
          {"aggregations", std::move(aggregations)},
          {"counts", {{"samples", total}, {"succeeded", total - failed}, {"failed", failed}}},
          {"fail_rate", total ? double(failed) / double(total) : 0.0},
          {"audio_seconds", audio_seconds},
          {"provenance", provenance}};
}

}  // namespace aeval::report
