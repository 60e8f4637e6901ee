// ROUGE-1/2/L, with and without stemming, against shared/reference/rouge_l.jsonl.
#include <gtest/gtest.h>

#include "aeval/metrics/rouge.hpp"
#include "support/reference.hpp"

namespace {

using aeval::metrics::RougeScore;
using aeval::metrics::RougeScores;
using aeval::testing::close_score;

void expect_scores(const nlohmann::json& e, const RougeScores& s, const std::string& what) {
  const std::pair<const char*, RougeScore> parts[] = {{"rouge1", s.rouge1}, {"rouge2", s.rouge2}, {"rougeL", s.rougeL}};
  for (const auto& [name, score] : parts) {
    EXPECT_TRUE(close_score(e[name]["precision"].get<double>(), score.precision)) << what << " " << name;
    EXPECT_TRUE(close_score(e[name]["recall"].get<double>(), score.recall)) << what << " " << name;
    EXPECT_TRUE(close_score(e[name]["fmeasure"].get<double>(), score.fmeasure)) << what << " " << name;
  }
}

TEST(RougeConformance, PerReferenceAndMulti) {
  AEVAL_REQUIRE_GOLDEN(records, "rouge_l.jsonl");
  for (const auto& r : records) {
    const std::string id = r["id"];
    const std::string hyp = r["input"]["hypothesis"];
    const auto refs = r["input"]["references"].get<std::vector<std::string>>();
    for (const bool stem : {false, true}) {
      const auto& e = r["expected"][stem ? "stem" : "nostem"];
      const std::string what = id + (stem ? " stem" : " nostem");
      EXPECT_EQ(e["hyp_tokens"].get<std::vector<std::string>>(), aeval::metrics::rouge_tokenize(hyp, stem)) << what;
      for (std::size_t k = 0; k < refs.size(); ++k) {
        EXPECT_EQ(e["refs_tokens"][k].get<std::vector<std::string>>(), aeval::metrics::rouge_tokenize(refs[k], stem))
            << what;
        expect_scores(e["per_reference"][k], aeval::metrics::rouge_score(refs[k], hyp, stem), what);
      }
      expect_scores(e["multi"], aeval::metrics::rouge_score_multi(refs, hyp, stem), what + " multi");
    }
  }
}

}  // namespace
