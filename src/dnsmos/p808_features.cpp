#include "dnsmos/p808_features.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "audio/features.hpp"

namespace aeval::dnsmos {

namespace {

constexpr int kNfft = 321, kHop = 160, kBins = kNfft / 2 + 1;
constexpr int kDftColumns = 328;  // 2 × 161 rounded up to the widest double vector's multiple
constexpr std::size_t kSamples = kWindowSamples - kHop, kPadded = kSamples + 2 * (kNfft / 2);
constexpr double kAmin = 1e-10, kTopDb = 80.0;

// librosa's Slaney mel scale (htk=False), operation for operation.
constexpr double kMelSpacing = 200.0 / 3, kMinLogHz = 1000.0;
const double kMinLogMel = (kMinLogHz - 0.0) / kMelSpacing;
const double kLogStep = std::log(6.4) / 27.0;

double hz_to_mel(double hz) {
  return hz >= kMinLogHz ? kMinLogMel + std::log(hz / kMinLogHz) / kLogStep : (hz - 0.0) / kMelSpacing;
}

double mel_to_hz(double mel) {
  return mel >= kMinLogMel ? kMinLogHz * std::exp(kLogStep * (mel - kMinLogMel)) : 0.0 + kMelSpacing * mel;
}

// np.linspace(start, stop, n): i·step + start, the last value exactly stop.
std::vector<double> linspace(double start, double stop, int n) {
  std::vector<double> out(static_cast<std::size_t>(n));
  const double step = (stop - start) / (n - 1);
  for (int i = 0; i < n; ++i) out[std::size_t(i)] = double(i) * step + start;
  out.back() = stop;
  return out;
}

std::vector<double> bin_frequencies(P808Features semantics) {
  if (semantics == P808Features::librosa_0_8) return linspace(0.0, kSampleRate / 2.0, kBins);
  const double spacing = 1.0 / (kNfft * (1.0 / kSampleRate));  // np.fft.rfftfreq(321, 1/16000)
  std::vector<double> out(kBins);
  for (int k = 0; k < kBins; ++k) out[std::size_t(k)] = double(k) * spacing;
  return out;
}

}  // namespace

P808FeatureExtractor::P808FeatureExtractor(P808Features semantics) : semantics_(semantics) {
  // librosa.filters.mel(sr=16000, n_fft=321, n_mels=120), Slaney area normalisation, float32.
  const std::vector<double> bins = bin_frequencies(semantics);
  const std::vector<double> mels = linspace(hz_to_mel(0.0), hz_to_mel(kSampleRate / 2.0), int(kP808Bands) + 2);
  std::vector<double> centres(mels.size());
  std::transform(mels.begin(), mels.end(), centres.begin(), mel_to_hz);
  for (std::size_t m = 0; m < kP808Bands; ++m) {
    const double lower_width = centres[m + 1] - centres[m], upper_width = centres[m + 2] - centres[m + 1];
    const double enorm = 2.0 / (centres[m + 2] - centres[m]);
    std::vector<double> weights(kBins);
    for (int k = 0; k < kBins; ++k) {
      const double lower = -(centres[m] - bins[std::size_t(k)]) / lower_width;
      const double upper = (centres[m + 2] - bins[std::size_t(k)]) / upper_width;
      const float w = float(std::max(0.0, std::min(lower, upper)));
      weights[std::size_t(k)] = double(float(double(w) * enorm));
    }
    const auto nonzero = [](double w) { return w != 0.0; };
    const auto first = std::find_if(weights.begin(), weights.end(), nonzero);
    const auto last = std::find_if(weights.rbegin(), weights.rend(), nonzero).base();
    bands_.push_back({int(first - weights.begin()), std::vector<double>(first, std::max(first, last))});
  }
  // Periodic Hann(321) folded into the DFT's rows; angles reduced exactly before the cosine.
  const std::vector<double> window = features::hann_window(kNfft, features::Symmetry::periodic);
  dft_.assign(std::size_t(kNfft) * kDftColumns, 0.0);
  for (int n = 0; n < kNfft; ++n) {
    for (int k = 0; k < kBins; ++k) {
      const double angle = 2 * std::numbers::pi * double(n * k % kNfft) / kNfft;
      dft_[std::size_t(n) * kDftColumns + std::size_t(k)] = window[std::size_t(n)] * std::cos(angle);
      dft_[std::size_t(n) * kDftColumns + std::size_t(kBins + k)] = -window[std::size_t(n)] * std::sin(angle);
    }
  }
}

void P808FeatureExtractor::compute(const double* samples, float* out, FeatureBuffers& buffers,
                                   const kernels::KernelSet& kernels) const {
  // The centred STFT's padding of n_fft / 2 = 160 samples each side.
  constexpr std::size_t pad = kNfft / 2;
  double* padded = buffers.padded.reserve(kPadded);
  std::copy(samples, samples + kSamples, padded + pad);
  for (std::size_t i = 1; i <= pad; ++i) {
    const bool reflect = semantics_ == P808Features::librosa_0_8;
    padded[pad - i] = reflect ? samples[i] : 0.0;
    padded[pad + kSamples - 1 + i] = reflect ? samples[kSamples - 1 - i] : 0.0;
  }
  kernels::Gemm<double> g;
  g.M = int(kP808Frames);
  g.N = kDftColumns;
  g.K = kNfft;
  g.A = padded;
  g.lda = kHop;
  g.B = dft_.data();
  g.ldb = kDftColumns;
  g.C = buffers.spectrum.reserve(kP808Frames * kDftColumns);
  g.ldc = kDftColumns;
  kernels.gemm_f64(g);

  // |X|² through the filterbank, in place of the spectrum's real parts.
  std::vector<double>& mel = buffers.mel;
  mel.resize(kP808Frames * kP808Bands);
  double reference = 0;
  for (std::size_t t = 0; t < kP808Frames; ++t) {
    double* row = g.C + t * kDftColumns;
    for (int k = 0; k < kBins; ++k) row[k] = row[k] * row[k] + row[kBins + k] * row[kBins + k];
    for (std::size_t m = 0; m < kP808Bands; ++m) {
      const Band& band = bands_[m];
      double sum = 0;
      for (std::size_t k = 0; k < band.weights.size(); ++k) sum += band.weights[k] * row[std::size_t(band.first_bin) + k];
      mel[t * kP808Bands + m] = sum;
      reference = std::max(reference, sum);
    }
  }
  // power_to_db(S, ref=np.max, amin=1e-10, top_db=80), then (x + 40) / 40.
  const double reference_db = 10.0 * std::log10(std::max(kAmin, reference));
  double top = -INFINITY;
  for (double& v : mel) {
    v = 10.0 * std::log10(std::max(kAmin, v)) - reference_db;
    top = std::max(top, v);
  }
  for (std::size_t i = 0; i < mel.size(); ++i) out[i] = float((std::max(mel[i], top - kTopDb) + 40) / 40);
}

}  // namespace aeval::dnsmos
