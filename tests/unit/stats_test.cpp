// scipy/sklearn test-suite vectors (shared/specs/metric-specs.md §8.5) and
// the behaviour of the statistics aeval adds.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "aeval/error.hpp"
#include "aeval/metrics/bootstrap.hpp"
#include "aeval/metrics/classification.hpp"
#include "aeval/metrics/correlation.hpp"
#include "metrics/stats/stable_order.hpp"

namespace {

using namespace aeval::metrics;

TEST(Stats, ScipyVectors) {
  const auto p = pearson({-1, 0, 1}, {0, 0, 3});
  EXPECT_NEAR(p.statistic, 0.8660254037844388, 1e-15);
  EXPECT_NEAR(p.pvalue, 1.0 / 3, 1e-12);
  EXPECT_TRUE(std::isnan(pearson({0.667, 0.667, 0.667}, {0.123, 0.456, 0.789}).statistic));
  EXPECT_NEAR(spearman({1, 2, 3, 4, 5}, {5, 6, 7, 8, 7}).statistic, 0.82078268166812329, 1e-15);
  EXPECT_EQ(spearman({1, 1, 2}, {1, 1, 2}).statistic, 1.0);
  EXPECT_TRUE(std::isnan(spearman({}, {}).statistic));
  EXPECT_NEAR(kendall({12, 2, 1, 12, 2}, {1, 4, 7, 1, 0}).statistic, -0.47140452079103173, 1e-15);
  EXPECT_NEAR(kendall({1, 2, 2, 4, 4, 6, 6, 8, 9, 9}, {1, 2, 4, 4, 4, 4, 8, 8, 8, 10}).statistic, 0.85895569, 1e-8);
  EXPECT_NEAR(kendall({1, 2, 2, 4, 4, 6, 6, 8, 9, 9}, {1, 2, 4, 4, 4, 4, 8, 8, 8, 10}, KendallVariant::c).statistic,
              0.825, 1e-15);
  EXPECT_NEAR(kendall({5, 2, 1, 3, 6, 4, 7}, {5, 2, 6, 3, 1, 7, 4}).statistic, -0.14285714286, 1e-11);
  EXPECT_EQ(average_ranks({10, 20, 20, 30, 30, 30}), (std::vector<double>{1, 2.5, 2.5, 5, 5, 5}));
}

TEST(Stats, RocAucVectors) {
  EXPECT_EQ(roc_auc({false, true}, {0, 1}), 1.0);
  EXPECT_EQ(roc_auc({false, true}, {1, 0}), 0.0);
  EXPECT_EQ(roc_auc({true, false}, {1, 1}), 0.5);
  EXPECT_DOUBLE_EQ(roc_auc({false, false, true, true}, {0.1, 0.5, 0.5, 0.9}), 0.875);
  EXPECT_DOUBLE_EQ(roc_auc(positive_labels(std::vector<std::string>{"a", "b", "a", "b"}), {0.9, 0.2, 0.3, 0.6}), 0.25);
  // scikit-learn: "Input contains NaN."
  EXPECT_THROW(roc_auc({false, true, true}, {0.1, std::nan(""), 0.3}), aeval::Error);
  EXPECT_THROW(positive_labels(std::vector<double>{1, 1, 1}), aeval::Error);
}

// The statistics' argsort: numbers in order (negatives, infinities, -0.0 equal to 0.0), equal ones in the
// order given, as numpy's stable argsort.
TEST(Stats, StableOrderSortsNumbersAndKeepsTiesInTheGivenOrder) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> keys = {3.5, -0.0, -inf, 0.0, -2.25, inf, 3.5, 1e-300, -1e-300, 0.0};
  EXPECT_EQ(aeval::metrics::stable_order_by(keys, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}),
            (std::vector<std::size_t>{2, 4, 8, 1, 3, 9, 7, 0, 6, 5}));
  EXPECT_EQ(aeval::metrics::stable_order_by(keys, {9, 6, 3, 1, 0}), (std::vector<std::size_t>{9, 3, 1, 6, 0}));
  EXPECT_TRUE(aeval::metrics::stable_order_by(keys, {}).empty());
}

TEST(Stats, ClassificationScores) {
  EXPECT_DOUBLE_EQ(accuracy({1, 0, 1, 1}, {1, 1, 1, 0}), 0.5);
  EXPECT_DOUBLE_EQ(balanced_accuracy({1, 0, 1, 1}, {1, 1, 1, 0}), (2.0 / 3 + 0.0) / 2);
  EXPECT_DOUBLE_EQ(f1({1, 0, 1, 1}, {1, 1, 1, 0}), 2 * 2.0 / (2 * 2.0 + 1 + 1));
  EXPECT_EQ(f1({0, 0}, {0, 0}), 0.0);
  EXPECT_DOUBLE_EQ(pairwise_preference_accuracy({0.9, 0.2, 0.5}, {0.1, 0.8, 0.5}), 0.5);
  EXPECT_DOUBLE_EQ(pairwise_preference_accuracy({0.9, 0.2, 0.5}, {0.1, 0.8, 0.5}, 0.0), 1.0 / 3);
  const auto w = winoground({{0.9, 0.1, 0.2, 0.8}, {0.9, 0.1, 0.95, 0.8}});
  EXPECT_DOUBLE_EQ(w.text, 0.5);  // item 2: audio 1 prefers caption 0
  EXPECT_DOUBLE_EQ(w.audio, 0.5);  // item 2: caption 0 prefers audio 1
  EXPECT_DOUBLE_EQ(w.group, 0.5);
}

TEST(Stats, BootstrapIsSeededAndSane) {
  std::vector<double> v;
  for (int i = 0; i < 200; ++i) v.push_back(i % 7 == 0 ? 1.0 : 0.0);
  const auto a = bootstrap_ci(v, mean, 500, 0.95, 42), b = bootstrap_ci(v, mean, 500, 0.95, 42);
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
  EXPECT_LT(a.low, a.estimate);
  EXPECT_GT(a.high, a.estimate);
  EXPECT_NE(bootstrap_ci(v, mean, 500, 0.95, 43).low + bootstrap_ci(v, mean, 500, 0.95, 43).high, a.low + a.high);
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4}, 50), 2.5);
  EXPECT_THROW(bootstrap_ci({}, mean), aeval::Error);
}

// Resamples split across threads draw what one thread draws, and statistics sharing the draws get the intervals
// each would get alone: the same interval whatever the core count.
TEST(Stats, BootstrapIntervalsDoNotDependOnTheThreadsOrOnTheOtherStatistics) {
  std::vector<double> v;
  for (int i = 0; i < 301; ++i) v.push_back(std::sin(i * 0.37) + (i % 11 == 0 ? 3.0 : 0.0));
  const auto gathered = [&](const std::vector<std::size_t>& chosen) {
    std::vector<double> sample;
    for (std::size_t i : chosen) sample.push_back(v[i]);
    return sample;
  };
  const aeval::metrics::IndexStatistic mean_of = [&](const std::vector<std::size_t>& c) { return mean(gathered(c)); };
  const aeval::metrics::IndexStatistic median_of = [&](const std::vector<std::size_t>& c) {
    return percentile(gathered(c), 50);
  };
  const auto alone = bootstrap_ci(v, mean, 333, 0.9, 7);
  for (unsigned threads : {1u, 2u, 3u, 7u}) {
    const auto both = aeval::metrics::bootstrap_indices(v.size(), {mean_of, median_of}, 333, 0.9, 7, threads);
    ASSERT_EQ(both.size(), 2u);
    EXPECT_EQ(both[0].low, alone.low) << threads << " threads";
    EXPECT_EQ(both[0].high, alone.high) << threads << " threads";
    const auto median_alone = aeval::metrics::bootstrap_indices(v.size(), {median_of}, 333, 0.9, 7, 1)[0];
    EXPECT_EQ(both[1].low, median_alone.low) << threads << " threads";
    EXPECT_EQ(both[1].high, median_alone.high) << threads << " threads";
  }
}

// A statistic of how often each index was drawn sees the resamples the indices make: a sum of integers over the
// counts is the sum over the draws, so its interval is the gathered one's, alone, beside others, on any core count.
TEST(Stats, CountedResamplesGiveTheIntervalsOfTheGatheredOnes) {
  std::vector<double> v;
  for (int i = 0; i < 257; ++i) v.push_back(double((i * 37) % 19) - 4);
  const aeval::metrics::IndexStatistic gathered_mean = [&](const std::vector<std::size_t>& c) {
    double sum = 0;
    for (std::size_t i : c) sum += v[i];
    return sum / double(c.size());
  };
  const aeval::metrics::CountStatistic counted_mean = [&](const std::vector<std::uint32_t>& counts) {
    double sum = 0, drawn = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) sum += counts[i] * v[i], drawn += counts[i];
    return sum / drawn;
  };
  const auto gathered = aeval::metrics::bootstrap_indices(v.size(), {gathered_mean}, 401, 0.95, 11, 1)[0];
  EXPECT_LT(gathered.low, gathered.high);
  for (unsigned threads : {1u, 2u, 5u}) {
    const auto counted = aeval::metrics::bootstrap_indices(v.size(), {counted_mean}, 401, 0.95, 11, threads)[0];
    EXPECT_EQ(counted.low, gathered.low) << threads << " threads";
    EXPECT_EQ(counted.high, gathered.high) << threads << " threads";
    const auto both = aeval::metrics::bootstrap_indices(v.size(), {gathered_mean, counted_mean}, 401, 0.95, 11, threads);
    EXPECT_EQ(both[1].low, gathered.low) << threads << " threads";
    EXPECT_EQ(both[1].high, gathered.high) << threads << " threads";
  }
}

}  // namespace
