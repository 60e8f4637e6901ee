#include "aeval/metrics/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <mutex>
#include <random>
#include <thread>

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

std::vector<ConfidenceInterval> bootstrap_indices(std::size_t n, const std::vector<ResampledStatistic>& statistics,
                                                  int resamples, double confidence, std::uint64_t seed,
                                                  unsigned threads) {
  if (n == 0) throw Error(ErrorCategory::data, "bootstrap of an empty sample");
  if (resamples < 1) throw Error(ErrorCategory::config, "bootstrap needs at least one resample");
  if (!(confidence > 0 && confidence < 1)) throw Error(ErrorCategory::config, "bootstrap confidence must be in (0, 1)");
  const auto count = static_cast<std::size_t>(resamples);
  std::vector<std::vector<double>> values(statistics.size(), std::vector<double>(count));  // [statistic][resample]
  const bool by_indices = std::any_of(statistics.begin(), statistics.end(), [](const auto& s) { return bool(s.of_indices); });
  const bool by_counts = std::any_of(statistics.begin(), statistics.end(), [](const auto& s) { return bool(s.of_counts); });
  // One generator draws the resamples in order, each thread taking the next one to draw and then computing the
  // statistics on it while another draws. (A generator moved on to a later resample costs what drawing there does:
  // threads that each skipped to their own block of resamples drew the stream half as much again on two cores, more
  // on more.)
  std::mt19937_64 rng(seed);
  // Multiply-shift maps a 64-bit draw to [0, n) the same way everywhere.
  const auto draw = [&] { return static_cast<std::size_t>((rng() * static_cast<Wide>(n)) >> 64); };
  std::mutex drawing;
  std::size_t next = 0;  // the resample drawn next
  const auto work = [&] {
    std::vector<std::size_t> indices(by_indices ? n : 0);
    std::vector<std::uint32_t> counts(by_counts ? n : 0);
    for (;;) {
      std::size_t r = 0;
      {
        const std::lock_guard lock(drawing);
        if (next == count) return;
        r = next++;
        std::fill(counts.begin(), counts.end(), 0u);
        if (!by_indices) {
          for (std::size_t j = 0; j < n; ++j) ++counts[draw()];
        } else {
          for (std::size_t& i : indices) i = draw();
          if (by_counts)
            for (std::size_t i : indices) ++counts[i];
        }
      }
      for (std::size_t k = 0; k < statistics.size(); ++k)
        values[k][r] = statistics[k].of_counts ? statistics[k].of_counts(counts) : statistics[k].of_indices(indices);
    }
  };
  const std::size_t workers_count = std::max<std::size_t>(1, std::min<std::size_t>(threads, count));
  std::vector<std::thread> workers;
  std::vector<std::exception_ptr> errors(workers_count);
  const auto guarded = [&](std::size_t w) {
    try {
      work();
    } catch (...) {
      errors[w] = std::current_exception();
      const std::lock_guard lock(drawing);
      next = count;  // the others stop at their next draw
    }
  };
  for (std::size_t w = 1; w < workers_count; ++w) workers.emplace_back(guarded, w);
  guarded(0);
  for (auto& w : workers) w.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  std::vector<ConfidenceInterval> intervals;
  const double tail = (1 - confidence) / 2 * 100;
  for (auto& v : values) {
    ConfidenceInterval ci;
    ci.low = percentile(v, tail);
    ci.high = percentile(std::move(v), 100 - tail);
    ci.confidence = confidence;
    ci.resamples = resamples;
    ci.seed = seed;
    intervals.push_back(ci);
  }
  return intervals;
}

ConfidenceInterval bootstrap_ci(const std::vector<double>& values, const Statistic& statistic, int resamples,
                                double confidence, std::uint64_t seed) {
  ConfidenceInterval ci = bootstrap_indices(
      values.size(),
      {IndexStatistic([&](const std::vector<std::size_t>& indices) {
        std::vector<double> sample(indices.size());
        for (std::size_t k = 0; k < indices.size(); ++k) sample[k] = values[indices[k]];
        return statistic(sample);
      })},
      resamples, confidence, seed)[0];
  ci.estimate = statistic(values);
  return ci;
}

}  // namespace aeval::metrics
