// pystoi 0.4.1 stoi.py and utils.py (thirdoct, stft, remove_silent_frames,
// _overlap_and_add, row_col_normalize without its EPS·randn dither, which
// moves results by < 4e-16).
#include "aeval/metrics/stoi.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>

#include "aeval/error.hpp"
#include "audio/features.hpp"

namespace aeval::metrics {

namespace {

constexpr int kRate = 10000;
constexpr std::size_t kFrame = 256, kFft = 512, kBins = kFft / 2 + 1, kBands = 15, kSegment = 30;
constexpr double kMinFrequency = 150, kBeta = -15, kDynamicRange = 40;

using features::LastFrame;

const std::vector<double>& analysis_window() {
  static const std::vector<double> w = features::matlab_hanning(kFrame);
  return w;
}

// 1/3-octave band matrix as [first bin, last bin) per band.
std::array<std::pair<std::size_t, std::size_t>, kBands> third_octave_bands() {
  std::array<double, kBins> f;
  for (std::size_t i = 0; i < kBins; ++i) f[i] = double(kRate) * double(i) / double(kFft);  // linspace(0, fs, nfft+1)
  const auto nearest = [&](double target) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < kBins; ++i)
      if ((f[i] - target) * (f[i] - target) < (f[best] - target) * (f[best] - target)) best = i;
    return best;
  };
  std::array<std::pair<std::size_t, std::size_t>, kBands> bands;
  for (std::size_t k = 0; k < kBands; ++k) {
    const double low = kMinFrequency * std::pow(2.0, (2 * double(k) - 1) / 6);
    const double high = kMinFrequency * std::pow(2.0, (2 * double(k) + 1) / 6);
    bands[k] = {nearest(low), nearest(high)};
  }
  return bands;
}

// Band envelopes: sqrt(OBM · |STFT|²), one row per band, one column per frame.
// pystoi's stft: hop half a frame, each frame zero-padded to the FFT size, and
// like every pystoi framing the frame ending on the last sample is left out.
std::vector<std::array<double, kBands>> band_envelopes(const std::vector<double>& x) {
  static const auto bands = third_octave_bands();
  static const features::StftLayout layout{features::padded_window(analysis_window(), kFft, 0), kFrame, kFrame / 2,
                                           LastFrame::before_end};
  std::vector<std::array<double, kBands>> out;
  for (const auto& power : features::power_spectrogram(x, layout)) {
    std::array<double, kBands> row{};
    for (std::size_t b = 0; b < kBands; ++b) {
      double energy = 0;
      for (std::size_t i = bands[b].first; i < bands[b].second; ++i) energy += power[i];
      row[b] = std::sqrt(energy);
    }
    out.push_back(row);
  }
  return out;
}

double norm(const double* v, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += v[i] * v[i];
  return std::sqrt(s);
}

// One segment: kBands rows × kSegment frames, row-major.
using Segment = std::array<double, kBands * kSegment>;

Segment segment_at(const std::vector<std::array<double, kBands>>& env, std::size_t end) {
  Segment s;
  for (std::size_t b = 0; b < kBands; ++b)
    for (std::size_t t = 0; t < kSegment; ++t) s[b * kSegment + t] = env[end - kSegment + t][b];
  return s;
}

// Row-normalize (zero mean, unit norm per band), then column-normalize (per frame).
Segment row_col_normalize(Segment s) {
  for (std::size_t b = 0; b < kBands; ++b) {
    double* row = &s[b * kSegment];
    double mean = 0;
    for (std::size_t t = 0; t < kSegment; ++t) mean += row[t];
    mean /= kSegment;
    for (std::size_t t = 0; t < kSegment; ++t) row[t] -= mean;
    const double n = norm(row, kSegment);
    for (std::size_t t = 0; t < kSegment; ++t) row[t] = n > 0 ? row[t] / n : 0.0;
  }
  for (std::size_t t = 0; t < kSegment; ++t) {
    double mean = 0, energy = 0;
    for (std::size_t b = 0; b < kBands; ++b) mean += s[b * kSegment + t];
    mean /= kBands;
    for (std::size_t b = 0; b < kBands; ++b) {
      s[b * kSegment + t] -= mean;
      energy += s[b * kSegment + t] * s[b * kSegment + t];
    }
    const double n = std::sqrt(energy);
    for (std::size_t b = 0; b < kBands; ++b) s[b * kSegment + t] = n > 0 ? s[b * kSegment + t] / n : 0.0;
  }
  return s;
}

}  // namespace

StoiResult stoi(const std::vector<double>& clean_in, const std::vector<double>& degraded_in, int sample_rate,
                bool extended) {
  if (clean_in.size() != degraded_in.size())
    throw Error(ErrorCategory::data, "STOI: clean and degraded lengths differ (" + std::to_string(clean_in.size()) +
                                         " vs " + std::to_string(degraded_in.size()) + " samples)");
  const std::vector<double> clean = sample_rate == kRate ? clean_in : resample_octave(clean_in, kRate, sample_rate);
  const std::vector<double> degraded =
      sample_rate == kRate ? degraded_in : resample_octave(degraded_in, kRate, sample_rate);
  if (clean.size() <= kFrame)
    throw Error(ErrorCategory::data, "STOI: the signals are shorter than one 25.6 ms analysis frame");
  bool silent = true;
  for (double v : clean) silent = silent && v == 0;
  if (silent) throw Error(ErrorCategory::data, "STOI: the clean signal is silent (all samples are zero)");

  // Silent-frame removal, decided on the clean signal alone.
  const std::size_t hop = kFrame / 2;
  features::Matrix clean_frames = features::windowed_frames(clean, analysis_window(), hop, LastFrame::before_end);
  features::Matrix degraded_frames = features::windowed_frames(degraded, analysis_window(), hop, LastFrame::before_end);
  std::vector<double> energies;
  for (const auto& f : clean_frames) energies.push_back(20 * std::log10(norm(f.data(), kFrame) + DBL_EPSILON));
  const double loudest = *std::max_element(energies.begin(), energies.end());
  features::Matrix kept_clean, kept_degraded;
  for (std::size_t i = 0; i < energies.size(); ++i) {
    if (loudest - kDynamicRange - energies[i] < 0) {
      kept_clean.push_back(std::move(clean_frames[i]));
      kept_degraded.push_back(std::move(degraded_frames[i]));
    }
  }
  const auto x = band_envelopes(features::overlap_add(kept_clean, hop));
  const auto y = band_envelopes(features::overlap_add(kept_degraded, hop));
  if (x.size() < kSegment) return {1e-5, true};

  const std::size_t segments = x.size() - kSegment + 1;
  double total = 0;
  for (std::size_t m = kSegment; m <= x.size(); ++m) {
    Segment xs = segment_at(x, m), ys = segment_at(y, m);
    if (extended) {
      xs = row_col_normalize(xs);
      ys = row_col_normalize(ys);
      double sum = 0;
      for (std::size_t i = 0; i < xs.size(); ++i) sum += xs[i] * ys[i] / double(kSegment);
      total += sum;
      continue;
    }
    const double clip = std::pow(10.0, -kBeta / 20);
    for (std::size_t b = 0; b < kBands; ++b) {
      double* xr = &xs[b * kSegment];
      double* yr = &ys[b * kSegment];
      const double scale = norm(xr, kSegment) / (norm(yr, kSegment) + DBL_EPSILON);
      for (std::size_t t = 0; t < kSegment; ++t) yr[t] = std::min(yr[t] * scale, xr[t] * (1 + clip));
      double mean_x = 0, mean_y = 0;
      for (std::size_t t = 0; t < kSegment; ++t) mean_x += xr[t], mean_y += yr[t];
      mean_x /= kSegment;
      mean_y /= kSegment;
      for (std::size_t t = 0; t < kSegment; ++t) xr[t] -= mean_x, yr[t] -= mean_y;
      const double nx = norm(xr, kSegment) + DBL_EPSILON, ny = norm(yr, kSegment) + DBL_EPSILON;
      for (std::size_t t = 0; t < kSegment; ++t) total += (yr[t] / ny) * (xr[t] / nx);
    }
  }
  return {extended ? total / double(segments) : total / double(segments * kBands), false};
}

}  // namespace aeval::metrics
