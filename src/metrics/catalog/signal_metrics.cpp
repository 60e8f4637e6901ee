// The metrics of audio and embeddings in the catalog. Their computation
// lives with them (audio_pair.hpp, embedding.hpp); leaderboards show them
// unaveraged, as their scales (dB, distances) don't map onto 0–100.
#include "aeval/metrics/catalog.hpp"

namespace aeval::metrics {

const std::vector<MetricInfo>& signal_metrics() {
  using I = MetricInput;
  using B = Better;
  static const std::vector<MetricInfo> metrics{
      {"stoi", {}, "STOI of degraded vs clean audio", "pystoi 0.4.1 stoi", I::audio, B::higher, {}},
      {"estoi", {}, "extended STOI", "pystoi 0.4.1 stoi(extended=True)", I::audio, B::higher, {}},
      {"si-sdr", {}, "scale-invariant SDR in dB (zero_mean off)", "torchmetrics scale_invariant_signal_distortion_ratio",
       I::audio, B::higher, {}},
      {"si-snr", {}, "scale-invariant SNR in dB (SI-SDR with zero mean)",
       "torchmetrics scale_invariant_signal_noise_ratio", I::audio, B::higher, {}},
      {"snr", {}, "signal-to-noise ratio in dB", "torchmetrics signal_noise_ratio", I::audio, B::higher, {}},
      {"mcd", {}, "mel cepstral distance (fastdtw radius 10 on mel frames); 'penalty' per file",
       "mel_cepstral_distance 0.0.3", I::audio, B::lower, {}},
      {"mel-l1", {}, "log-mel L1 distance (n_fft 1024, hop 256, 80 mels) at the reference's rate",
       "audiocraft MelSpectrogramL1Loss", I::audio, B::lower, {}},
      {"msspec", {}, "multi-scale mel distance (n_fft 64..1024, 64 mels, alphas; EnCodec's loss)",
       "audiocraft MultiScaleMelSpectrogramLoss", I::audio, B::lower, {}},
      {"audiobertscore", {}, "AudioBERTScore of two token-embedding .npy files (p, lambda, float32 as the reference)",
       "AudioBERTScore (seed 001)", I::embeddings, B::higher, {}},
      {"fad", {}, "Fréchet distance of two sets of .npy embeddings (fadtk statistics)", "fadtk frechet_distance",
       I::embeddings, B::lower, {}},
      {"cosine", {}, "cosine similarity of paired embedding rows (.npy), e.g. speaker similarity", "numpy cosine",
       I::embeddings, B::higher, {}},
  };
  return metrics;
}

}  // namespace aeval::metrics
