#pragma once
// Log-mel distances as audiocraft 1.4 (EnCodec's training losses) computes
// them: MelSpectrogramL1Loss and MultiScaleMelSpectrogramLoss over
// torchaudio's MelSpectrogram (HTK mel, no filter normalisation, periodic
// Hann window, center=False after reflect padding).
#include <optional>
#include <vector>

namespace aeval::metrics {

struct MelSpectrogramOptions {
  int sample_rate = 16000;
  int n_fft = 1024, hop_length = 256, win_length = 1024;
  int n_mels = 80;
  double f_min = 0;
  std::optional<double> f_max;  // sample_rate / 2 when unset
  bool normalized = false;      // divide the STFT by the window's L2 norm
  bool log = true;              // log10(floor + mel)
  double floor_level = 1e-5;
};

// audiocraft's MelSpectrogramWrapper: [mel band][frame].
std::vector<std::vector<double>> audiocraft_mel_spectrogram(const std::vector<double>& signal,
                                                            const MelSpectrogramOptions& options);

// mean |logmel(estimate) − logmel(reference)|. Throws aeval::Error (data) when
// the lengths differ or the signal is shorter than the reflect padding.
double mel_l1_distance(const std::vector<double>& estimate, const std::vector<double>& reference,
                       const MelSpectrogramOptions& options);

struct MultiScaleMelOptions {
  int sample_rate = 16000;
  int range_start = 6, range_end = 11;  // n_fft = 2^i for i in [start, end)
  int n_mels = 64;
  double f_min = 0;
  std::optional<double> f_max;
  bool normalized = false;  // EnCodec's config: true (and alphas false)
  bool alphas = true;       // weight √(2^i − 1) on the log-mel MSE
  double floor_level = 1e-5;
};

// Σ_i [ L1(mel) + α_i · MSE(log10 mel) ], divided by Σ(α_i + 1) when normalized.
double multiscale_mel_distance(const std::vector<double>& estimate, const std::vector<double>& reference,
                               const MultiScaleMelOptions& options);

}  // namespace aeval::metrics
