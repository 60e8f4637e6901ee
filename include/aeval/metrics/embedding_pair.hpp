#pragma once
// One embedding metric on a (generated, reference) pair of embedding
// matrices: what `aeval score cosine|audiobertscore` computes per file pair
// and Python's aeval.score_embeddings per call, so both give the same value.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aeval/metrics/catalog.hpp"
#include "aeval/metrics/embedding.hpp"

namespace aeval::metrics {

struct EmbeddingPairScore {
  double value = 0;                         // AudioBERTScore's F1; cosine: the mean over rows, as numpy sums
  std::optional<double> precision, recall;  // AudioBERTScore
  std::vector<double> rows;                 // cosine: row i of one against row i of the other
};

// One embedding metric, declared once with its computation: of generated and reference matrices paired file
// by file (`pair`: AudioBERTScore, cosine), or of two whole sets through their statistics (`sets`: FAD).
struct EmbeddingMetric : MetricInfo {
  std::vector<std::string> parameters;  // of AudioBertScoreOptions it reads: "p", "lambda", "arithmetic"
  EmbeddingPairScore (*pair)(const Matrix& generated, const Matrix& reference,
                             const AudioBertScoreOptions& options) = nullptr;
  FrechetResult (*sets)(const EmbeddingStatistics& a, const EmbeddingStatistics& b) = nullptr;
};

// audiobertscore, fad, cosine.
const std::vector<EmbeddingMetric>& embedding_metrics();
const EmbeddingMetric* find_embedding_metric(std::string_view name);
// Those of pairs: audiobertscore, cosine.
bool is_embedding_pair_metric(const std::string& metric);
const std::vector<std::string>& embedding_pair_metrics();

// `options` applies to AudioBERTScore. Throws aeval::Error (config) for another metric name, (data) for
// shapes the metric refuses.
EmbeddingPairScore score_embedding_pair(const std::string& metric, const Matrix& generated, const Matrix& reference,
                                        const AudioBertScoreOptions& options = {});

}  // namespace aeval::metrics
