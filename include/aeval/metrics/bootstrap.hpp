#pragma once
// Percentile bootstrap confidence intervals, reproducible from a seed on any
// platform (mt19937_64 and a fixed index mapping; no implementation-defined
// distributions).
#include <cstdint>
#include <functional>
#include <vector>

namespace aeval::metrics {

struct ConfidenceInterval {
  double estimate = 0;  // the statistic on the full sample
  double low = 0, high = 0;
  double confidence = 0.95;
  int resamples = 0;
  std::uint64_t seed = 0;
};

using Statistic = std::function<double(const std::vector<double>&)>;

double mean(const std::vector<double>& values);
// numpy.percentile with linear interpolation, q in [0, 100].
double percentile(std::vector<double> values, double q);

// Throws aeval::Error (data) for an empty sample.
ConfidenceInterval bootstrap_ci(const std::vector<double>& values, const Statistic& statistic = mean,
                                int resamples = 1000, double confidence = 0.95, std::uint64_t seed = 0);

}  // namespace aeval::metrics
