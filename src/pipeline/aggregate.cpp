// Aggregation: corpus values per evaluator, per group, with bootstrap intervals.
#include <fmt/format.h>

#include <map>

#include "aeval/error.hpp"
#include "aeval/metrics/bootstrap.hpp"
#include "aeval/pipeline/args.hpp"
#include "aeval/pipeline/components.hpp"

namespace aeval::pipeline {

using nlohmann::json;

namespace {

std::string group_key(const json& record, const std::string& field) {
  const json& fields = record["fields"];
  if (!fields.is_object() || !fields.contains(field)) return "(none)";
  const json& v = fields[field];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

}  // namespace

json Aggregator::aggregate(const std::vector<std::unique_ptr<Evaluator>>& evaluators,
                           const std::vector<const json*>& records) const {
  json out = json::object();
  for (const auto& evaluator : evaluators) {
    json result = records.empty() ? json{{"value", nullptr}} : evaluator->corpus(records);
    result["samples"] = records.size();
    if (bootstrap > 0 && records.size() > 1 && result["value"].is_number()) {
      // Resample sample indices; the statistic is the evaluator's own corpus
      // computation, so corpus metrics (WER, BLEU) get honest intervals.
      std::vector<double> indices(records.size());
      for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = double(i);
      const auto statistic = [&](const std::vector<double>& chosen) {
        std::vector<const json*> subset;
        for (double i : chosen) subset.push_back(records[std::size_t(i)]);
        const json v = evaluator->corpus(subset)["value"];
        return v.is_number() ? v.get<double>() : 0.0;
      };
      const auto ci = metrics::bootstrap_ci(indices, statistic, bootstrap, confidence, seed);
      result["interval"] = {{"low", ci.low}, {"high", ci.high}, {"confidence", confidence},
                            {"resamples", bootstrap}, {"seed", seed}, {"method", "percentile bootstrap over samples"}};
    }
    for (const auto& field : group_by) {
      std::map<std::string, std::vector<const json*>> groups;
      for (const json* r : records) groups[group_key(*r, field)].push_back(r);
      json by_group = json::object();
      for (const auto& [key, members] : groups) {
        json g = evaluator->corpus(members);
        by_group[key] = {{"value", g["value"]}, {"samples", members.size()}};
      }
      result["groups"][field] = by_group;
    }
    out[evaluator->name] = result;
  }
  return out;
}

json Aggregator::identity() const {
  return {{"name", name}, {"group_by", group_by}, {"bootstrap", bootstrap}, {"confidence", confidence}, {"seed", seed}};
}

Aggregator load_aggregator(const Registry& registry, const std::string& name) {
  const Entry& entry = registry.get(Kind::aggregator, name);
  Args args(entry);  // validated against the catalog when the registry loaded
  Aggregator a;
  a.name = name;
  a.group_by = args.strings("group_by");
  a.bootstrap = args.integer("bootstrap", 0);
  a.confidence = args.number("confidence", 0.95);
  a.seed = std::uint64_t(args.integer("seed", 0));
  if (a.bootstrap < 0 || a.confidence <= 0 || a.confidence >= 1)
    throw Error(ErrorCategory::config,
                fmt::format("{}: '{}' needs bootstrap >= 0 and 0 < confidence < 1", entry.where(), name));
  return a;
}

}  // namespace aeval::pipeline
