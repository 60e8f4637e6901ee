// The catalog's view of the metrics of audio and embeddings, which are declared with their computation
// (audio_pair.cpp, embedding_pair.cpp); leaderboards show them unaveraged, as their scales (dB,
// distances) don't map onto 0–100. DNSMOS, a MOS of audio alone, is declared here: its networks
// (src/dnsmos) and weights (the models layer) sit above this library, which `aeval score`, the
// evaluator and Python call.
#include "aeval/metrics/audio_pair.hpp"
#include "aeval/metrics/catalog.hpp"
#include "aeval/metrics/embedding_pair.hpp"

namespace aeval::metrics {

const std::vector<MetricInfo>& signal_metrics() {
  static const std::vector<MetricInfo> metrics = [] {
    std::vector<MetricInfo> out(audio_metrics().begin(), audio_metrics().end());
    out.insert(out.end(), embedding_metrics().begin(), embedding_metrics().end());
    out.push_back({"dnsmos", {}, "DNSMOS P.835 SIG/BAK/OVRL and P.808 MOS of audio files, no reference",
                   "microsoft/DNS-Challenge dnsmos_local.py, official ONNX weights (aeval fetch model dnsmos)",
                   MetricInput::audio_alone, Better::higher, {"20·x", 20, 0}});
    return out;
  }();
  return metrics;
}

}  // namespace aeval::metrics
