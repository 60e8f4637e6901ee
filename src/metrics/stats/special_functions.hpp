#pragma once
// The special functions behind SciPy's p-values, accurate to ~1e-12 relative
// (the p-value tolerance of the reference vectors is 1e-6).
namespace aeval::metrics::detail {

// Regularized incomplete beta I_x(a, b).
double regularized_incomplete_beta(double a, double b, double x);
// Student t survival function P(T > t) with df degrees of freedom.
double student_t_sf(double t, double df);

}  // namespace aeval::metrics::detail
