// Text metric evaluators: every text metric of the catalog is an evaluator
// class of the same name (and `error_rate` picks WER or CER by its unit).
#include <fmt/format.h>

#include <cmath>
#include <deque>

#include "aeval/error.hpp"
#include "evaluators/text_metric_evaluator.hpp"
#include "registry/args.hpp"
#include "util/numpy_sum.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::ArgType;
using registry::ClassSpec;
using registry::Kind;
using registry::Registry;

using nlohmann::json;

namespace {

// Results keep the metric's value under "value" in samples.jsonl and summary.json.
json value_under(json result, const std::string& key, const std::string& to) {
  if (const auto found = result.find(key); found != result.end()) {
    json v = std::move(*found);
    result.erase(key);
    result[to] = std::move(v);
  }
  return result;
}

std::vector<json> results_of(const Records& records, const std::string& evaluator, const std::string& key) {
  std::vector<json> out;
  for (const json* r : records) out.push_back(value_under((*r)["scores"][evaluator], "value", key));
  return out;
}

}  // namespace

TextMetricEvaluator::TextMetricEvaluator(const metrics::TextMetric& metric, metrics::TextMetricOptions options,
                                         std::string class_id)
    : metric_(metric), options_(std::move(options)), class_id_(std::move(class_id)) {}

json TextMetricEvaluator::score(const Scored& s) const {
  if (s.references.empty() ||
      (metric_.references == metrics::ReferenceCount::one && s.references.size() != 1))
    throw Error(ErrorCategory::data, fmt::format("sample '{}': {} needs {} reference, got {}", s.sample.id, name,
                                                 metric_.references == metrics::ReferenceCount::one ? "exactly one"
                                                                                                    : "at least one",
                                                 s.references.size()));
  if (!metric_.segment) return {{"value", nullptr}};  // a corpus-level metric
  return value_under(metric_.segment(s.prediction, s.references, options_), metric_.key, "value");
}

json TextMetricEvaluator::corpus(const Records& records) const {
  metrics::Segments segments;
  for (const json* r : records) {
    segments.hypotheses.push_back((*r)["prediction_processed"]);
    // This evaluator's references: kept with its score where they are not the record's (sample_record.cpp).
    const json& score = (*r)["scores"][name];
    segments.references.push_back(score.contains("references") ? score["references"] : (*r)["references_processed"]);
  }
  metric_.check(segments);
  auto results = results_of(records, name, metric_.key);
  return value_under(metric_.corpus_result(segments, results, options_), metric_.key, "value");
}

json TextMetricEvaluator::corpus_of_results(const Records& records) const {
  auto results = results_of(records, name, metric_.key);
  return value_under(metric_.corpus_result({}, results, options_), metric_.key, "value");
}

std::optional<SampleStatistics> TextMetricEvaluator::statistics() const {
  using Way = metrics::CorpusFromSegments::Way;
  const metrics::CorpusFromSegments way = metric_.corpus_from_segments(options_);
  if (way.way == Way::none) return std::nullopt;
  if (way.way == Way::mean) {  // mean_statistics' rows, but numpy's mean of them, NaN when none (detail::mean_of)
    SampleStatistics mean = mean_statistics(name);
    mean.value = [](const SampleStatistics::Table& table, const std::vector<std::size_t>& chosen) -> std::optional<double> {
      std::vector<double> values;
      values.reserve(chosen.size());
      for (std::size_t i : chosen)
        if (table[2 * i + 1] != 0) values.push_back(table[2 * i]);
      return values.empty() ? NAN : aeval::detail::numpy_mean(values.data(), values.size());
    };
    mean.from_sums = [](const std::vector<double>& sums) -> std::optional<double> {
      return sums[1] == 0 ? NAN : sums[0] / sums[1];  // numpy's pairwise sum of integers is their sum
    };
    if (!metric_.corpus)  // corpus_result() is then {key: that mean}
      mean.corpus = [value = mean.value](const SampleStatistics::Table& table) {
        return json{{"value", *value(table, every_row(table, 2))}};
      };
    return mean;
  }
  const auto sums_of = [way](const SampleStatistics::Table& table, const std::vector<std::size_t>& chosen) {
    std::vector<double> sums(way.width, 0.0);
    for (std::size_t i : chosen)
      for (std::size_t k = 0; k < way.width; ++k) sums[k] += table[i * way.width + k];
    return sums;
  };
  SampleStatistics sums{
      way.width, [name = name, row = way.row](const json& record, double* out) { row(record["scores"][name], out); },
      [way, sums_of, options = options_](const SampleStatistics::Table& table, const std::vector<std::size_t>& chosen)
          -> std::optional<double> { return way.value(sums_of(table, chosen), options); },
      nullptr,
      [way, options = options_](const std::vector<double>& sums) -> std::optional<double> {
        return way.value(sums, options);
      }};
  if (way.result)
    sums.corpus = [way, options = options_, key = metric_.key](const SampleStatistics::Table& table) {
      std::vector<double> all(way.width, 0.0);  // every row's sums, in row order (as sums_of adds them), no index list
      table.visit([&](const auto* row) {
        for (std::size_t i = 0; i < table.size(); i += way.width, row += way.width)
          for (std::size_t k = 0; k < way.width; ++k) all[k] += double(row[k]);
      });
      return value_under(way.result(all, options), key, "value");
    };
  return sums;
}

json TextMetricEvaluator::identity() const {
  json j{{"name", name}, {"class", class_id_}, {"metric", metric_.name}, {"reference", metric_.reference}};
  if (!metric_.parameters.empty()) j["parameters"] = metric_.parameter_values(options_);
  return j;
}

report::IdentityReading error_rate_reading() {
  return {[](const json& identity) { return identity.value("unit", "words") == "chars" ? "cer" : "wer"; }};
}

namespace {

using Made = std::unique_ptr<Evaluator>;
using Scoring = std::shared_ptr<ScoringModels>;

// WER or CER, under the class id (and identity) runs have always recorded.
class ErrorRate final : public TextMetricEvaluator {
 public:
  explicit ErrorRate(bool characters)
      : TextMetricEvaluator(*metrics::find_text_metric(characters ? "cer" : "wer"), {}, "error_rate") {}
  json corpus(const Records& records) const override { return corpus_of_results(records); }
  json identity() const override {
    return {{"name", name}, {"class", class_id_}, {"unit", metric_.name == "cer" ? "chars" : "words"},
            {"reference", metric_.reference}, {"corpus", "sum of edits over sum of reference tokens"}};
  }
};

const EvaluatorClasses::Registration kErrorRateClass{
    {Kind::evaluator, "error_rate", "Word or character error rate, jiwer 4.0; corpus = summed edits / reference tokens",
     {arg::choice("unit", "words", {"words", "chars"}, "words (WER) or chars (CER)")}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      return std::make_unique<ErrorRate>(args.text("unit") == "chars");
    }};

const report::DeclareIdentityReading kErrorRateReading{"error_rate", error_rate_reading()};

// A registry argument for a metric parameter, typed and defaulted as the metric library has it.
ArgSpec argument_for(const metrics::TextParameter& p) {
  const json fallback = p.get(metrics::TextMetricOptions{});
  if (!p.choices.empty()) return arg::choice(p.name, fallback.get<std::string>(), p.choices, p.meaning);
  if (fallback.is_boolean()) return arg::boolean(p.name, fallback.get<bool>(), p.meaning);
  if (fallback.is_number_integer()) return arg::integer(p.name, fallback.get<long>(), p.meaning);
  if (fallback.is_number()) return arg::number(p.name, fallback.get<double>(), p.meaning);
  if (fallback.is_null()) return arg::optional_number(p.name, p.meaning);
  return arg::text(p.name, fallback.get<std::string>(), p.meaning);
}

json argument_value(const Args& args, const ArgSpec& spec) {
  switch (spec.type) {
    case ArgType::boolean: return args.boolean(spec.name);
    case ArgType::integer: return args.integer(spec.name);
    case ArgType::number:
      if (spec.default_value.index() == 0) {
        const auto v = args.optional_number(spec.name);
        return v ? json(*v) : json(nullptr);
      }
      return args.number(spec.name);
    default: return args.text(spec.name);
  }
}

// One class per text metric, declared from the catalog; WER and CER are error_rate's.
const bool kTextMetricClasses = [] {
  static std::deque<EvaluatorClasses::Registration> registrations;
  for (const auto& metric : metrics::text_metrics()) {
    if (metric.name == "wer" || metric.name == "cer") continue;
    ClassSpec spec{Kind::evaluator, metric.name, metric.summary + " — " + metric.reference, {}, metric.aliases};
    for (const auto& p : metric.parameters) spec.args.push_back(argument_for(metrics::text_parameter(p)));
    spec.args.push_back(references_field_arg());
    registrations.emplace_back(spec, [&metric, spec](const Args& args, const Registry&, const Scoring&) -> Made {
      metrics::TextMetricOptions options;
      for (const auto& p : metric.parameters)
        metrics::text_parameter(p).set(options, argument_value(args, *spec.find(p)));
      auto e = std::make_unique<TextMetricEvaluator>(metric, options, metric.name);
      e->references_field = args.text("references_field");
      return e;
    });
  }
  return true;
}();

}  // namespace

}  // namespace aeval::pipeline
