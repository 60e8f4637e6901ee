// pystoi 0.4.1 utils.resample_oct / _resample_window_oct and scipy 1.10
// signal.resample_poly + upfirdn (constant zero padding).
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <numbers>
#include <utility>

#include "aeval/error.hpp"
#include "aeval/metrics/stoi.hpp"
#include "util/numpy_sum.hpp"

namespace aeval::metrics {

namespace {

double sinc(double x) {
  if (x == 0) return 1.0;
  const double y = std::numbers::pi * x;
  return std::sin(y) / y;
}

// numpy.kaiser(m, beta)
std::vector<double> kaiser(std::size_t m, double beta) {
  std::vector<double> w(m);
  const double alpha = double(m - 1) / 2.0;
  const double denominator = std::cyl_bessel_i(0.0, beta);
  for (std::size_t n = 0; n < m; ++n) {
    const double r = (double(n) - alpha) / alpha;
    w[n] = std::cyl_bessel_i(0.0, beta * std::sqrt(1.0 - r * r)) / denominator;
  }
  return w;
}

// Octave's resample() anti-aliasing filter for a p/q rate change.
std::vector<double> octave_window(long p, long q) {
  const long g = std::gcd(p, q);
  const double pr = double(p / g), qr = double(q / g);
  const double rejection_db = 60.0;  // -20 * log10_rejection (-3)
  const double cutoff = 1.0 / (2 * std::max(pr, qr));
  const double roll_off = cutoff / 10;
  const auto half = static_cast<long>(std::ceil((rejection_db - 8) / (28.714 * roll_off)));
  const double beta = 0.1102 * (rejection_db - 8.7);  // rejection > 50 dB
  const std::vector<double> window = kaiser(std::size_t(2 * half + 1), beta);
  std::vector<double> h(window.size());
  for (long t = -half; t <= half; ++t)
    h[std::size_t(t + half)] = window[std::size_t(t + half)] * (2 * pr * cutoff * sinc(2 * cutoff * double(t)));
  return h;
}

// Length of upfirdn's output, as scipy's _output_len.
long upfirdn_length(long filter_length, long input_length, long up, long down) {
  const long padded = input_length + (filter_length + (-filter_length % up + up) % up) / up - 1;
  const long total = padded * up;
  return total / down + (total % down > 0 ? 1 : 0);
}

// The window of a rate pair, computed once per process. Computing it under a
// lock also matters: std::cyl_bessel_i calls lgamma(), which writes the
// global `signgam`, so two threads computing windows at once would race.
std::vector<double> cached_octave_window(long p, long q) {
  static std::mutex mutex;
  static std::map<std::pair<long, long>, std::vector<double>> windows;
  const std::lock_guard lock(mutex);
  auto it = windows.find({p, q});
  if (it == windows.end()) it = windows.emplace(std::pair{p, q}, octave_window(p, q)).first;
  return it->second;
}

}  // namespace

std::vector<double> resample_octave(const std::vector<double>& x, int to_rate, int from_rate) {
  if (to_rate <= 0 || from_rate <= 0) throw Error(ErrorCategory::audio, "resample: rates must be positive");
  std::vector<double> h = cached_octave_window(to_rate, from_rate);
  const double sum = aeval::detail::numpy_pairwise_sum(h.data(), h.size());
  for (double& v : h) v /= sum;

  const long g = std::gcd(long(to_rate), long(from_rate));
  const long up = to_rate / g, down = from_rate / g;
  if (up == 1 && down == 1) return x;
  const long n_in = long(x.size());
  const long n_out = (n_in * up) / down + ((n_in * up) % down ? 1 : 0);
  for (double& v : h) v *= double(up);
  const long half_len = (long(h.size()) - 1) / 2;
  const long pre_pad = down - half_len % down;
  long post_pad = 0;
  const long pre_remove = (half_len + pre_pad) / down;
  while (upfirdn_length(long(h.size()) + pre_pad + post_pad, n_in, up, down) < n_out + pre_remove) ++post_pad;
  std::vector<double> filter(std::size_t(pre_pad), 0.0);
  filter.insert(filter.end(), h.begin(), h.end());
  filter.resize(filter.size() + std::size_t(post_pad), 0.0);

  // upfirdn: y[k] = Σ_j filter[j] · x_up[k·down − j], x_up = x with up−1 zeros between samples.
  // Only taps j ≡ k·down (mod up) meet an input sample, so each output is one
  // dot product of a phase's taps (stored reversed) with a contiguous run of x.
  std::vector<Eigen::VectorXd> phases(static_cast<std::size_t>(up));
  for (long r = 0; r < up; ++r) {
    std::vector<double> taps;
    for (long j = r; j < long(filter.size()); j += up) taps.push_back(filter[std::size_t(j)]);
    phases[std::size_t(r)] = Eigen::Map<const Eigen::VectorXd>(taps.data(), Eigen::Index(taps.size())).reverse();
  }
  const Eigen::Map<const Eigen::VectorXd> input(x.data(), Eigen::Index(n_in));
  std::vector<double> y(std::size_t(n_out), 0.0);
  for (long k = pre_remove; k < pre_remove + n_out; ++k) {
    const long n = k * down, r = n % up, newest = (n - r) / up;  // tap r meets x[newest]
    const Eigen::VectorXd& h = phases[std::size_t(r)];
    const long size = long(h.size());
    // reversed tap q meets x[newest − size + 1 + q]; keep 0 ≤ that index < n_in
    const long first = std::max(0L, size - 1 - newest), last = std::min(size - 1, n_in - 1 - newest + size - 1);
    if (first > last) continue;
    y[std::size_t(k - pre_remove)] =
        h.segment(first, last - first + 1).dot(input.segment(newest - size + 1 + first, last - first + 1));
  }
  return y;
}

}  // namespace aeval::metrics
