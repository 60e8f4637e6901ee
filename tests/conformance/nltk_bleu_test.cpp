// NLTK BLEU-1..4 (method1) and unsmoothed BLEU-4 against shared/reference/nltk_bleu.jsonl.
#include <gtest/gtest.h>

#include "aeval/metrics/nltk_bleu.hpp"
#include "support/reference.hpp"

namespace {

using aeval::metrics::Tokens;
using aeval::testing::close_score;

TEST(NltkBleuConformance, SentenceAndCorpus) {
  AEVAL_REQUIRE_GOLDEN(records, "nltk_bleu.jsonl");
  for (const auto& r : records) {
    const std::string id = r["id"];
    const auto& in = r["input"];
    const auto& e = r["expected"];
    std::vector<std::vector<Tokens>> refs;
    std::vector<Tokens> hyps;
    if (r["kind"] == "sentence") {
      EXPECT_EQ(in["hypothesis_tokens"].get<Tokens>(), aeval::metrics::lower_split(in["hypothesis"])) << id;
      hyps.push_back(in["hypothesis_tokens"].get<Tokens>());
      refs.push_back(in["references_tokens"].get<std::vector<Tokens>>());
    } else {
      hyps = in["hypotheses_tokens"].get<std::vector<Tokens>>();
      refs = in["references_tokens"].get<std::vector<std::vector<Tokens>>>();
    }
    for (int n = 1; n <= 4; ++n) {
      const double ours = aeval::metrics::nltk_corpus_bleu(refs, hyps, aeval::metrics::audiocapbench_bleu_n(n));
      EXPECT_TRUE(close_score(e["bleu_" + std::to_string(n)].get<double>(), ours)) << id << " bleu_" << n;
    }
    EXPECT_TRUE(close_score(e["bleu_4_no_smoothing"].get<double>(), aeval::metrics::nltk_corpus_bleu(refs, hyps)))
        << id;
  }
}

}  // namespace
