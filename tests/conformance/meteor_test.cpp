// NLTK METEOR with WordNet 3.0 against shared/reference/nltk_meteor.jsonl.
#include <gtest/gtest.h>

#include "aeval/metrics/meteor.hpp"
#include "support/reference.hpp"

namespace {

using aeval::testing::close_score;
using Tokens = std::vector<std::string>;

TEST(MeteorConformance, PerReferenceMaxMultiAndAlignments) {
  AEVAL_REQUIRE_GOLDEN(records, "nltk_meteor.jsonl");
  AEVAL_REQUIRE(std::filesystem::exists("/usr/share/wordnet/index.noun") || std::getenv("AEVAL_WORDNET_DIR"),
                "WordNet 3.0 (Debian's wordnet-base)");
  const auto& wordnet = aeval::text::default_wordnet();
  for (const auto& r : records) {
    const std::string id = r["id"];
    const auto hyp = r["input"]["hypothesis_tokens"].get<Tokens>();
    const auto refs = r["input"]["references_tokens"].get<std::vector<Tokens>>();
    const auto& e = r["expected"];
    for (std::size_t k = 0; k < refs.size(); ++k) {
      const auto alignment = aeval::metrics::single_meteor(refs[k], hyp, wordnet);
      EXPECT_TRUE(close_score(e["per_reference"][k].get<double>(), alignment.score)) << id << " ref " << k;
      if (e.contains("matches")) {
        nlohmann::json ours = nlohmann::json::array();
        for (const auto& [h, rr] : alignment.matches) ours.push_back({h, rr});
        EXPECT_EQ(e["matches"][k], ours) << id << " ref " << k;
      }
    }
    EXPECT_TRUE(close_score(e["multi"].get<double>(), aeval::metrics::meteor_score(refs, hyp, wordnet))) << id;
  }
}

}  // namespace
