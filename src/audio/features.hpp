#pragma once
// Short-time spectral features shared by the signal metrics and the codecs:
// windows, framing, a real FFT, STFT, HTK mel filterbanks, the mel cepstrum
// and FFT cross-correlation. Each keeps the operation order of the reference
// that uses it, so the metrics built on it match their golden values bit for bit.
#include <unsupported/Eigen/FFT>
#include <complex>
#include <cstddef>
#include <functional>
#include <vector>

namespace aeval::features {

using Matrix = std::vector<std::vector<double>>;  // [frame][sample, bin or band]

enum class Symmetry {
  symmetric,  // w(i) uses 2πi/(n − 1): numpy.hanning / numpy.hamming
  periodic,   // w(i) uses 2πi/n: torch.hann_window
};

// 0.5 − 0.5·cos(2πi/d). A symmetric window of one sample is [1], as numpy's.
std::vector<double> hann_window(std::size_t n, Symmetry symmetry);
// Symmetric 0.54 − 0.46·cos(2πi/(n − 1)), numpy.hamming.
std::vector<double> hamming_window(std::size_t n);
// MATLAB's hanning(n): numpy.hanning(n + 2) without its two zero end points.
std::vector<double> matlab_hanning(std::size_t n);
// `window` placed at `offset` in `size` zeros (torch.stft centres a shorter window this way).
std::vector<double> padded_window(const std::vector<double>& window, std::size_t size, std::size_t offset);

// Which frames t (covering [t·hop, t·hop + length)) a signal yields.
enum class LastFrame {
  inside,      // every frame that fits: torch.stft(center=False)
  before_end,  // starts in numpy's range(0, len − length, hop), so a frame ending on the last
               // sample is left out: pystoi, mel_cepstral_distance
};
std::size_t frame_count(std::size_t signal_length, std::size_t frame_length, std::size_t hop, LastFrame last);

// Frames of window.size() samples, each multiplied by the window.
Matrix windowed_frames(const std::vector<double>& signal, const std::vector<double>& window, std::size_t hop,
                       LastFrame last);
// Frames summed at hop-sample offsets.
std::vector<double> overlap_add(const Matrix& frames, std::size_t hop);
// numpy.pad / torch "reflect" (the edge sample is not repeated; needs left, right < signal.size()),
// then `zeros` zero samples, in one allocation.
std::vector<double> reflect_padded(const std::vector<double>& signal, std::size_t left, std::size_t right,
                                   std::size_t zeros = 0);

// FFT of real input of a fixed size n (kept plan): bins 0 … n/2.
class RealFft {
 public:
  explicit RealFft(std::size_t n);
  std::size_t size() const { return n_; }
  std::size_t bins() const { return n_ / 2 + 1; }
  // x holds size() samples; spectrum receives bins() values.
  void forward(const std::vector<double>& x, std::vector<std::complex<double>>& spectrum);
  // Inverse of forward, scaled by 1/n: spectrum holds bins() values, x receives size() samples.
  void inverse(const std::vector<std::complex<double>>& spectrum, std::vector<double>& x);

 private:
  std::size_t n_;
  Eigen::FFT<double> fft_;
};

// Frame t takes frame_length samples from t·hop (frame_count uses it); the first
// window.size() of them are multiplied by the window, and the frame is cut or
// zero-padded to window.size(), the FFT size.
struct StftLayout {
  std::vector<double> window;
  std::size_t frame_length = 0;
  std::size_t hop = 0;
  LastFrame last = LastFrame::inside;
};
// Calls visit(t, spectrum) for each frame t in order, spectrum holding bins 0 … n/2
// (one buffer, reused: no spectrogram is stored).
using SpectrumVisitor = std::function<void(std::size_t frame, const std::vector<std::complex<double>>& spectrum)>;
void stft(const std::vector<double>& signal, const StftLayout& layout, const SpectrumVisitor& visit);
// |X|² per frame and bin 0 … n/2.
Matrix power_spectrogram(const std::vector<double>& signal, const StftLayout& layout);
// |X| per frame and bin 0 … n/2.
Matrix magnitude_spectrogram(const std::vector<double>& signal, const StftLayout& layout);

// HTK mel scale, 2595·log10(1 + f/700), and its inverse.
double hz_to_mel(double hz);
double mel_to_hz(double mel);

// A triangular filter: weights[k] applies to FFT bin first_bin + k.
struct MelFilter {
  std::size_t first_bin = 0;
  std::vector<double> weights;
  // Σ_k power[first_bin + k]·weights[k] (inline: it runs per band and frame).
  double energy(const std::vector<double>& power) const {
    double sum = 0;
    for (std::size_t k = 0; k < weights.size(); ++k) sum += power[first_bin + k] * weights[k];
    return sum;
  }
};
using MelFilterbank = std::vector<MelFilter>;

// The two references place their triangles differently, so each has its own builder.
// mel_cepstral_distance get_w_n_m: n_mels triangles whose corners are the FFT bins
// floor((n_fft + 1)·f/rate) of n_mels + 2 mel-spaced frequencies in [f_min, f_max].
MelFilterbank mel_filterbank_fft_bins(int sample_rate, std::size_t n_fft, std::size_t n_mels, double f_min,
                                      double f_max);
// torchaudio melscale_fbanks(mel_scale="htk", norm=None), in float32 as torch computes it:
// triangles over each bin's exact frequency.
MelFilterbank mel_filterbank_torchaudio(int sample_rate, std::size_t n_fft, std::size_t n_mels, double f_min,
                                        double f_max);
// Each filter's energy.
std::vector<double> filterbank_energies(const MelFilterbank& bank, const std::vector<double>& power);

// mel_cepstral_distance get_MC_X_ik: c[i − 1] = Σ_{n=1..M} x[n − 1]·cos(i(n − ½)π/M)
// for i = 1 … M, an unscaled DCT-II without c0.
class MelCepstrum {
 public:
  explicit MelCepstrum(std::size_t bands);
  std::vector<double> operator()(const std::vector<double>& log_mel) const;

 private:
  std::size_t bands_;
  std::vector<double> cosines_;  // row i − 1, column n − 1
};

// c[max_lag + lag] = Σ_i a[i]·b[i + lag] for lag in [−max_lag, max_lag], through real
// FFTs of the next power of two ≥ |a| + |b| samples (so lags do not wrap around).
std::vector<double> cross_correlation(const std::vector<double>& a, const std::vector<double>& b,
                                      std::size_t max_lag);

}  // namespace aeval::features
