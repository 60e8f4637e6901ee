#include "aeval/metrics/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "aeval/error.hpp"
#include "util/numpy_sum.hpp"

namespace aeval::metrics {

namespace {
__extension__ typedef unsigned __int128 Wide;
}  // namespace

double mean(const std::vector<double>& values) {
  if (values.empty()) throw Error(ErrorCategory::data, "mean of an empty sample");
  return aeval::detail::numpy_mean(values.data(), values.size());
}

double percentile(std::vector<double> values, double q) {
  if (values.empty()) throw Error(ErrorCategory::data, "percentile of an empty sample");
  std::sort(values.begin(), values.end());
  const double position = q / 100.0 * double(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - double(below);
  return values[below] + (values[above] - values[below]) * fraction;
}

ConfidenceInterval bootstrap_ci(const std::vector<double>& values, const Statistic& statistic, int resamples,
                                double confidence, std::uint64_t seed) {
  if (values.empty()) throw Error(ErrorCategory::data, "bootstrap of an empty sample");
  if (resamples < 1) throw Error(ErrorCategory::config, "bootstrap needs at least one resample");
  if (!(confidence > 0 && confidence < 1)) throw Error(ErrorCategory::config, "bootstrap confidence must be in (0, 1)");
  std::mt19937_64 rng(seed);
  const auto n = static_cast<Wide>(values.size());
  std::vector<double> sample(values.size()), statistics;
  statistics.reserve(static_cast<std::size_t>(resamples));
  for (int r = 0; r < resamples; ++r) {
    // Multiply-shift maps a 64-bit draw to [0, n) the same way everywhere.
    for (double& v : sample) v = values[static_cast<std::size_t>((rng() * n) >> 64)];
    statistics.push_back(statistic(sample));
  }
  ConfidenceInterval ci;
  ci.estimate = statistic(values);
  const double tail = (1 - confidence) / 2 * 100;
  ci.low = percentile(statistics, tail);
  ci.high = percentile(statistics, 100 - tail);
  ci.confidence = confidence;
  ci.resamples = resamples;
  ci.seed = seed;
  return ci;
}

}  // namespace aeval::metrics
