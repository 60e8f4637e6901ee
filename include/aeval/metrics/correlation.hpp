#pragma once
// Correlations with p-values as SciPy 1.10 computes them: pearsonr,
// spearmanr (average ranks), kendalltau (tau-b and tau-c; exact p for small
// untied samples, asymptotic otherwise). Constant input gives NaN, not an
// error; shared/specs/metric-specs.md §8.
#include <vector>

namespace aeval::metrics {

struct Correlation {
  double statistic;
  double pvalue;  // two-sided
};

// Throws aeval::Error (data) when the lengths differ or, for Pearson, n < 2.
Correlation pearson(const std::vector<double>& x, const std::vector<double>& y);
Correlation spearman(const std::vector<double>& x, const std::vector<double>& y);
enum class KendallVariant { b, c };
Correlation kendall(const std::vector<double>& x, const std::vector<double>& y, KendallVariant variant = KendallVariant::b);

// scipy.stats.rankdata(method='average'): 1-based ranks, ties share their mean.
std::vector<double> average_ranks(const std::vector<double>& values);

}  // namespace aeval::metrics
