#include "metrics/stats/special_functions.hpp"

#include <cmath>
#include <limits>

namespace aeval::metrics::detail {

namespace {

// ln Γ(x) without std::lgamma's write to the global `signgam` (a data race
// when two threads compute statistics).
double log_gamma(double x) {
  int sign = 0;
  return lgamma_r(x, &sign);
}

// Continued fraction of I_x(a, b) (modified Lentz), valid for x < (a+1)/(a+b+2).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300, kEps = 1e-16;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 100000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < kEps) break;
  }
  return h;
}

}  // namespace

double regularized_incomplete_beta(double a, double b, double x) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(x) || a <= 0 || b <= 0)
    return std::numeric_limits<double>::quiet_NaN();
  if (x <= 0) return 0.0;
  if (x >= 1) return 1.0;
  if (x > (a + 1.0) / (a + b + 2.0)) return 1.0 - regularized_incomplete_beta(b, a, 1.0 - x);
  const double log_front = a * std::log(x) + b * std::log1p(-x) - (log_gamma(a) + log_gamma(b) - log_gamma(a + b));
  return std::exp(log_front) / a * beta_continued_fraction(a, b, x);
}

double student_t_sf(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(t)) return t > 0 ? 0.0 : 1.0;
  const double tail = 0.5 * regularized_incomplete_beta(0.5 * df, 0.5, df / (df + t * t));
  return t > 0 ? tail : 1.0 - tail;
}

}  // namespace aeval::metrics::detail
