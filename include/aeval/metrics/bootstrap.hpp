#pragma once
// Percentile bootstrap confidence intervals, reproducible from a seed on any
// platform (mt19937_64 and a fixed index mapping; no implementation-defined
// distributions).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
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

// A statistic of one resample: of its indices in the order drawn, or, where it does not depend on that order (a
// function of sums of integers), of how often each index was drawn: a pass over the counts in index order instead
// of a gather of rows from random places, the same number.
using IndexStatistic = std::function<double(const std::vector<std::size_t>& indices)>;
using CountStatistic = std::function<double(const std::vector<std::uint32_t>& counts)>;
struct ResampledStatistic {
  ResampledStatistic(IndexStatistic f) : of_indices(std::move(f)) {}
  ResampledStatistic(CountStatistic f) : of_counts(std::move(f)) {}
  IndexStatistic of_indices;  // one of the two is set
  CountStatistic of_counts;
};

// The percentile interval of each statistic over resamples of the indices 0..n-1, every statistic on the same
// resamples (no estimate: the caller has the statistic of the whole). The resamples are drawn in order from one
// generator, and `threads` threads compute the statistics, each on the resample it drew last, while another draws:
// the intervals are the same whatever `threads` is, and each the same as bootstrap_ci's for that statistic alone.
// The statistics must be safe to call from several threads at once.
std::vector<ConfidenceInterval> bootstrap_indices(std::size_t n, const std::vector<ResampledStatistic>& statistics,
                                                  int resamples = 1000, double confidence = 0.95,
                                                  std::uint64_t seed = 0, unsigned threads = 1);

// Throws aeval::Error (data) for an empty sample.
ConfidenceInterval bootstrap_ci(const std::vector<double>& values, const Statistic& statistic = mean,
                                int resamples = 1000, double confidence = 0.95, std::uint64_t seed = 0);

}  // namespace aeval::metrics
