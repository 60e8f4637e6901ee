// CIDEr-D against shared/reference/cider_d.jsonl.
#include <gtest/gtest.h>

#include "aeval/metrics/cider.hpp"
#include "support/reference.hpp"

namespace {

using aeval::testing::close_score;

TEST(CiderConformance, CorpusAndPerItem) {
  AEVAL_REQUIRE_GOLDEN(records, "cider_d.jsonl");
  for (const auto& r : records) {
    const std::string id = r["id"];
    const auto& in = r["input"];
    const auto candidates = in["candidates"].get<std::vector<std::string>>();
    const auto references = in["references"].get<std::vector<std::vector<std::string>>>();
    const auto raw_candidates = in["candidates_raw"].get<std::vector<std::string>>();
    for (std::size_t i = 0; i < candidates.size(); ++i)
      EXPECT_EQ(candidates[i], aeval::metrics::cider_simple_tokenize(raw_candidates[i])) << id;
    const auto result = aeval::metrics::cider_d(candidates, references);
    EXPECT_TRUE(close_score(aeval::testing::as_double(r["expected"]["corpus"]), result.corpus)) << id;
    const auto per_item = r["expected"]["per_item"];
    ASSERT_EQ(per_item.size(), result.per_item.size()) << id;
    for (std::size_t i = 0; i < per_item.size(); ++i)
      EXPECT_TRUE(close_score(aeval::testing::as_double(per_item[i]), result.per_item[i])) << id << " item " << i;
  }
}

}  // namespace
