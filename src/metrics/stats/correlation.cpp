// scipy 1.10.1 scipy/stats/_stats_py.py pearsonr, spearmanr, kendalltau and
// mstats_basic._kendall_p_exact; numpy 1.24 mean/cov/corrcoef arithmetic.
#include "aeval/metrics/correlation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "aeval/error.hpp"
#include "util/numpy_sum.hpp"
#include "metrics/stats/special_functions.hpp"
#include "metrics/stats/stable_order.hpp"

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

// Number of pairs i < j with ranks[i] > ranks[j], for ranks in 1..classes: a Fenwick tree counts the
// ranks seen so far at or below each rank.
long long strict_inversions(const std::vector<long>& ranks, long classes) {
  std::vector<long long> seen(static_cast<std::size_t>(classes) + 1, 0);
  long long inversions = 0;
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    long long at_or_below = 0;
    for (long i = ranks[k]; i > 0; i -= i & -i) at_or_below += seen[static_cast<std::size_t>(i)];
    inversions += static_cast<long long>(k) - at_or_below;
    for (long i = ranks[k]; i <= classes; i += i & -i) ++seen[static_cast<std::size_t>(i)];
  }
  return inversions;
}

}  // namespace

std::vector<double> average_ranks(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  order = stable_order_by(values, std::move(order));
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

  // Positions in y's order, then (stably) in x's: equal x come in y's order, the order in which the
  // discordant pairs are the strict inversions of y's dense ranks.
  std::vector<std::size_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0);
  const std::vector<std::size_t> by_y = stable_order_by(y_in, positions);
  std::vector<long> y_rank(n);
  long y_classes = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (k == 0 || y_in[by_y[k]] != y_in[by_y[k - 1]]) ++y_classes;
    y_rank[by_y[k]] = y_classes;
  }
  const std::vector<std::size_t> by_x = stable_order_by(x_in, by_y);
  std::vector<long> x(n), y(n);
  long x_classes = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (k == 0 || x_in[by_x[k]] != x_in[by_x[k - 1]]) ++x_classes;
    x[k] = x_classes;
    y[k] = y_rank[by_x[k]];
  }

  const long long dis = strict_inversions(y, y_classes);

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
    const double classes = double(std::min(x_classes, y_classes));
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
