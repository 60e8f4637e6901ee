// scipy 1.10.1 scipy/stats/_stats_py.py pearsonr, spearmanr, kendalltau and
// mstats_basic._kendall_p_exact; numpy 1.24 mean/cov/corrcoef arithmetic.
#include "aeval/metrics/correlation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#include "aeval/error.hpp"
#include "util/numpy_sum.hpp"
#include "metrics/stats/special_functions.hpp"

namespace aeval::metrics {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void check_lengths(const std::vector<double>& x, const std::vector<double>& y, const char* name) {
  if (x.size() != y.size())
    throw Error(ErrorCategory::data, std::string(name) + ": x has " + std::to_string(x.size()) + " values but y has " +
                                         std::to_string(y.size()));
}

bool constant(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [&](double e) { return e == v[0]; });
}

bool any_nan(const std::vector<double>& v) {
  return std::any_of(v.begin(), v.end(), [](double e) { return std::isnan(e); });
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

std::vector<double> centered(const std::vector<double>& v) {
  const double mean = aeval::detail::numpy_mean(v.data(), v.size());
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i] - mean;
  return out;
}

double sign(double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : v == 0 ? 0.0 : kNaN; }

double factorial(int n) {
  double f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

// P-value of Kendall's statistic for n untied pairs with c concordant pairs
// (Kendall 1970), the recurrence of scipy's _kendall_p_exact.
double kendall_p_exact(long n, long c) {
  const long total = n * (n - 1) / 2;
  c = std::min(c, total - c);
  if (n == 1 || n == 2) return 1.0;
  double p;
  if (c == 0) {
    p = n < 171 ? 2.0 / factorial(int(n)) : 0.0;
  } else if (c == 1) {
    p = n < 172 ? 2.0 / factorial(int(n - 1)) : 0.0;
  } else if (4 * c == n * (n - 1)) {
    p = 1.0;
  } else {
    std::vector<double> counts(static_cast<std::size_t>(c + 1), 0.0);
    counts[0] = counts[1] = 1.0;
    for (long j = 3; j <= n; ++j) {
      std::partial_sum(counts.begin(), counts.end(), counts.begin());
      if (n >= 171)
        for (double& v : counts) v /= double(j);
      if (j <= c) {
        const std::vector<double> before(counts.begin(), counts.end() - j);
        for (std::size_t i = 0; i < before.size(); ++i) counts[static_cast<std::size_t>(j) + i] -= before[i];
      }
    }
    const double sum = aeval::detail::numpy_pairwise_sum(counts.data(), counts.size());
    p = n < 171 ? 2.0 * sum / factorial(int(n)) : sum;
  }
  return std::clamp(p, 0.0, 1.0);
}

// Number of pairs i < j with a[i] > a[j] (merge sort).
long long strict_inversions(std::vector<long>& a, std::vector<long>& buffer, std::size_t lo, std::size_t hi) {
  if (hi - lo < 2) return 0;
  const std::size_t mid = (lo + hi) / 2;
  long long count = strict_inversions(a, buffer, lo, mid) + strict_inversions(a, buffer, mid, hi);
  std::size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    if (a[j] < a[i]) {
      count += static_cast<long long>(mid - i);
      buffer[k++] = a[j++];
    } else {
      buffer[k++] = a[i++];
    }
  }
  while (i < mid) buffer[k++] = a[i++];
  while (j < hi) buffer[k++] = a[j++];
  std::copy(buffer.begin() + std::ptrdiff_t(lo), buffer.begin() + std::ptrdiff_t(hi), a.begin() + std::ptrdiff_t(lo));
  return count;
}

// Dense 1-based ranks of `v` in the order of `order`.
std::vector<long> dense_ranks(const std::vector<double>& v, const std::vector<std::size_t>& order) {
  std::vector<long> ranks(order.size());
  long rank = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || v[order[k]] != v[order[k - 1]]) ++rank;
    ranks[k] = rank;
  }
  return ranks;
}

}  // namespace

std::vector<double> average_ranks(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(values.size());
  for (std::size_t start = 0; start < order.size();) {
    std::size_t end = start + 1;
    while (end < order.size() && values[order[end]] == values[order[start]]) ++end;
    const double rank = 0.5 * double(start + 1 + end);  // mean of start+1 .. end
    for (std::size_t k = start; k < end; ++k) ranks[order[k]] = rank;
    start = end;
  }
  return ranks;
}

Correlation pearson(const std::vector<double>& x, const std::vector<double>& y) {
  check_lengths(x, y, "pearson");
  const std::size_t n = x.size();
  if (n < 2) throw Error(ErrorCategory::data, "pearson: x and y must have length at least 2");
  if (constant(x) || constant(y)) return {kNaN, kNaN};
  if (n == 2) return {sign(x[1] - x[0]) * sign(y[1] - y[0]), 1.0};
  std::vector<double> xm = centered(x), ym = centered(y);
  const double norm_x = std::sqrt(dot(xm, xm)), norm_y = std::sqrt(dot(ym, ym));
  for (double& v : xm) v /= norm_x;
  for (double& v : ym) v /= norm_y;
  double r = dot(xm, ym);
  if (!std::isnan(r)) r = std::max(std::min(r, 1.0), -1.0);
  // p = 2 * beta(n/2-1, n/2-1, loc=-1, scale=2).sf(|r|)
  const double ab = double(n) / 2 - 1;
  const double upper = 1.0 - (std::fabs(r) + 1.0) / 2.0;  // exact: Sterbenz
  return {r, 2 * detail::regularized_incomplete_beta(ab, ab, upper)};
}

Correlation spearman(const std::vector<double>& x, const std::vector<double>& y) {
  check_lengths(x, y, "spearman");
  const std::size_t n = x.size();
  if (n <= 1 || constant(x) || constant(y) || any_nan(x) || any_nan(y)) return {kNaN, kNaN};
  // np.corrcoef of the ranks: (cov_xy / sd_y) / sd_x, cov = dot * (1/(n-1))
  const std::vector<double> rx = centered(average_ranks(x)), ry = centered(average_ranks(y));
  const double scale = 1.0 / double(n - 1);
  const double cov_xy = dot(rx, ry) * scale;
  const double sd_x = std::sqrt(dot(rx, rx) * scale), sd_y = std::sqrt(dot(ry, ry) * scale);
  double rs = cov_xy / sd_y / sd_x;
  rs = std::clamp(rs, -1.0, 1.0);
  const double dof = double(n) - 2;
  const double ratio = dof / ((rs + 1.0) * (1.0 - rs));
  const double t = rs * std::sqrt(std::isnan(ratio) ? ratio : std::max(ratio, 0.0));
  return {rs, dof > 0 ? 2 * detail::student_t_sf(std::fabs(t), dof) : kNaN};
}

Correlation kendall(const std::vector<double>& x_in, const std::vector<double>& y_in, KendallVariant variant) {
  check_lengths(x_in, y_in, "kendall");
  const std::size_t n = x_in.size();
  if (n == 0 || any_nan(x_in) || any_nan(y_in)) return {kNaN, kNaN};

  // Sort by y, dense-rank y; then stable-sort by x, dense-rank x.
  std::vector<std::size_t> by_y(n);
  std::iota(by_y.begin(), by_y.end(), 0);
  std::stable_sort(by_y.begin(), by_y.end(), [&](std::size_t a, std::size_t b) { return y_in[a] < y_in[b]; });
  const std::vector<long> y_rank_sorted = dense_ranks(y_in, by_y);
  std::vector<long> y_rank(n);
  for (std::size_t k = 0; k < n; ++k) y_rank[by_y[k]] = y_rank_sorted[k];
  std::vector<std::size_t> by_x = by_y;
  std::stable_sort(by_x.begin(), by_x.end(), [&](std::size_t a, std::size_t b) { return x_in[a] < x_in[b]; });
  const std::vector<long> x = dense_ranks(x_in, by_x);
  std::vector<long> y(n);
  for (std::size_t k = 0; k < n; ++k) y[k] = y_rank[by_x[k]];

  std::vector<long> work = y, buffer(n);
  const long long dis = strict_inversions(work, buffer, 0, n);

  auto tie_sums = [](const std::vector<long>& ranks, double& t0, double& t1) {
    std::vector<long> count(ranks.empty() ? 1 : static_cast<std::size_t>(*std::max_element(ranks.begin(), ranks.end()) + 1), 0);
    for (long r : ranks) ++count[static_cast<std::size_t>(r)];
    long long ties = 0;
    t0 = t1 = 0;
    for (long c : count) {
      if (c <= 1) continue;
      ties += (long long)c * (c - 1) / 2;
      t0 += double(c) * (c - 1.0) * (c - 2);
      t1 += double(c) * (c - 1.0) * (2.0 * c + 5);
    }
    return ties;
  };
  long long joint_ties = 0;
  for (std::size_t start = 0; start < n;) {
    std::size_t end = start + 1;
    while (end < n && x[end] == x[start] && y[end] == y[start]) ++end;
    const long long c = static_cast<long long>(end - start);
    joint_ties += c * (c - 1) / 2;
    start = end;
  }
  double x0, x1, y0, y1;
  const long long xtie = tie_sums(x, x0, x1), ytie = tie_sums(y, y0, y1);
  const long long total = (long long)n * (long long)(n - 1) / 2;
  if (xtie == total || ytie == total) return {kNaN, kNaN};

  const long long con_minus_dis = total - xtie - ytie + joint_ties - 2 * dis;
  double tau;
  if (variant == KendallVariant::b) {
    tau = double(con_minus_dis) / std::sqrt(double(total - xtie)) / std::sqrt(double(total - ytie));
  } else {
    const double classes = double(std::min(std::set<long>(x.begin(), x.end()).size(), std::set<long>(y.begin(), y.end()).size()));
    tau = 2.0 * double(con_minus_dis) / (double(n) * double(n) * (classes - 1) / classes);
  }
  tau = std::min(1.0, std::max(-1.0, tau));

  double p;
  if (xtie == 0 && ytie == 0 && (n <= 33 || std::min(dis, total - dis) <= 1)) {
    p = kendall_p_exact(long(n), long(total - dis));
  } else {
    const double m = double(n) * (double(n) - 1.0);
    const double var = (m * (2.0 * double(n) + 5) - x1 - y1) / 18 + (2.0 * double(xtie) * double(ytie)) / m +
                       x0 * y0 / (9 * m * (double(n) - 2));
    const double z = double(con_minus_dis) / std::sqrt(var);
    p = std::erfc(std::fabs(z) / std::sqrt(2.0));
  }
  return {tau, p};
}

}  // namespace aeval::metrics
