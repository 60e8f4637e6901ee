#pragma once
// The median wall time of repeated calls, in milliseconds: what the benchmarks report.
#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace aeval::bench {

inline double median_ms(const std::function<void()>& work, int repeats = 5) {
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace aeval::bench
