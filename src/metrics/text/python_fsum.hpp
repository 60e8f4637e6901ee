#pragma once
// math.fsum: the correctly rounded sum of doubles (Shewchuk's algorithm, as
// CPython's mathmodule.c implements it for finite inputs).
#include <cmath>
#include <vector>

namespace aeval::metrics::detail {

inline double python_fsum(const std::vector<double>& values) {
  std::vector<double> partials;
  double special = 0;
  for (double x : values) {
    if (!std::isfinite(x)) {
      special += x;
      continue;
    }
    std::size_t i = 0;
    for (double y : partials) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      const double hi = x + y;
      const double lo = y - (hi - x);
      if (lo != 0.0) partials[i++] = lo;
      x = hi;
    }
    partials.resize(i);
    partials.push_back(x);
  }
  if (special != 0 || std::isnan(special)) return special;
  double hi = 0.0;
  std::size_t n = partials.size();
  if (n > 0) {
    hi = partials[--n];
    double lo = 0;
    while (n > 0) {
      const double x = hi;
      const double y = partials[--n];
      hi = x + y;
      const double yr = hi - x;
      lo = y - yr;
      if (lo != 0.0) break;
    }
    // Round half-even correctly when the remaining partials push the sum.
    if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
      const double y = lo * 2.0;
      const double x = hi + y;
      if (y == x - hi) hi = x;
    }
  }
  return hi;
}

}  // namespace aeval::metrics::detail
