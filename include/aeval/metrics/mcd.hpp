#pragma once
// Mel-cepstral distance as mel_cepstral_distance 0.0.3 (compare_audio_files)
// computes it: Hann-windowed STFT (32 ms frames, 8 ms hop), 20 HTK-mel bands
// in Bel (log10 energy + machine epsilon), a DCT without c0, frames aligned by
// fastdtw (radius 10; exact DTW when the radius is unset) or zero padding,
// MCD = mean over aligned frames of ‖MC[s:D] − MC'[s:D]‖₂ (s = 1, D = 16),
// with the length penalty 2 − (len_A + len_B)/len_aligned.
#include <optional>
#include <string>
#include <vector>

namespace aeval::metrics {

struct McdOptions {
  double n_fft_ms = 32, win_len_ms = 32, hop_len_ms = 8;
  bool hamming = false;  // numpy's hamming instead of hanning window
  int fmin = 0;
  std::optional<int> fmax;  // sample_rate / 2 when unset
  int M = 20, s = 1, D = 16;
  std::string aligning = "dtw";      // dtw | pad
  std::string align_target = "mel";  // spec | mel | mfcc
  std::optional<int> dtw_radius = 10;  // unset: exact DTW
  bool norm_audio = true;              // divide by max |x|
  // The library reports the plain Euclidean distance of Bel-domain cepstra;
  // papers usually quote dB: 10·√2/ln 10 on natural-log cepstra, which is 10·√2
  // on these log10 cepstra. Off by default (reference-exact).
  bool decibels = false;
};

struct McdResult {
  double mcd = 0;
  double penalty = 0;
};

// Both signals at `sample_rate` (resample beforehand if they differ).
// Throws aeval::Error (data) for empty or too-short signals (no full frame).
McdResult mel_cepstral_distance(const std::vector<double>& a, const std::vector<double>& b, int sample_rate,
                                const McdOptions& options = {});

// slaypni/fastdtw 0.3.4 fastdtw(x, y, radius, dist=euclidean): the warping
// path as (i, j) pairs. Rows of x and y are frames; ties go to the first of
// (i−1, j), (i, j−1), (i−1, j−1), as the reference's min() does.
std::vector<std::pair<std::size_t, std::size_t>> fastdtw_path(const std::vector<std::vector<double>>& x,
                                                               const std::vector<std::vector<double>>& y, int radius);

}  // namespace aeval::metrics
