// resampy 0.4.2 (github.com/bmcfee/resampy, as Debian's python3-resampy ships it):
// resampy.resample with the pre-computed 'kaiser_best' filter and its interpolation loop
// (interpn.py, _resample_loop), operation for operation in float64, so the output matches to
// the last bit or two. (resampy ≤ 0.2 had another kaiser_best: 64 zero crossings, 2⁹ samples
// per crossing, β = 14.7697, roll-off 0.9476; 0.3.0 replaced it with the one below.)
// The project builds without FMA contraction, as numba evaluates: a·b + c rounds twice.
#include "audio/resampy_resample.hpp"

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
    const double ratio = double(j) / n;  // (index − α)/α of the full window, α = n
    const double taper = std::cyl_bessel_i(0.0, kBeta * std::sqrt(1 - std::pow(ratio, 2.0))) / i0_beta;
    window[std::size_t(j)] = taper * sinc;
  }
  return window;
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

  static const std::vector<double> kHalfWindow = kaiser_best_half_window();
  std::vector<double> window = kHalfWindow;
  if (sample_ratio < 1)
    for (double& w : window) w = sample_ratio * w;
  std::vector<double> delta(window.size(), 0.0);  // np.diff(window, append=window[-1])
  for (std::size_t i = 0; i + 1 < window.size(); ++i) delta[i] = window[i + 1] - window[i];

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
    double acc = 0.0;
    const long i_max = std::min(n + 1, (nwin - offset) / index_step);
    for (long i = 0; i < i_max; ++i) {
      const long k = offset + i * index_step;
      const double weight = window[std::size_t(k)] + eta * delta[std::size_t(k)];
      acc += weight * x[std::size_t(n - i)];
    }
    frac = scale - frac;
    index_frac = frac * kTablePerZero;
    offset = static_cast<long>(index_frac);
    eta = index_frac - double(offset);
    const long k_max = std::min(n_orig - n - 1, (nwin - offset) / index_step);
    for (long k = 0; k < k_max; ++k) {
      const long j = offset + k * index_step;
      const double weight = window[std::size_t(j)] + eta * delta[std::size_t(j)];
      acc += weight * x[std::size_t(n + k + 1)];
    }
    y[std::size_t(t)] = acc;
  }
  return y;
}

}  // namespace aeval
