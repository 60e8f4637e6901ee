// What all evaluators share: loading one, the references it compares
// against, the mean as the default corpus value.
#include <fmt/format.h>

#include <cmath>
#include <numeric>

#include "aeval/error.hpp"
#include "evaluators/evaluator.hpp"
#include "registry/args.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::ArgSpec;
using registry::Kind;
using registry::Registry;

using nlohmann::json;

namespace {

// scores[evaluator][key] of a record; null where it has none (a UEA evaluator's result keeps no "value").
const json& score_field(const json& record, const std::string& evaluator, const std::string& key) {
  static const json none;
  const auto scores = record.find("scores");
  if (scores == record.end() || !scores->is_object()) return none;
  const auto score = scores->find(evaluator);
  if (score == scores->end() || !score->is_object()) return none;
  const auto value = score->find(key);
  return value == score->end() ? none : *value;
}

}  // namespace

json mean_score(const Records& records, const std::string& evaluator, const std::string& key) {
  double sum = 0;
  std::size_t n = 0;
  for (const json* r : records) {
    const json& v = score_field(*r, evaluator, key);
    if (v.is_number()) sum += v.get<double>(), ++n;
  }
  return n ? json(sum / double(n)) : json(nullptr);
}

SampleStatistics mean_statistics(const std::string& evaluator, const std::string& key) {
  return {2,
          [evaluator, key](const json& record, double* row) {
            const json& v = score_field(record, evaluator, key);
            row[0] = v.is_number() ? v.get<double>() : 0.0;
            row[1] = v.is_number() ? 1.0 : 0.0;
          },
          [](const SampleStatistics::Table& table, const std::vector<std::size_t>& chosen) -> std::optional<double> {
            double sum = 0;  // in order, as mean_score adds
            std::size_t n = 0;
            for (std::size_t i : chosen)
              if (table[2 * i + 1] != 0) sum += table[2 * i], ++n;
            if (!n) return std::nullopt;
            return sum / double(n);
          },
          nullptr,
          [](const std::vector<double>& sums) -> std::optional<double> {
            if (sums[1] == 0) return std::nullopt;
            return sums[0] / sums[1];
          }};
}

const json Scored::kNoLogprobs;

std::optional<SampleStatistics> Evaluator::statistics() const {
  SampleStatistics mean = mean_statistics(name);
  mean.corpus = [value = mean.value](const SampleStatistics::Table& table) {
    const auto v = value(table, every_row(table, 2));
    return json{{"value", v ? json(*v) : json(nullptr)}};
  };
  return mean;
}

std::vector<std::size_t> every_row(const SampleStatistics::Table& table, std::size_t width) {
  std::vector<std::size_t> all(table.size() / width);
  std::iota(all.begin(), all.end(), std::size_t(0));
  return all;
}

json Evaluator::corpus(const Records& records) const { return {{"value", mean_score(records, name)}}; }

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

const std::string& reference_text(const Sample& sample) {
  if (!sample.reference)
    throw Error(ErrorCategory::data, fmt::format("sample '{}' has no reference text (its row lacks the dataset's "
                                                 "reference field, e.g. 'text'); an empty reference is written \"\"",
                                                 sample.id));
  return *sample.reference;
}

std::vector<std::string> references_of(const Sample& sample, const std::string& references_field) {
  if (references_field.empty()) return {reference_text(sample)};
  const json& f = sample.fields;
  if (!f.is_object() || !f.contains(references_field))
    throw Error(ErrorCategory::data, fmt::format("sample '{}' has no field '{}'", sample.id, references_field));
  const json& v = f[references_field];
  if (v.is_string()) return {v.get<std::string>()};
  std::vector<std::string> out;
  if (v.is_array())
    for (const auto& r : v)
      if (r.is_string()) out.push_back(r);
  if (out.empty() || (v.is_array() && out.size() != v.size()))
    throw Error(ErrorCategory::data,
                fmt::format("sample '{}': field '{}' must be a string or a list of strings", sample.id, references_field));
  return out;
}

ArgSpec references_field_arg() {
  return arg::text("references_field", "",
                   "sample field holding a list of references (default: the sample's reference text)");
}

std::unique_ptr<Evaluator> load_evaluator(const Registry& registry, const std::string& name,
                                          const std::shared_ptr<ScoringModels>& scoring) {
  const auto models = scoring ? scoring : std::make_shared<ScoringModels>(registry);
  auto e = EvaluatorClasses::make(registry.get(Kind::evaluator, name), Kind::evaluator, registry, models);
  e->name = name;
  return e;
}

}  // namespace aeval::pipeline
