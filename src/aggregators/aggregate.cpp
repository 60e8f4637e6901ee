// Aggregation: corpus values per evaluator, per group, with bootstrap intervals.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <thread>
#include <utility>

#include "aeval/error.hpp"
#include "aeval/metrics/bootstrap.hpp"
#include "registry/args.hpp"
#include "aggregators/aggregator.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::Kind;
using registry::Registry;

using nlohmann::json;

namespace {

// The value of a field a sample is grouped by, "(none)" where it lacks it.
std::optional<std::string> group_value(const json& record, const std::string& field) {
  const auto fields = record.find("fields");
  if (fields == record.end() || !fields->is_object() || !fields->contains(field)) return std::nullopt;
  const json& v = (*fields)[field];
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

// Whether a table's column sums over any resample of its `n` rows are exact in doubles whatever the order of
// adding: every number an integer, and n times the largest within 2^53.
bool integers_only(const SampleStatistics::Table& table, std::size_t n) {
  return table.integers() && table.largest_magnitude() <= 9007199254740992.0 / double(std::max<std::size_t>(n, 1));
}

}  // namespace

AggregationSamples::AggregationSamples(const std::vector<std::unique_ptr<Evaluator>>& evaluators,
                                       const std::vector<const Aggregator*>& aggregators) {
  const bool uea = std::any_of(aggregators.begin(), aggregators.end(), [](const Aggregator* a) { return bool(a->uea); });
  const bool only_uea = std::all_of(aggregators.begin(), aggregators.end(), [](const Aggregator* a) { return bool(a->uea); });
  for (const auto& evaluator : evaluators) {
    rows_.emplace_back();
    // Rows for the evaluators some aggregator aggregates as their own (UEA's aggregations read the records).
    if (!only_uea || evaluator->own_corpus)
      if (auto statistics = evaluator->statistics()) rows_.back() = Rows{evaluator->name, std::move(*statistics), {}, {}};
    // Its corpus result from the records: without statistics giving it whole, or under UEA's aggregation.
    const bool from_records = !rows_.back() || !rows_.back()->statistics.corpus;
    keep_records_ = keep_records_ || from_records || (uea && !evaluator->own_corpus);
  }
  for (const Aggregator* a : aggregators)
    for (const auto& field : a->group_by) fields_[field];
}

void AggregationSamples::reserve(std::size_t n) {
  for (auto& rows : rows_)
    if (rows) rows->table.reserve(n * rows->statistics.width);
  for (auto& [field, values] : fields_) values.of_sample.reserve(n);
  if (keep_records_) records_.reserve(n);
}

void AggregationSamples::add(json record) {
  for (auto& rows : rows_) {
    if (!rows || !rows->readable) continue;
    rows->row.resize(rows->statistics.width);
    try {
      rows->statistics.row(record, rows->row.data());
      rows->table.append(rows->row.data(), rows->row.size());
    } catch (const json::exception& e) {
      if (!keep_records_)
        throw Error(ErrorCategory::data, fmt::format("sample {}: its record lacks what evaluator '{}' is aggregated "
                                                     "from ({}); score the run again with this aeval (`aeval rescore`)",
                                                     size_ + 1, rows->evaluator, e.what()));
      rows->readable = false;
      rows->table.clear();
    }
  }
  for (auto& [field, values] : fields_) {
    const auto value = group_value(record, field);
    values.anyone = values.anyone || value.has_value();
    const auto [found, added] = values.index.emplace(value.value_or("(none)"), std::uint32_t(values.names.size()));
    if (added) values.names.push_back(found->first);
    values.of_sample.push_back(found->second);
  }
  if (keep_records_) records_.push_back(std::move(record));
  ++size_;
}

json Aggregator::aggregate(const std::vector<std::unique_ptr<Evaluator>>& evaluators,
                           const AggregationSamples& samples) const {
  if (evaluators.size() != samples.rows_.size())
    throw Error(ErrorCategory::internal, "aggregation got other evaluators than its samples were taken for");
  const std::size_t n = samples.size();
  Records records;
  for (const json& r : samples.records_) records.push_back(&r);
  json out = json::object();
  // The evaluators resampled over their statistics: one draw of indices per resample for all, on every core.
  std::vector<metrics::ResampledStatistic> resampled;
  std::vector<std::string> resampled_names;
  const auto interval_of = [&](const metrics::ConfidenceInterval& ci) {
    return json{{"low", ci.low},         {"high", ci.high}, {"confidence", confidence},
                {"resamples", bootstrap}, {"seed", seed},    {"method", "percentile bootstrap over samples"}};
  };
  for (std::size_t e = 0; e < evaluators.size(); ++e) {
    const auto& evaluator = evaluators[e];
    // The corpus value of some of the records: the evaluator's own, or UEA's aggregation of the
    // dicts UEA keeps per sample ("value": its first number; the same key for the intervals and groups).
    std::string uea_key;
    const bool own = !uea || evaluator->own_corpus;
    const auto corpus = [&](const Records& subset) -> json {
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
    // Corpus, groups and resamples from the evaluator's statistics when it has them (a pass over numbers per
    // resample), else from the records (the corpus computation on each subset of them, on one core).
    const auto& rows = samples.rows_[e];
    const bool by_statistics = own && rows && rows->readable;
    json result = by_statistics && rows->statistics.corpus ? (n ? rows->statistics.corpus(rows->table) : json{{"value", nullptr}})
                                                           : corpus(records);
    result["samples"] = n;
    const bool interval = bootstrap > 0 && n > 1 && result["value"].is_number();
    const auto value_of = [&](const std::vector<std::size_t>& chosen) -> json {
      if (by_statistics) {
        const auto v = rows->statistics.value(rows->table, chosen);
        return v ? json(*v) : json(nullptr);
      }
      Records subset;
      subset.reserve(chosen.size());
      for (std::size_t i : chosen) subset.push_back(records[i]);
      return corpus(subset)["value"];
    };
    // Resample sample indices; the statistic is the corpus value itself, so corpus metrics (WER, BLEU,
    // UEA's PracticeWER) get honest intervals.
    if (interval && by_statistics && rows->statistics.from_sums && integers_only(rows->table, n)) {
      resampled.push_back(metrics::CountStatistic([&rows](const std::vector<std::uint32_t>& counts) {
        const auto sums = rows->table.counted_sums(counts, rows->statistics.width);
        const auto v = rows->statistics.from_sums(sums);
        return v ? *v : 0.0;
      }));
      resampled_names.push_back(evaluator->name);
    } else if (interval && by_statistics) {
      resampled.push_back(metrics::IndexStatistic([&rows](const std::vector<std::size_t>& chosen) {
        const auto v = rows->statistics.value(rows->table, chosen);
        return v ? *v : 0.0;
      }));
      resampled_names.push_back(evaluator->name);
    } else if (interval) {
      const auto from_records = [&](const std::vector<std::size_t>& chosen) {
        const json v = value_of(chosen);
        return v.is_number() ? v.get<double>() : 0.0;
      };
      result["interval"] = interval_of(
          metrics::bootstrap_indices(n, {metrics::IndexStatistic(from_records)}, bootstrap, confidence, seed)[0]);
    }
    for (const auto& field : group_by) {
      // A field no sample has makes no groups (a manifest of one's own, read by a task that groups).
      const auto& values = samples.fields_.at(field);
      if (!values.anyone) continue;
      std::vector<std::size_t> sizes(values.names.size(), 0);
      for (std::size_t i = 0; i < n; ++i) ++sizes[values.of_sample[i]];
      json by_group = json::object();
      if (by_statistics && rows->statistics.from_sums && integers_only(rows->table, n)) {
        // Every group's column sums in one pass (integers: the sums its members' rows give in any order).
        const std::size_t width = rows->statistics.width;
        std::vector<std::vector<double>> sums(values.names.size(), std::vector<double>(width, 0.0));
        rows->table.visit([&](const auto* row) {
          for (std::size_t i = 0; i < n; ++i, row += width)
            for (std::size_t k = 0; k < width; ++k) sums[values.of_sample[i]][k] += double(row[k]);
        });
        for (std::size_t g = 0; g < sums.size(); ++g)
          if (sizes[g]) {
            const auto v = rows->statistics.from_sums(sums[g]);
            by_group[values.names[g]] = {{"value", v ? json(*v) : json(nullptr)}, {"samples", sizes[g]}};
          }
      } else {
        std::vector<std::vector<std::size_t>> members(values.names.size());
        for (std::size_t g = 0; g < members.size(); ++g) members[g].reserve(sizes[g]);
        for (std::size_t i = 0; i < n; ++i) members[values.of_sample[i]].push_back(i);
        for (std::size_t g = 0; g < members.size(); ++g)
          if (sizes[g]) by_group[values.names[g]] = {{"value", value_of(members[g])}, {"samples", sizes[g]}};
      }
      result["groups"][field] = by_group;
    }
    out[evaluator->name] = result;
  }
  if (!resampled.empty()) {
    const auto intervals = metrics::bootstrap_indices(n, resampled, bootstrap, confidence, seed,
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

std::vector<ArgSpec> summary_args() {
  // A default Aggregator of this call's own: other libraries' registrations call this while statics initialize,
  // perhaps before a namespace-scope one of this file would be.
  const Aggregator defaults;
  return {arg::texts("group_by", {}, "sample fields to break results down by"),
          arg::integer("bootstrap", defaults.bootstrap, "resamples for a percentile interval (0: none)").at_least(0),
          arg::number("confidence", defaults.confidence).above(0).below(1),
          arg::integer("seed", long(defaults.seed))};
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
