// The catalog's view of the metrics of audio and embeddings, which are declared with their computation
// (audio_pair.cpp, embedding_pair.cpp); leaderboards show them unaveraged, as their scales (dB,
// distances) don't map onto 0–100.
#include "aeval/metrics/audio_pair.hpp"
#include "aeval/metrics/catalog.hpp"
#include "aeval/metrics/embedding_pair.hpp"

namespace aeval::metrics {

const std::vector<MetricInfo>& signal_metrics() {
  static const std::vector<MetricInfo> metrics = [] {
    std::vector<MetricInfo> out(audio_metrics().begin(), audio_metrics().end());
    out.insert(out.end(), embedding_metrics().begin(), embedding_metrics().end());
    return out;
  }();
  return metrics;
}

}  // namespace aeval::metrics
