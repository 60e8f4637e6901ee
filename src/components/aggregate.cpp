// Aggregation: corpus values per evaluator, per group, with bootstrap intervals.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <thread>
#include <utility>

#include "aeval/error.hpp"
#include "aeval/metrics/bootstrap.hpp"
#include "registry/args.hpp"
#include "components/aggregator.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::Kind;
using registry::Registry;

using nlohmann::json;

namespace {

std::string group_key(const json& record, const std::string& field) {
  const json& fields = record["fields"];
  if (!fields.is_object() || !fields.contains(field)) return "(none)";
  const json& v = fields[field];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// What a UEA evaluator kept of one sample ({"pred", "ref", ...}); for other evaluators the
// processed prediction and first reference, as UEA's Dump evaluator would keep them.
nlohmann::ordered_json uea_result(const json& record, const std::string& evaluator) {
  const json& score = record["scores"][evaluator];
  if (score.is_object() && score.contains("uea")) {
    nlohmann::ordered_json result = nlohmann::ordered_json::object();  // in UEA's key order, which NaiveMean reads
    for (const auto& key : score["uea_keys"]) result[key.get<std::string>()] = score["uea"][key.get<std::string>()];
    return result;
  }
  const json& refs = score.is_object() && score.contains("references") ? score["references"] : record["references_processed"];
  return {{"pred", record["prediction_processed"]}, {"ref", refs.is_array() && !refs.empty() ? refs[0] : json("")}};
}

// The evaluator's statistics of every record, or nullopt where it has none or a record lacks what they read
// (a run stored by an older aeval): then aggregation reads the records.
std::optional<std::pair<SampleStatistics, SampleStatistics::Table>> statistics_table(
    const Evaluator& evaluator, const std::vector<const json*>& records) {
  auto statistics = evaluator.statistics();
  if (!statistics) return std::nullopt;
  SampleStatistics::Table table(records.size() * statistics->width);
  try {
    for (std::size_t i = 0; i < records.size(); ++i) statistics->row(*records[i], table.data() + i * statistics->width);
  } catch (const json::exception&) {
    return std::nullopt;
  }
  return std::make_pair(std::move(*statistics), std::move(table));
}

}  // namespace

json Aggregator::aggregate(const std::vector<std::unique_ptr<Evaluator>>& evaluators,
                           const std::vector<const json*>& records) const {
  json out = json::object();
  using Statistics = std::pair<SampleStatistics, SampleStatistics::Table>;
  std::vector<std::unique_ptr<Statistics>> tables;
  // The evaluators resampled over their statistics: one draw of indices per resample for all, on every core.
  std::vector<metrics::IndexStatistic> resampled;
  std::vector<std::string> resampled_names;
  const auto interval_of = [&](const metrics::ConfidenceInterval& ci) {
    return json{{"low", ci.low},         {"high", ci.high}, {"confidence", confidence},
                {"resamples", bootstrap}, {"seed", seed},    {"method", "percentile bootstrap over samples"}};
  };
  for (const auto& evaluator : evaluators) {
    // The corpus value of some of the records: the evaluator's own, or UEA's aggregation of the
    // dicts UEA keeps per sample ("value": its first number; the same key for the intervals and groups).
    std::string uea_key;
    const bool own = !uea || evaluator->own_corpus;
    const auto corpus = [&](const std::vector<const json*>& subset) -> json {
      if (own) return subset.empty() ? json{{"value", nullptr}} : evaluator->corpus(subset);
      std::vector<nlohmann::ordered_json> results;
      for (const json* r : subset) results.push_back(uea_result(*r, evaluator->name));
      const nlohmann::ordered_json keys = uea(results);
      json result{{"value", nullptr}, {"uea", keys}, {"uea_keys", json::array()}};  // the dict, and its keys in UEA's order
      for (const auto& [key, v] : keys.items()) result["uea_keys"].push_back(key);
      for (const auto& [key, v] : keys.items())
        if (v.is_number() && (uea_key.empty() || key == uea_key)) {
          uea_key = key;
          result["value"] = v;
          break;
        }
      return result;
    };
    json result = corpus(records);
    result["samples"] = records.size();
    const bool interval = bootstrap > 0 && records.size() > 1 && result["value"].is_number();
    // Groups and resamples from the evaluator's statistics when it has them (a pass over numbers per
    // resample), else from the records (the corpus computation on each subset of them, on one core).
    Statistics* statistics = nullptr;
    if (own && (interval || !group_by.empty()))
      if (auto table = statistics_table(*evaluator, records)) {
        tables.push_back(std::make_unique<Statistics>(std::move(*table)));
        statistics = tables.back().get();
      }
    const auto value_of = [&](const std::vector<std::size_t>& chosen) -> json {
      if (statistics) {
        const auto v = statistics->first.value(statistics->second, chosen);
        return v ? json(*v) : json(nullptr);
      }
      std::vector<const json*> subset;
      subset.reserve(chosen.size());
      for (std::size_t i : chosen) subset.push_back(records[i]);
      return corpus(subset)["value"];
    };
    // Resample sample indices; the statistic is the corpus value itself, so corpus metrics (WER, BLEU,
    // UEA's PracticeWER) get honest intervals.
    if (interval && statistics) {
      resampled.push_back([statistics](const std::vector<std::size_t>& chosen) {
        const auto v = statistics->first.value(statistics->second, chosen);
        return v ? *v : 0.0;
      });
      resampled_names.push_back(evaluator->name);
    } else if (interval) {
      const auto from_records = [&](const std::vector<std::size_t>& chosen) {
        const json v = value_of(chosen);
        return v.is_number() ? v.get<double>() : 0.0;
      };
      result["interval"] = interval_of(metrics::bootstrap_indices(records.size(), {from_records}, bootstrap, confidence, seed)[0]);
    }
    for (const auto& field : group_by) {
      // A field no sample has makes no groups (a manifest of one's own, read by a task that groups).
      const auto has_field = [&](const json* r) { return (*r)["fields"].is_object() && (*r)["fields"].contains(field); };
      if (std::none_of(records.begin(), records.end(), has_field)) continue;
      std::map<std::string, std::vector<std::size_t>> groups;
      for (std::size_t i = 0; i < records.size(); ++i) groups[group_key(*records[i], field)].push_back(i);
      json by_group = json::object();
      for (const auto& [key, members] : groups) by_group[key] = {{"value", value_of(members)}, {"samples", members.size()}};
      result["groups"][field] = by_group;
    }
    out[evaluator->name] = result;
  }
  if (!resampled.empty()) {
    const auto intervals = metrics::bootstrap_indices(records.size(), resampled, bootstrap, confidence, seed,
                                                      std::max(1u, std::thread::hardware_concurrency()));
    for (std::size_t k = 0; k < intervals.size(); ++k) out[resampled_names[k]]["interval"] = interval_of(intervals[k]);
  }
  return out;
}

json Aggregator::identity() const {
  return {{"name", name}, {"group_by", group_by}, {"bootstrap", bootstrap}, {"confidence", confidence}, {"seed", seed}};
}

Aggregator load_aggregator(const Registry& registry, const std::string& name) {
  return AggregatorClasses::make(registry.get(Kind::aggregator, name), Kind::aggregator);
}

const Aggregator kSummaryDefaults;

std::vector<ArgSpec> summary_args() {
  return {arg::texts("group_by", {}, "sample fields to break results down by"),
          arg::integer("bootstrap", kSummaryDefaults.bootstrap, "resamples for a percentile interval (0: none)").at_least(0),
          arg::number("confidence", kSummaryDefaults.confidence).above(0).below(1),
          arg::integer("seed", long(kSummaryDefaults.seed))};
}

void read_summary_args(const Args& args, Aggregator& a) {
  a.group_by = args.strings("group_by");
  a.bootstrap = args.integer("bootstrap");
  a.confidence = args.number("confidence");
  a.seed = std::uint64_t(args.integer("seed"));
}

namespace {
const AggregatorClasses::Registration kSummaryClass{
    {Kind::aggregator, "summary", "Corpus value of every evaluator, optionally per group and with a bootstrap interval",
     summary_args()},
    [](const Args& args) {
      Aggregator a;
      a.name = args.entry().name;
      read_summary_args(args, a);
      return a;
    }};
}  // namespace

}  // namespace aeval::pipeline
