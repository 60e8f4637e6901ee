#pragma once
// One embedding metric on a (generated, reference) pair of embedding
// matrices: what `aeval score cosine|audiobertscore` computes per file pair
// and Python's aeval.score_embeddings per call, so both give the same value.
#include <optional>
#include <string>
#include <vector>

#include "aeval/metrics/embedding.hpp"

namespace aeval::metrics {

struct EmbeddingPairScore {
  double value = 0;                         // AudioBERTScore's F1; cosine: the mean over rows, as numpy sums
  std::optional<double> precision, recall;  // AudioBERTScore
  std::vector<double> rows;                 // cosine: row i of one against row i of the other
};

// cosine, audiobertscore.
bool is_embedding_pair_metric(const std::string& metric);
const std::vector<std::string>& embedding_pair_metrics();

// `options` applies to AudioBERTScore. Throws aeval::Error (config) for another metric name, (data) for
// shapes the metric refuses.
EmbeddingPairScore score_embedding_pair(const std::string& metric, const Matrix& generated, const Matrix& reference,
                                        const AudioBertScoreOptions& options = {});

}  // namespace aeval::metrics
