#include "audio/features.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace aeval::features {

namespace {

// a0 − a1·cos(2πi/denominator); a zero denominator (one-sample symmetric window) gives ones.
std::vector<double> cosine_window(std::size_t n, double a0, double a1, std::size_t denominator) {
  std::vector<double> w(n, 1.0);
  if (denominator == 0) return w;
  for (std::size_t i = 0; i < n; ++i) w[i] = a0 - a1 * std::cos(2 * std::numbers::pi * double(i) / double(denominator));
  return w;
}

std::size_t symmetric_denominator(std::size_t n) { return n > 1 ? n - 1 : 0; }

// numpy.linspace(a, b, n): i·step + a, the last point exactly b.
std::vector<double> linspace(double a, double b, std::size_t n) {
  std::vector<double> out(n);
  const double step = (b - a) / double(n - 1);
  for (std::size_t i = 0; i < n; ++i) out[i] = double(i) * step + a;
  out.back() = b;
  return out;
}

// The nonzero run of a dense filter row (triangles are narrow, so applying
// only the run is much cheaper and adds the same nonzero terms in the same order).
MelFilter nonzero_run(const std::vector<double>& row) {
  const auto nonzero = [](double w) { return w != 0.0; };
  const auto first = std::find_if(row.begin(), row.end(), nonzero);
  if (first == row.end()) return {};
  const auto last = std::find_if(row.rbegin(), row.rend(), nonzero).base();
  return {std::size_t(first - row.begin()), std::vector<double>(first, last)};
}

template <class Value>
Matrix spectrogram(const std::vector<double>& signal, const StftLayout& layout, Value value) {
  Matrix out(frame_count(signal.size(), layout.frame_length, layout.hop, layout.last));
  stft(signal, layout, [&](std::size_t t, const std::vector<std::complex<double>>& spectrum) {
    out[t].resize(spectrum.size());
    for (std::size_t b = 0; b < spectrum.size(); ++b) out[t][b] = value(spectrum[b]);
  });
  return out;
}

}  // namespace

std::vector<double> hann_window(std::size_t n, Symmetry symmetry) {
  return cosine_window(n, 0.5, 0.5, symmetry == Symmetry::symmetric ? symmetric_denominator(n) : n);
}

std::vector<double> hamming_window(std::size_t n) { return cosine_window(n, 0.54, 0.46, symmetric_denominator(n)); }

std::vector<double> matlab_hanning(std::size_t n) {
  const auto w = hann_window(n + 2, Symmetry::symmetric);
  return std::vector<double>(w.begin() + 1, w.end() - 1);
}

std::vector<double> padded_window(const std::vector<double>& window, std::size_t size, std::size_t offset) {
  std::vector<double> out(size, 0.0);
  std::copy(window.begin(), window.end(), out.begin() + long(offset));
  return out;
}

std::size_t frame_count(std::size_t signal_length, std::size_t frame_length, std::size_t hop, LastFrame last) {
  if (signal_length < frame_length) return 0;
  const std::size_t last_start = signal_length - frame_length;
  if (last == LastFrame::inside) return last_start / hop + 1;
  return last_start == 0 ? 0 : (last_start - 1) / hop + 1;
}

Matrix windowed_frames(const std::vector<double>& signal, const std::vector<double>& window, std::size_t hop,
                       LastFrame last) {
  Matrix frames(frame_count(signal.size(), window.size(), hop, last), std::vector<double>(window.size()));
  for (std::size_t t = 0; t < frames.size(); ++t)
    for (std::size_t k = 0; k < window.size(); ++k) frames[t][k] = window[k] * signal[t * hop + k];
  return frames;
}

std::vector<double> overlap_add(const Matrix& frames, std::size_t hop) {
  std::vector<double> out(frames.empty() ? 0 : (frames.size() - 1) * hop + frames[0].size(), 0.0);
  for (std::size_t t = 0; t < frames.size(); ++t)
    for (std::size_t k = 0; k < frames[t].size(); ++k) out[t * hop + k] += frames[t][k];
  return out;
}

std::vector<double> reflect_padded(const std::vector<double>& signal, std::size_t left, std::size_t right,
                                   std::size_t zeros) {
  const std::size_t n = signal.size();
  std::vector<double> out;
  out.reserve(left + n + right + zeros);
  for (std::size_t i = left; i >= 1; --i) out.push_back(signal[i]);
  out.insert(out.end(), signal.begin(), signal.end());
  for (std::size_t i = 1; i <= right; ++i) out.push_back(signal[n - 1 - i]);
  out.resize(out.size() + zeros, 0.0);
  return out;
}

RealFft::RealFft(std::size_t n) : n_(n) { fft_.SetFlag(Eigen::FFT<double>::HalfSpectrum); }

void RealFft::forward(const std::vector<double>& x, std::vector<std::complex<double>>& spectrum) {
  fft_.fwd(spectrum, x);
}

void RealFft::inverse(const std::vector<std::complex<double>>& spectrum, std::vector<double>& x) {
  fft_.inv(x, spectrum, long(n_));
}

void stft(const std::vector<double>& signal, const StftLayout& layout, const SpectrumVisitor& visit) {
  const std::size_t n = layout.window.size(), taken = std::min(layout.frame_length, n);
  RealFft fft(n);
  std::vector<double> frame(n, 0.0);  // samples from `taken` on stay zero
  std::vector<std::complex<double>> spectrum;
  const std::size_t frames = frame_count(signal.size(), layout.frame_length, layout.hop, layout.last);
  for (std::size_t t = 0; t < frames; ++t) {
    const double* x = signal.data() + t * layout.hop;
    for (std::size_t k = 0; k < taken; ++k) frame[k] = x[k] * layout.window[k];
    fft.forward(frame, spectrum);
    visit(t, spectrum);
  }
}

Matrix power_spectrogram(const std::vector<double>& signal, const StftLayout& layout) {
  return spectrogram(signal, layout, [](std::complex<double> x) { return std::norm(x); });
}

Matrix magnitude_spectrogram(const std::vector<double>& signal, const StftLayout& layout) {
  return spectrogram(signal, layout, [](std::complex<double> x) { return std::abs(x); });
}

double hz_to_mel(double hz) { return 2595 * std::log10(1 + hz / 700.0); }
double mel_to_hz(double mel) { return 700 * (std::pow(10.0, mel / 2595) - 1); }

MelFilterbank mel_filterbank_fft_bins(int sample_rate, std::size_t n_fft, std::size_t n_mels, double f_min,
                                      double f_max) {
  const long bins = long(n_fft / 2 + 1);
  std::vector<long> corners;
  for (double m : linspace(hz_to_mel(f_min), hz_to_mel(f_max), n_mels + 2))
    corners.push_back(long(std::floor(double(n_fft + 1) * mel_to_hz(m) / sample_rate)));
  MelFilterbank bank;
  for (std::size_t n = 1; n <= n_mels; ++n) {
    const long left = corners[n - 1], center = corners[n], right = corners[n + 1];
    std::vector<double> row(std::size_t(bins), 0.0);
    const auto set = [&](long k, double w) {
      if (k >= 0 && k < bins) row[std::size_t(k)] = w;
    };
    for (long k = left; k < center; ++k) set(k, double(k - left) / double(center - left));
    for (long k = center; k < right; ++k) set(k, double(right - k) / double(right - center));
    bank.push_back(nonzero_run(row));
  }
  return bank;
}

MelFilterbank mel_filterbank_torchaudio(int sample_rate, std::size_t n_fft, std::size_t n_mels, double f_min,
                                        double f_max) {
  const std::size_t n_freqs = n_fft / 2 + 1;
  std::vector<float> all_freqs(n_freqs), f_pts(n_mels + 2);
  const float top = float(sample_rate / 2);
  for (std::size_t i = 0; i < n_freqs; ++i)
    all_freqs[i] = n_freqs == 1 ? 0.0f : float(double(top) * double(i) / double(n_freqs - 1));
  const float m_min = float(hz_to_mel(f_min)), m_max = float(hz_to_mel(f_max));
  for (std::size_t i = 0; i < n_mels + 2; ++i) {
    const float m = float(double(m_min) + (double(m_max) - double(m_min)) * double(i) / double(n_mels + 1));
    f_pts[i] = 700.0f * (std::pow(10.0f, m / 2595.0f) - 1.0f);
  }
  MelFilterbank bank;
  for (std::size_t m = 0; m < n_mels; ++m) {
    std::vector<double> row(n_freqs);
    for (std::size_t f = 0; f < n_freqs; ++f) {
      const float down = (-1.0f * (f_pts[m] - all_freqs[f])) / (f_pts[m + 1] - f_pts[m]);
      const float up = (f_pts[m + 2] - all_freqs[f]) / (f_pts[m + 2] - f_pts[m + 1]);
      row[f] = std::max(0.0f, std::min(down, up));
    }
    bank.push_back(nonzero_run(row));
  }
  return bank;
}

std::vector<double> filterbank_energies(const MelFilterbank& bank, const std::vector<double>& power) {
  std::vector<double> energies(bank.size());
  for (std::size_t m = 0; m < bank.size(); ++m) energies[m] = bank[m].energy(power);
  return energies;
}

MelCepstrum::MelCepstrum(std::size_t bands) : bands_(bands) {
  for (std::size_t i = 1; i <= bands; ++i)
    for (std::size_t n = 1; n <= bands; ++n)
      cosines_.push_back(std::cos(double(i) * (double(n) - 0.5) * std::numbers::pi / double(bands)));
}

std::vector<double> MelCepstrum::operator()(const std::vector<double>& log_mel) const {
  std::vector<double> c(bands_);
  for (std::size_t i = 0; i < bands_; ++i) {
    double sum = 0;
    for (std::size_t n = 0; n < bands_; ++n) sum += cosines_[i * bands_ + n] * log_mel[n];
    c[i] = sum;
  }
  return c;
}

std::vector<double> cross_correlation(const std::vector<double>& a, const std::vector<double>& b,
                                      std::size_t max_lag) {
  std::size_t n = 1;
  while (n < a.size() + b.size()) n *= 2;
  std::vector<double> padded_a(n, 0.0), padded_b(n, 0.0);
  std::copy(a.begin(), a.end(), padded_a.begin());
  std::copy(b.begin(), b.end(), padded_b.begin());
  RealFft fft(n);
  std::vector<std::complex<double>> fa, fb;
  fft.forward(padded_a, fa);
  fft.forward(padded_b, fb);
  for (std::size_t k = 0; k < fa.size(); ++k) fa[k] = std::conj(fa[k]) * fb[k];
  std::vector<double> circular;  // circular[lag mod n]
  fft.inverse(fa, circular);
  std::vector<double> c(2 * max_lag + 1, 0.0);  // lags of n or more lie beyond both signals
  const long size = long(n);
  for (long lag = std::max(-long(max_lag), 1 - size); lag <= std::min(long(max_lag), size - 1); ++lag)
    c[std::size_t(lag + long(max_lag))] = circular[std::size_t((lag + size) % size)];
  return c;
}

}  // namespace aeval::features
