#include "aeval/metrics/embedding_pair.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "aeval/error.hpp"
#include "util/numpy_sum.hpp"

namespace aeval::metrics {

const std::vector<std::string>& embedding_pair_metrics() {
  static const std::vector<std::string> names = {"audiobertscore", "cosine"};
  return names;
}

bool is_embedding_pair_metric(const std::string& metric) {
  const auto& names = embedding_pair_metrics();
  return std::find(names.begin(), names.end(), metric) != names.end();
}

EmbeddingPairScore score_embedding_pair(const std::string& metric, const Matrix& generated, const Matrix& reference,
                                        const AudioBertScoreOptions& options) {
  EmbeddingPairScore out;
  if (metric == "audiobertscore") {
    const auto s = audio_bert_score(generated, reference, options);
    out.value = s.f1;
    out.precision = s.precision;
    out.recall = s.recall;
  } else if (metric == "cosine") {
    out.rows = cosine_similarity_rows(reference, generated);
    out.value = detail::numpy_mean(out.rows.data(), out.rows.size());
  } else {
    throw Error(ErrorCategory::config, fmt::format("no embedding metric named '{}' ({})", metric,
                                                   fmt::join(embedding_pair_metrics(), ", ")));
  }
  return out;
}

}  // namespace aeval::metrics
