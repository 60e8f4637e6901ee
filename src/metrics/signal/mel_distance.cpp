// audiocraft 896ec7c losses/specloss.py (MelSpectrogramWrapper,
// MelSpectrogramL1Loss, MultiScaleMelSpectrogramLoss), modules/conv.py
// pad_for_conv1d, and torchaudio 0.13.1 MelSpectrogram / melscale_fbanks.
// Window and filterbank are built in float32, as the reference builds them.
#include "aeval/metrics/mel_distance.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>

#include "aeval/error.hpp"
#include "audio/features.hpp"

namespace aeval::metrics {

std::vector<std::vector<double>> audiocraft_mel_spectrogram(const std::vector<double>& signal,
                                                            const MelSpectrogramOptions& o) {
  const long n = long(signal.size());
  const long pad = (o.n_fft - o.hop_length) / 2;
  if (n <= pad)
    throw Error(ErrorCategory::data, "mel spectrogram: the signal (" + std::to_string(n) +
                                         " samples) is shorter than the reflect padding of " + std::to_string(pad));
  // Reflect padding, then zeros so every frame is full.
  const long reflected = n + 2 * pad;
  const double frames_exact = double(reflected - o.n_fft) / o.hop_length + 1;
  const long ideal = (long(std::ceil(frames_exact)) - 1) * o.hop_length + o.n_fft;
  const std::vector<double> x =
      features::reflect_padded(signal, std::size_t(pad), std::size_t(pad), std::size_t(std::max(0L, ideal - reflected)));

  // Periodic Hann window of win_length, rounded to float32 as torch builds it, centred in n_fft.
  std::vector<double> window = features::hann_window(std::size_t(o.win_length), features::Symmetry::periodic);
  double window_energy = 0;
  for (double& w : window) {
    w = float(w);
    window_energy += w * w;
  }
  const double scale = o.normalized ? 1.0 / std::sqrt(window_energy) : 1.0;
  const features::StftLayout layout{
      features::padded_window(window, std::size_t(o.n_fft), std::size_t((o.n_fft - o.win_length) / 2)),
      std::size_t(o.n_fft), std::size_t(o.hop_length), features::LastFrame::inside};
  const auto bank = features::mel_filterbank_torchaudio(o.sample_rate, std::size_t(o.n_fft), std::size_t(o.n_mels),
                                                        o.f_min, o.f_max.value_or(o.sample_rate / 2.0));
  const std::size_t frames = features::frame_count(x.size(), layout.frame_length, layout.hop, layout.last);
  std::vector<std::vector<double>> mel(bank.size());
  for (auto& row : mel) row.resize(frames);  // zero-filled in place, not copied from a zero row
  std::vector<double> power(std::size_t(o.n_fft / 2 + 1));
  features::stft(x, layout, [&](std::size_t t, const std::vector<std::complex<double>>& spectrum) {
    for (std::size_t f = 0; f < power.size(); ++f) power[f] = std::norm(spectrum[f] * scale);  // as torch.stft(normalized)
    for (std::size_t m = 0; m < bank.size(); ++m) mel[m][t] = bank[m].energy(power);
  });
  if (o.log)
    for (auto& row : mel)
      for (double& v : row) v = std::log10(o.floor_level + v);
  return mel;
}

namespace {

template <class Term>
double mean_over(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b, Term term) {
  double sum = 0;
  std::size_t count = 0;
  for (std::size_t m = 0; m < a.size(); ++m)
    for (std::size_t t = 0; t < a[m].size(); ++t, ++count) sum += term(a[m][t] - b[m][t]);
  return sum / double(count);
}

void check_lengths(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size())
    throw Error(ErrorCategory::data, "mel distance: lengths differ (" + std::to_string(a.size()) + " vs " +
                                         std::to_string(b.size()) + " samples)");
}

}  // namespace

double mel_l1_distance(const std::vector<double>& estimate, const std::vector<double>& reference,
                       const MelSpectrogramOptions& o) {
  check_lengths(estimate, reference);
  return mean_over(audiocraft_mel_spectrogram(estimate, o), audiocraft_mel_spectrogram(reference, o),
                   [](double d) { return std::fabs(d); });
}

double multiscale_mel_distance(const std::vector<double>& estimate, const std::vector<double>& reference,
                               const MultiScaleMelOptions& o) {
  check_lengths(estimate, reference);
  double loss = 0, total = 0;
  for (int i = o.range_start; i < o.range_end; ++i) {
    MelSpectrogramOptions s;
    s.sample_rate = o.sample_rate;
    s.n_fft = s.win_length = 1 << i;
    s.hop_length = (1 << i) / 4;
    s.n_mels = o.n_mels;
    s.f_min = o.f_min;
    s.f_max = o.f_max;
    s.normalized = o.normalized;
    s.floor_level = o.floor_level;
    s.log = false;
    auto mel_e = audiocraft_mel_spectrogram(estimate, s), mel_r = audiocraft_mel_spectrogram(reference, s);
    const double linear_l1 = mean_over(mel_e, mel_r, [](double d) { return std::fabs(d); });
    // The log-mel wrapper computes the same mel spectrogram, then log10(floor + ·).
    for (auto* mel : {&mel_e, &mel_r})
      for (auto& row : *mel)
        for (double& v : row) v = std::log10(o.floor_level + v);
    const double alpha = o.alphas ? std::sqrt(double((1 << i) - 1)) : 1.0;
    loss += linear_l1 + alpha * mean_over(mel_e, mel_r, [](double d) { return d * d; });
    total += alpha + 1;
  }
  return o.normalized ? loss / total : loss;
}

}  // namespace aeval::metrics
