// Correlations with p-values and ROC-AUC against shared/reference/stats.jsonl
// (scipy 1.10.1, scikit-learn 1.2.1).
#include <gtest/gtest.h>

#include <cmath>

#include "aeval/error.hpp"
#include "aeval/metrics/classification.hpp"
#include "aeval/metrics/correlation.hpp"
#include "support/reference.hpp"

namespace {

using aeval::metrics::Correlation;
using aeval::testing::as_double;
using aeval::testing::close_score;

::testing::AssertionResult close_pvalue(double expected, double actual) {
  if (std::isnan(expected) && std::isnan(actual)) return ::testing::AssertionSuccess();
  if (std::fabs(expected - actual) <= std::max(1e-6 * std::fabs(expected), 1e-300)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "p-value expected " << expected << " got " << actual;
}

template <class F>
void expect_correlation(const nlohmann::json& e, F compute, const std::string& what) {
  if (e.contains("error")) {
    EXPECT_THROW(compute(), aeval::Error) << what;
    return;
  }
  const Correlation c = compute();
  EXPECT_TRUE(close_score(as_double(e["statistic"]), c.statistic)) << what;
  EXPECT_TRUE(close_pvalue(as_double(e["pvalue"]), c.pvalue)) << what;
}

std::vector<double> as_vector(const nlohmann::json& values) {
  std::vector<double> out;
  for (const auto& v : values) out.push_back(as_double(v));
  return out;
}

TEST(StatsConformance, CorrelationsAndAuc) {
  AEVAL_REQUIRE_GOLDEN(records, "stats.jsonl");
  for (const auto& r : records) {
    const std::string id = r["id"];
    const auto x = as_vector(r["input"]["x"]), y = as_vector(r["input"]["y"]);
    const auto& e = r["expected"];
    expect_correlation(e["pearsonr"], [&] { return aeval::metrics::pearson(x, y); }, id + " pearson");
    expect_correlation(e["spearmanr"], [&] { return aeval::metrics::spearman(x, y); }, id + " spearman");
    expect_correlation(e["kendalltau_b"], [&] { return aeval::metrics::kendall(x, y); }, id + " kendall b");
    expect_correlation(e["kendalltau_c"],
                       [&] { return aeval::metrics::kendall(x, y, aeval::metrics::KendallVariant::c); },
                       id + " kendall c");
    if (!r["input"].contains("labels") || r["input"]["labels"].is_null()) continue;
    const auto& labels = r["input"]["labels"];
    const auto positive = [&] {
      if (labels[0].is_string()) return aeval::metrics::positive_labels(labels.get<std::vector<std::string>>());
      return aeval::metrics::positive_labels(labels.get<std::vector<double>>());
    };
    for (const auto& [key, scores] : {std::pair{"roc_auc_score_x", &x}, std::pair{"roc_auc_score_y", &y}}) {
      if (!e.contains(key)) continue;
      if (e[key].is_object()) {
        EXPECT_THROW(aeval::metrics::roc_auc(positive(), *scores), aeval::Error) << id;
      } else {
        EXPECT_TRUE(close_score(as_double(e[key]), aeval::metrics::roc_auc(positive(), *scores))) << id << " " << key;
      }
    }
  }
}

}  // namespace
