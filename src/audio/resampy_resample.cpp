// resampy 0.4.2 (github.com/bmcfee/resampy, as Debian's python3-resampy ships it):
// resampy.resample with the pre-computed 'kaiser_best' filter and its interpolation loop
// (interpn.py, _resample_loop), operation for operation in float64, so the output matches to
// the last bit or two. (resampy ≤ 0.2 had another kaiser_best: 64 zero crossings, 2⁹ samples
// per crossing, β = 14.7697, roll-off 0.9476; 0.3.0 replaced it with the one below.)
// a·b + c must round twice, as in numba: built without -march, the compiler has no FMA to fuse them.
#include "audio/resampy_resample.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "aeval/error.hpp"

namespace aeval {

namespace {

// kaiser_best.npz of resampy ≥ 0.3: the right wing of a Kaiser-windowed sinc with 50 zero
// crossings, 2¹³ table entries per crossing, β = 12.9846 and a roll-off of 0.917347 of Nyquist.
constexpr int kZeros = 50, kTablePerZero = 8192;
constexpr double kBeta = 12.9846, kRolloff = 0.917347;

// filters.sinc_window: rolloff·np.sinc(rolloff·linspace(0, zeros, n + 1)) times the right half
// of scipy's symmetric kaiser(2n + 1, β), I0(β·√(1 − (j/n)²)) / I0(β).
std::vector<double> kaiser_best_half_window() {
  const int n = kZeros * kTablePerZero;
  const double step = double(kZeros) / n, i0_beta = std::cyl_bessel_i(0.0, kBeta);
  std::vector<double> window(std::size_t(n) + 1);
  for (int j = 0; j <= n; ++j) {
    const double t = j == n ? double(kZeros) : double(j) * step + 0.0;
    const double y = std::numbers::pi * (kRolloff * t == 0 ? 1.0e-20 : kRolloff * t);
    const double sinc = kRolloff * (std::sin(y) / y);
    const double position = double(j) / n;  // (index − α)/α in the full window, α = n
    const double taper = std::cyl_bessel_i(0.0, kBeta * std::sqrt(1 - std::pow(position, 2.0))) / i0_beta;
    window[std::size_t(j)] = taper * sinc;
  }
  return window;
}

// The table as resampy uses it for one ratio: scaled by the ratio when downsampling, with its
// differences (np.diff(window, append=window[-1])) for the linear interpolation. Building it
// costs more than resampling a short clip, and a run resamples many clips at one rate.
struct Table {
  double scale = 0;
  std::vector<double> window, delta;
};

const Table& table_for(double sample_ratio) {
  static const std::vector<double> kHalfWindow = kaiser_best_half_window();
  thread_local Table last;
  const double scale = sample_ratio < 1 ? sample_ratio : 1.0;
  if (last.scale != scale) {
    last.scale = scale;
    last.window = kHalfWindow;
    if (sample_ratio < 1)
      for (double& w : last.window) w = sample_ratio * w;
    last.delta.assign(last.window.size(), 0.0);
    for (std::size_t i = 0; i + 1 < last.window.size(); ++i) last.delta[i] = last.window[i + 1] - last.window[i];
  }
  return last;
}

}  // namespace

std::vector<double> resampy_resample(std::span<const double> x, int sr_orig, int sr_new) {
  if (sr_orig <= 0 || sr_new <= 0)
    throw Error(ErrorCategory::audio, "resampy_resample: invalid rates " + std::to_string(sr_orig) + " → " +
                                          std::to_string(sr_new));
  if (sr_orig == sr_new) return {x.begin(), x.end()};
  const double sample_ratio = double(sr_new) / sr_orig;
  const auto n_out = static_cast<long>(double(x.size()) * double(sr_new) / double(sr_orig));
  if (n_out < 1)
    throw Error(ErrorCategory::audio, "resampy_resample: " + std::to_string(x.size()) +
                                          " samples are too few to resample from " + std::to_string(sr_orig) +
                                          " to " + std::to_string(sr_new) + " Hz");

  const Table& table = table_for(sample_ratio);
  const std::vector<double>& window = table.window;
  const std::vector<double>& delta = table.delta;

  const double scale = std::min(1.0, sample_ratio), time_increment = 1.0 / sample_ratio;
  const long index_step = static_cast<long>(scale * kTablePerZero);
  const long nwin = long(window.size()), n_orig = long(x.size());
  std::vector<double> y(std::size_t(n_out), 0.0);
  for (long t = 0; t < n_out; ++t) {
    const double time_register = double(t) * time_increment;
    const long n = static_cast<long>(time_register);
    double frac = scale * (time_register - double(n));
    double index_frac = frac * kTablePerZero;
    long offset = static_cast<long>(index_frac);
    double eta = index_frac - double(offset);
    double acc = 0.0;  // the left wing outwards from x[n], then the right wing from x[n + 1]
    const long i_max = std::min(n + 1, (nwin - offset) / index_step);
    for (long i = 0; i < i_max; ++i) {
      const long k = offset + i * index_step;
      acc += (window[std::size_t(k)] + eta * delta[std::size_t(k)]) * x[std::size_t(n - i)];
    }
    frac = scale - frac;
    index_frac = frac * kTablePerZero;
    offset = static_cast<long>(index_frac);
    eta = index_frac - double(offset);
    const long k_max = std::min(n_orig - n - 1, (nwin - offset) / index_step);
    for (long k = 0; k < k_max; ++k) {
      const long j = offset + k * index_step;
      acc += (window[std::size_t(j)] + eta * delta[std::size_t(j)]) * x[std::size_t(n + k + 1)];
    }
    y[std::size_t(t)] = acc;
  }
  return y;
}

}  // namespace aeval
