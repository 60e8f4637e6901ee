#include "aeval/metrics/embedding_pair.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "aeval/error.hpp"
#include "util/numpy_sum.hpp"

namespace aeval::metrics {

const std::vector<EmbeddingMetric>& embedding_metrics() {
  using I = MetricInput;
  using B = Better;
  static const std::vector<EmbeddingMetric> metrics{
      {{"audiobertscore", {}, "AudioBERTScore of two token-embedding .npy files (p, lambda, float32 as the reference)",
        "AudioBERTScore (seed 001)", I::embeddings, B::higher, {}},
       {"p", "lambda", "arithmetic"},
       [](const Matrix& generated, const Matrix& reference, const AudioBertScoreOptions& o) {
         const auto s = audio_bert_score(generated, reference, o);
         EmbeddingPairScore out;
         out.value = s.f1;
         out.precision = s.precision;
         out.recall = s.recall;
         return out;
       },
       nullptr},
      {{"fad", {}, "Fréchet distance of two sets of .npy embeddings (fadtk statistics)", "fadtk frechet_distance",
        I::embeddings, B::lower, {}},
       {},
       nullptr,
       frechet_distance},
      {{"cosine", {}, "cosine similarity of paired embedding rows (.npy), e.g. speaker similarity", "numpy cosine",
        I::embeddings, B::higher, {}},
       {},
       [](const Matrix& generated, const Matrix& reference, const AudioBertScoreOptions&) {
         EmbeddingPairScore out;
         out.rows = cosine_similarity_rows(reference, generated);
         out.value = detail::numpy_mean(out.rows.data(), out.rows.size());
         return out;
       },
       nullptr},
  };
  return metrics;
}

const EmbeddingMetric* find_embedding_metric(std::string_view name) {
  for (const auto& m : embedding_metrics())
    if (m.name == name) return &m;
  return nullptr;
}

const std::vector<std::string>& embedding_pair_metrics() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& m : embedding_metrics())
      if (m.pair) out.push_back(m.name);
    return out;
  }();
  return names;
}

bool is_embedding_pair_metric(const std::string& metric) {
  const EmbeddingMetric* m = find_embedding_metric(metric);
  return m && m->pair;
}

EmbeddingPairScore score_embedding_pair(const std::string& metric, const Matrix& generated, const Matrix& reference,
                                        const AudioBertScoreOptions& options) {
  const EmbeddingMetric* m = find_embedding_metric(metric);
  if (!m || !m->pair)
    throw Error(ErrorCategory::config, fmt::format("no embedding metric named '{}' ({})", metric,
                                                   fmt::join(embedding_pair_metrics(), ", ")));
  return m->pair(generated, reference, options);
}

}  // namespace aeval::metrics
