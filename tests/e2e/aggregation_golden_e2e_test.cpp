// Corpus values, groups and bootstrap intervals are the numbers aeval gave before aggregation moved to
// per-sample statistics (issue 54): every kind of corpus computation, digit for digit
// (tests/data/aggregation_golden/README.md says how golden.json was made).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using nlohmann::json;

const std::filesystem::path kGolden = std::filesystem::path(AEVAL_SOURCE_DIR) / "tests" / "data" / "aggregation_golden";

// Every number where golden.json has one, each difference named by its JSON path.
void expect_same(const json& got, const json& want, const std::string& path) {
  if (want.is_object()) {
    ASSERT_TRUE(got.is_object()) << path << ": " << got.dump();
    for (const auto& [key, value] : want.items()) {
      EXPECT_TRUE(got.contains(key)) << path << "/" << key << " is missing";
      if (got.contains(key)) expect_same(got[key], value, path + "/" + key);
    }
    EXPECT_EQ(got.size(), want.size()) << path << " has other keys: " << got.dump().substr(0, 300);
  } else if (want.is_number() && got.is_number()) {
    EXPECT_EQ(got.get<double>(), want.get<double>()) << path;  // exact: the same computation, the same digits
  } else {
    EXPECT_EQ(got, want) << path;
  }
}

TEST(AggregationGoldenE2E, CorpusValuesGroupsAndIntervalsAreTheRecordComputationsDigitForDigit) {
  TempDir dir;
  const auto o = run_aeval(fmt::format("--registry {} run --task golden-task -q --no-cache --output {}",
                                       (kGolden / "registry").string(), (dir / "out").string()),
                           false);
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir / "out");
  const json golden = json::parse(aeval::testing::read_bytes(kGolden / "golden.json"));
  expect_same(run.summary["metrics"], golden["metrics"], "metrics");
  expect_same(run.summary["aggregations"], golden["aggregations"], "aggregations");
}

}  // namespace
