// Empty hypotheses and references: each metric behaves as its reference does
// (shared/specs/metric-specs.md), never crashes, never divides by zero.
#include <gtest/gtest.h>

#include <cmath>

#include "aeval/error.hpp"
#include "aeval/metrics/bleu.hpp"
#include "aeval/metrics/cider.hpp"
#include "aeval/metrics/correlation.hpp"
#include "aeval/metrics/meteor.hpp"
#include "aeval/metrics/nltk_bleu.hpp"
#include "aeval/metrics/rouge.hpp"
#include "aeval/metrics/wer.hpp"

namespace {

using namespace aeval::metrics;

TEST(MetricEdgeCases, EmptyHypothesis) {
  EXPECT_EQ(process_words({"a b c"}, {""}).rates().wer, 1.0);
  EXPECT_TRUE(process_words({"a b c"}, {""}).rates().wip_wil_are_ints);
  const auto bleu = sentence_bleu("", {"a b c"});
  EXPECT_EQ(bleu.score, 0.0);
  EXPECT_EQ(bleu.bp, 0.0);
  EXPECT_EQ(sentence_chrf("", {"a b c"}).score, 0.0);
  EXPECT_EQ(nltk_sentence_bleu({{"a", "b"}}, {}), 0.0);
  const auto r = rouge_score("a b c", "", false);
  EXPECT_EQ(r.rougeL.fmeasure, 0.0);
  EXPECT_EQ(r.rouge1.precision, 0.0);
  if (std::filesystem::exists("/usr/share/wordnet/index.noun")) {
    EXPECT_EQ(single_meteor({"a", "b"}, {}, aeval::text::default_wordnet()).score, 0.0);
  }
}

TEST(MetricEdgeCases, EmptyReference) {
  const auto rates = process_words({""}, {"x y"}).rates();
  EXPECT_TRUE(rates.wer_mer_are_ints);
  EXPECT_EQ(rates.wer, 2.0);  // jiwer 4.0: the number of insertions
  // sacreBLEU drops empty references and raises for a segment left with none.
  EXPECT_THROW(sentence_bleu("a b c", {""}), aeval::Error);
  EXPECT_THROW(sentence_chrf("a b c", {""}), aeval::Error);
  EXPECT_EQ(rouge_score("", "a b", true).rougeL.fmeasure, 0.0);
}

TEST(MetricEdgeCases, CorpusDependentCider) {
  EXPECT_EQ(cider_d({"a cat"}, {{"a cat"}}).corpus, 0.0);  // one item: every idf is 0
  EXPECT_DOUBLE_EQ(cider_d({"a b c d", "e f g h"}, {{"a b c d", "a b c d"}, {"e f g h", "e f g h"}}).corpus, 10.0);
  EXPECT_THROW(cider_d({"a"}, {}), aeval::Error);
}

TEST(MetricEdgeCases, StatisticsOnDegenerateInput) {
  EXPECT_THROW(pearson({1.0}, {2.0}), aeval::Error);
  EXPECT_THROW(pearson({1.0, 2.0}, {2.0}), aeval::Error);
  EXPECT_TRUE(std::isnan(spearman({1.0}, {2.0}).statistic));
  EXPECT_TRUE(std::isnan(kendall({3, 3, 3}, {1, 2, 3}).pvalue));
  EXPECT_TRUE(std::isnan(pearson({1, 2, NAN}, {1, 2, 3}).statistic));
}

TEST(MetricEdgeCases, MismatchedLengthsAreErrors) {
  EXPECT_THROW(corpus_bleu({"a", "b"}, {{"a"}}), aeval::Error);
  EXPECT_THROW(corpus_chrf({"a"}, {{"a", "b"}}), aeval::Error);
  EXPECT_THROW(nltk_corpus_bleu({}, {{"a"}}), aeval::Error);
  EXPECT_THROW(bleu_tokenize("x", "moses"), aeval::Error);
}

}  // namespace
