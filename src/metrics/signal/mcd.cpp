// mel_cepstral_distance 0.0.3 (jasminsternkopf, 300b921): api.compare_audio_files
// with computation.get_X_km / get_w_n_m / get_X_kn / get_MC_X_ik / get_MCD_k and
// the pad / fastdtw alignments of alignment.py.
#include "aeval/metrics/mcd.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "aeval/error.hpp"
#include "audio/features.hpp"
#include "util/numpy_sum.hpp"

namespace aeval::metrics {

namespace {

using Frames = features::Matrix;  // [frame][feature]

int ms_to_samples(double ms, int rate) { return int(ms / 1000 * rate); }

// get_X_km: |STFT| per frame, numpy's symmetric window; frames start at
// k = 0, hop, ... < len − win and are cut or zero-padded to n_fft.
Frames magnitudes(const std::vector<double>& signal, int n_fft, int win, int hop, bool hamming) {
  const std::size_t n = std::size_t(n_fft);
  const features::StftLayout layout{
      hamming ? features::hamming_window(n) : features::hann_window(n, features::Symmetry::symmetric),
      std::size_t(win), std::size_t(hop), features::LastFrame::before_end};
  return features::magnitude_spectrogram(signal, layout);
}

// get_X_kn: log10(|X|² · Wᵀ + eps) per frame (Bel). |X| is squared, not
// recomputed as re² + im², to round as the reference does.
Frames mel_bel(const Frames& mags, const features::MelFilterbank& bank) {
  Frames out;
  std::vector<double> power;
  for (const auto& mag : mags) {
    power.resize(mag.size());
    for (std::size_t b = 0; b < mag.size(); ++b) power[b] = mag[b] * mag[b];
    std::vector<double> bands = features::filterbank_energies(bank, power);
    for (double& e : bands) e = std::log10(e + DBL_EPSILON);
    out.push_back(std::move(bands));
  }
  return out;
}

// get_MC_X_ik: cepstrum rows i = 1..M (no c0), per frame.
Frames cepstra(const Frames& mel, int M) {
  const features::MelCepstrum cepstrum{std::size_t(M)};
  Frames out;
  for (const auto& frame : mel) out.push_back(cepstrum(frame));
  return out;
}

Frames select_features(const Frames& frames, int from, int to) {
  Frames out;
  for (const auto& f : frames) out.emplace_back(f.begin() + from, f.begin() + to);
  return out;
}

// Aligns a and b in place (DTW path or zero padding); returns the penalty.
double align(Frames& a, Frames& b, const Frames& features_a, const Frames& features_b, const McdOptions& o) {
  const double len_a = double(a.size()), len_b = double(b.size());
  if (o.aligning == "dtw") {
    const int radius = o.dtw_radius ? *o.dtw_radius : int(std::max(a.size(), b.size()));
    const auto path = fastdtw_path(features_a, features_b, radius);
    Frames stretched_a, stretched_b;
    for (const auto& [i, j] : path) stretched_a.push_back(a[i]), stretched_b.push_back(b[j]);
    a.swap(stretched_a);
    b.swap(stretched_b);
  } else {
    const std::size_t n = std::max(a.size(), b.size());
    a.resize(n, std::vector<double>(a.empty() ? 0 : a[0].size(), 0.0));
    b.resize(n, std::vector<double>(b.empty() ? 0 : b[0].size(), 0.0));
  }
  return 2 - (len_a + len_b) / double(a.size());
}

}  // namespace

McdResult mel_cepstral_distance(const std::vector<double>& a_in, const std::vector<double>& b_in, int rate,
                                const McdOptions& o) {
  if (o.aligning != "dtw" && o.aligning != "pad") throw Error(ErrorCategory::config, "MCD: aligning must be dtw or pad");
  if (o.align_target != "spec" && o.align_target != "mel" && o.align_target != "mfcc")
    throw Error(ErrorCategory::config, "MCD: align_target must be spec, mel or mfcc");
  if (!(0 <= o.s && o.s < o.D && o.D <= o.M)) throw Error(ErrorCategory::config, "MCD: need 0 <= s < D <= M");
  if (o.dtw_radius && *o.dtw_radius < 1) throw Error(ErrorCategory::config, "MCD: dtw_radius must be at least 1");
  if (a_in.empty() || b_in.empty()) throw Error(ErrorCategory::data, "MCD: empty audio");
  const auto normalized = [&](const std::vector<double>& x) {
    if (!o.norm_audio) return x;
    double peak = 0;
    for (double v : x) peak = std::max(peak, std::fabs(v));
    if (peak == 0) throw Error(ErrorCategory::data, "MCD: silent audio cannot be normalised");
    std::vector<double> out(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) out[i] = x[i] / peak;
    return out;
  };
  const int n_fft = ms_to_samples(o.n_fft_ms, rate), win = ms_to_samples(o.win_len_ms, rate),
            hop = ms_to_samples(o.hop_len_ms, rate);
  if (n_fft < 1 || win < 1 || hop < 1) throw Error(ErrorCategory::config, "MCD: frame sizes round to zero samples");
  Frames mag_a = magnitudes(normalized(a_in), n_fft, win, hop, o.hamming);
  Frames mag_b = magnitudes(normalized(b_in), n_fft, win, hop, o.hamming);
  if (mag_a.empty() || mag_b.empty())
    throw Error(ErrorCategory::data, "MCD: a signal is shorter than one " + std::to_string(win) + "-sample frame");

  const double fmax = o.fmax ? *o.fmax : double(rate / 2);
  const auto bank = features::mel_filterbank_fft_bins(rate, std::size_t(n_fft), std::size_t(o.M), o.fmin, fmax);
  McdResult r;
  Frames mc_a, mc_b;
  if (o.align_target == "spec") {
    r.penalty = align(mag_a, mag_b, mag_a, mag_b, o);
    mc_a = cepstra(mel_bel(mag_a, bank), o.M);
    mc_b = cepstra(mel_bel(mag_b, bank), o.M);
  } else if (o.align_target == "mel") {
    Frames mel_a = mel_bel(mag_a, bank), mel_b = mel_bel(mag_b, bank);
    r.penalty = align(mel_a, mel_b, mel_a, mel_b, o);
    mc_a = cepstra(mel_a, o.M);
    mc_b = cepstra(mel_b, o.M);
  } else {
    mc_a = cepstra(mel_bel(mag_a, bank), o.M);
    mc_b = cepstra(mel_bel(mag_b, bank), o.M);
    r.penalty = align(mc_a, mc_b, select_features(mc_a, o.s, o.D), select_features(mc_b, o.s, o.D), o);
  }
  std::vector<double> per_frame;
  const double scale = o.decibels ? 10 * std::sqrt(2.0) : 1.0;
  for (std::size_t k = 0; k < mc_a.size(); ++k) {
    double sum = 0;
    for (int i = o.s; i < o.D; ++i) sum += (mc_a[k][std::size_t(i)] - mc_b[k][std::size_t(i)]) * (mc_a[k][std::size_t(i)] - mc_b[k][std::size_t(i)]);
    per_frame.push_back(scale * std::sqrt(sum));
  }
  r.mcd = aeval::detail::numpy_mean(per_frame.data(), per_frame.size());
  return r;
}

}  // namespace aeval::metrics
