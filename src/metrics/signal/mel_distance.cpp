// audiocraft 896ec7c losses/specloss.py (MelSpectrogramWrapper,
// MelSpectrogramL1Loss, MultiScaleMelSpectrogramLoss), modules/conv.py
// pad_for_conv1d, and torchaudio 0.13.1 MelSpectrogram / melscale_fbanks.
// Window and filterbank are built in float32, as the reference builds them.
#include "aeval/metrics/mel_distance.hpp"

#include <unsupported/Eigen/FFT>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>

#include "aeval/error.hpp"

namespace aeval::metrics {

namespace {

double hz_to_mel(double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); }

// torchaudio.functional.melscale_fbanks(htk, norm=None), stored per mel band
// as its nonzero run of frequency bins (triangles are narrow).
struct MelBand {
  int first_bin = 0;
  std::vector<float> weights;
};

std::vector<std::vector<float>> mel_filterbank(int n_freqs, double f_min, double f_max, int n_mels, int sample_rate) {
  std::vector<float> all_freqs(static_cast<std::size_t>(n_freqs));
  std::vector<float> f_pts(static_cast<std::size_t>(n_mels + 2));
  const float top = float(sample_rate / 2);
  for (int i = 0; i < n_freqs; ++i)
    all_freqs[std::size_t(i)] = n_freqs == 1 ? 0.0f : float(double(top) * i / (n_freqs - 1));
  const float m_min = float(hz_to_mel(f_min)), m_max = float(hz_to_mel(f_max));
  for (int i = 0; i < n_mels + 2; ++i) {
    const float m = float(double(m_min) + (double(m_max) - double(m_min)) * i / (n_mels + 1));
    f_pts[std::size_t(i)] = 700.0f * (std::pow(10.0f, m / 2595.0f) - 1.0f);
  }
  std::vector<std::vector<float>> fb(static_cast<std::size_t>(n_freqs), std::vector<float>(static_cast<std::size_t>(n_mels)));
  for (int f = 0; f < n_freqs; ++f)
    for (int m = 0; m < n_mels; ++m) {
      const float down = (-1.0f * (f_pts[std::size_t(m)] - all_freqs[std::size_t(f)])) /
                         (f_pts[std::size_t(m + 1)] - f_pts[std::size_t(m)]);
      const float up = (f_pts[std::size_t(m + 2)] - all_freqs[std::size_t(f)]) /
                       (f_pts[std::size_t(m + 2)] - f_pts[std::size_t(m + 1)]);
      fb[std::size_t(f)][std::size_t(m)] = std::max(0.0f, std::min(down, up));
    }
  return fb;
}

}  // namespace

std::vector<std::vector<double>> audiocraft_mel_spectrogram(const std::vector<double>& signal,
                                                            const MelSpectrogramOptions& o) {
  const long n = long(signal.size());
  const long pad = (o.n_fft - o.hop_length) / 2;
  if (n <= pad)
    throw Error(ErrorCategory::data, "mel spectrogram: the signal (" + std::to_string(n) +
                                         " samples) is shorter than the reflect padding of " + std::to_string(pad));
  // Reflect padding (edge sample not repeated), then zeros so every frame is full.
  std::vector<double> x;
  x.reserve(std::size_t(n + 2 * pad + o.n_fft));
  for (long i = pad; i >= 1; --i) x.push_back(signal[std::size_t(i)]);
  x.insert(x.end(), signal.begin(), signal.end());
  for (long i = 1; i <= pad; ++i) x.push_back(signal[std::size_t(n - 1 - i)]);
  const double frames_exact = double(long(x.size()) - o.n_fft) / o.hop_length + 1;
  const long ideal = (long(std::ceil(frames_exact)) - 1) * o.hop_length + o.n_fft;
  if (ideal > long(x.size())) x.resize(std::size_t(ideal), 0.0);

  // Periodic Hann window of win_length, centred in n_fft (float32, as torch builds it).
  std::vector<double> window(static_cast<std::size_t>(o.n_fft), 0.0);
  const int offset = (o.n_fft - o.win_length) / 2;
  double window_energy = 0;
  for (int i = 0; i < o.win_length; ++i) {
    const float w = float(0.5 - 0.5 * std::cos(2 * std::numbers::pi * i / o.win_length));
    window[std::size_t(offset + i)] = w;
    window_energy += double(w) * double(w);
  }
  const double scale = o.normalized ? 1.0 / std::sqrt(window_energy) : 1.0;
  const int n_freqs = o.n_fft / 2 + 1;
  const auto fb = mel_filterbank(n_freqs, o.f_min, o.f_max.value_or(o.sample_rate / 2.0), o.n_mels, o.sample_rate);
  std::vector<MelBand> bands(static_cast<std::size_t>(o.n_mels));
  for (int m = 0; m < o.n_mels; ++m) {
    int first = n_freqs, last = -1;
    for (int f = 0; f < n_freqs; ++f)
      if (fb[std::size_t(f)][std::size_t(m)] != 0.0f) first = std::min(first, f), last = f;
    MelBand& band = bands[std::size_t(m)];
    band.first_bin = first;
    for (int f = first; f <= last; ++f) band.weights.push_back(fb[std::size_t(f)][std::size_t(m)]);
  }

  const long frames = 1 + (long(x.size()) - o.n_fft) / o.hop_length;
  std::vector<std::vector<double>> mel(static_cast<std::size_t>(o.n_mels), std::vector<double>(static_cast<std::size_t>(frames), 0.0));
  Eigen::FFT<double> fft;
  std::vector<double> frame(static_cast<std::size_t>(o.n_fft));
  std::vector<std::complex<double>> spectrum;
  std::vector<double> power(static_cast<std::size_t>(n_freqs));
  for (long t = 0; t < frames; ++t) {
    for (int i = 0; i < o.n_fft; ++i) frame[std::size_t(i)] = x[std::size_t(t * o.hop_length + i)] * window[std::size_t(i)];
    fft.fwd(spectrum, frame);
    for (int f = 0; f < n_freqs; ++f) power[std::size_t(f)] = std::norm(spectrum[std::size_t(f)] * scale);
    for (int m = 0; m < o.n_mels; ++m) {
      const MelBand& band = bands[std::size_t(m)];
      double sum = 0;
      for (std::size_t k = 0; k < band.weights.size(); ++k) sum += power[std::size_t(band.first_bin) + k] * band.weights[k];
      mel[std::size_t(m)][std::size_t(t)] = sum;
    }
  }
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
