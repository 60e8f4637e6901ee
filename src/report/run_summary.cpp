#include "report/run_summary.hpp"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "aeval/error.hpp"
#include "report/identity_reading.hpp"

namespace aeval::report {

namespace {

using nlohmann::json;

// The catalog metric an evaluator computed, from its identity in summary.json
// (null: not a catalog metric, e.g. a judge; such columns are not averaged).
const metrics::MetricInfo* metric_of(const json& evaluator) {
  if (evaluator.contains("metric")) return metrics::find_metric(evaluator["metric"].get<std::string>());
  const std::string evaluator_class = evaluator.value("class", "");
  if (const IdentityReading* reading = identity_reading(evaluator_class); reading && reading->metric)
    return metrics::find_metric(reading->metric(evaluator));
  return metrics::find_metric(evaluator_class);  // a class named as its metric (dnsmos); older summaries
}

// An UltraEval-Audio aggregation's number (summary.json's metrics.NAME.uea) on the leaderboard's scale, by
// UEA's key: error rates in percent as 100 − x, accuracies in percent and BLEU as they are, a judge's 1-10
// score in UEA's "percent" as x / 10; none for others.
std::optional<metrics::LeaderboardScale> uea_scale(const json& metric) {
  if (!metric.contains("uea") || !metric["uea"].is_object()) return std::nullopt;
  for (const auto& [key, value] : metric["uea"].items()) {
    if (!value.is_number()) continue;
    if (key == "wer(%)" || key == "cer(%)") return metrics::LeaderboardScale{"100 − x", -1, 100};
    if (key == "acc(%)" || key == "match(%)" || key == "bleu") return metrics::LeaderboardScale{"x", 1, 0};
    // A 1-10 judge score that UEA's NaiveMean multiplied by 100 (7.4 → 740): Table 5 shows it as 74.
    if (key == "geval(%)") return metrics::LeaderboardScale{"x / 10", 0.1, 0};
    return std::nullopt;
  }
  return std::nullopt;
}

// The scoring model behind an evaluator's values, from its identity: the ASR of an error rate of output
// audio, the model a MOS, similarity or embedding score asked, a built-in one its class names; "" for none.
std::string scorer_of(const json& evaluator) {
  for (const char* key : {"asr_model", "model"})
    if (evaluator.contains(key) && evaluator[key].is_object() && evaluator[key].contains("name"))
      return evaluator[key]["name"].get<std::string>();
  const IdentityReading* reading = identity_reading(evaluator.value("class", ""));
  return reading ? reading->scorer : "";
}

}  // namespace

RunSummary read_summary(const std::filesystem::path& file) {
  try {
    const json s = json::parse(std::ifstream(file));
    RunSummary r;
    r.task = s.at("task");
    r.dataset = s.at("dataset");
    r.model = s.at("model");
    r.prompt = s.at("provenance").at("task").value("prompt", "");
    r.beside = s.at("provenance").at("task").value("beside_uea", std::set<std::string>{});
    r.samples = s.at("counts").at("samples");
    r.failed = s.at("counts").at("failed");
    const json selection = s.at("provenance").value("selection", json::object());
    r.shard = selection.value("shard", "0/1") != "0/1";
    const json aggregations = s.value("aggregations", json::object());
    for (const auto& evaluator : s.at("provenance").at("evaluators")) {
      const std::string name = evaluator.at("name");
      const metrics::MetricInfo* metric = metric_of(evaluator);
      metrics::LeaderboardScale scale = metric ? metric->scale : metrics::LeaderboardScale{};
      // Scores from scoring models state their scale themselves (MOS as 20·x, similarity as 100·x).
      if (evaluator.contains("scale") && evaluator["scale"].is_object())
        scale = {evaluator["scale"].value("rule", ""), evaluator["scale"].value("factor", 1.0),
                 evaluator["scale"].value("offset", 0.0)};
      if (const auto uea = uea_scale(s.at("metrics").at(name))) scale = *uea;
      r.metrics.emplace_back(name, scale);
      if (scale.factor != 0 && !scale.rule.empty())
        r.higher_is_better[name] = scale.factor > 0;
      else if (metric)
        r.higher_is_better[name] = metric->better == metrics::Better::higher;
      r.scorers[name] = scorer_of(evaluator);
      const json& v = s.at("metrics").at(name).at("value");
      if (v.is_number()) r.values[name] = v.get<double>();
      // The first aggregation that bootstrapped this metric gives its interval.
      for (const auto& [aggregator, metrics] : aggregations.items())
        if (const json* m = metrics.contains(name) ? &metrics[name] : nullptr;
            m && m->contains("interval") && !r.intervals.count(name) && (*m)["interval"]["low"].is_number() &&
            (*m)["interval"]["high"].is_number())
          r.intervals[name] = {(*m)["interval"]["low"].get<double>(), (*m)["interval"]["high"].get<double>()};
    }
    const json& model = s.at("provenance").at("model");
    if (model.is_object() && model.contains("bitrate_kbps") && model["bitrate_kbps"].is_number())
      r.bitrate_kbps = model["bitrate_kbps"].get<double>();
    return r;
  } catch (const json::exception& e) {
    throw Error(ErrorCategory::data, fmt::format("{}: not an aeval summary ({})", file.string(), e.what()));
  }
}

}  // namespace aeval::report
