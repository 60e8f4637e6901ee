// Looking metrics up, checking their inputs and scoring a corpus.
#include <fmt/format.h>

#include "aeval/error.hpp"
#include "aeval/metrics/catalog.hpp"
#include "metrics/catalog/segment_values.hpp"

namespace aeval::metrics {

using nlohmann::json;

void TextMetric::check(const Segments& s) const {
  if (s.hypotheses.size() != s.references.size())
    throw Error(ErrorCategory::data, fmt::format("{}: {} hypotheses but {} reference sets", name, s.hypotheses.size(),
                                                 s.references.size()));
  for (std::size_t i = 0; i < s.references.size(); ++i) {
    const std::size_t count = s.references[i].size();
    if (count == 0) throw Error(ErrorCategory::data, fmt::format("{}: segment {} has no reference", name, i + 1));
    if (references == ReferenceCount::one && count != 1)
      throw Error(ErrorCategory::data,
                  fmt::format("{} takes exactly one reference per segment; segment {} has {}", name, i + 1, count));
  }
}

json TextMetric::parameter_values(const TextMetricOptions& o) const {
  json out = json::object();
  for (const auto& p : parameters) out[p] = text_parameter(p).get(o);
  return out;
}

json TextMetric::corpus_result(const Segments& s, std::vector<json>& results, const TextMetricOptions& o) const {
  if (corpus) return corpus(s, results, o);
  return {{key, detail::mean_of(results, key)}};
}

CorpusFromSegments TextMetric::corpus_from_segments(const TextMetricOptions& o) const {
  if (from_segments) return from_segments(o);
  CorpusFromSegments way;
  if (!corpus && segment) way.way = CorpusFromSegments::Way::mean;
  return way;
}

json TextMetric::score(const Segments& s, const TextMetricOptions& o, std::vector<json>* per_segment) const {
  check(s);
  std::vector<json> results;
  if (segment) {
    results.reserve(s.hypotheses.size());
    for (std::size_t i = 0; i < s.hypotheses.size(); ++i) results.push_back(segment(s.hypotheses[i], s.references[i], o));
  }
  json out = corpus_result(s, results, o);
  if (per_segment) *per_segment = std::move(results);
  return out;
}

namespace {

template <class Metric>
const Metric* find_in(const std::vector<Metric>& metrics, std::string_view name, std::string* renamed) {
  for (const auto& m : metrics) {
    if (m.name == name) return &m;
    for (const auto& alias : m.aliases)
      if (alias == name) {
        if (renamed) *renamed = renamed_note(name, m);
        return &m;
      }
  }
  return nullptr;
}

}  // namespace

const TextMetric* find_text_metric(std::string_view name, std::string* renamed) {
  return find_in(text_metrics(), name, renamed);
}

const MetricInfo* find_metric(std::string_view name, std::string* renamed) {
  if (const TextMetric* m = find_text_metric(name, renamed)) return m;
  return find_in(signal_metrics(), name, renamed);
}

std::string renamed_note(std::string_view old_name, const MetricInfo& metric) {
  return fmt::format("'{}' is now called '{}'; the old name still works but will go away", old_name, metric.name);
}

}  // namespace aeval::metrics
