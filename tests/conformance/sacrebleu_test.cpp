// BLEU, chrF, tokenizers and signatures against shared/reference/sacrebleu.jsonl.
#include <gtest/gtest.h>

#include "aeval/metrics/bleu.hpp"
#include "support/reference.hpp"

namespace {

using aeval::metrics::BleuOptions;
using aeval::metrics::BleuScore;
using aeval::metrics::ChrfOptions;
using aeval::testing::close_score;

BleuOptions bleu_options(const nlohmann::json& params) {
  BleuOptions o;
  if (params.contains("tokenize")) o.tokenize = params["tokenize"];
  if (params.contains("smooth_method")) o.smooth_method = params["smooth_method"];
  if (params.contains("smooth_value")) o.smooth_value = params["smooth_value"].get<double>();
  if (params.contains("lowercase")) o.lowercase = params["lowercase"];
  if (params.contains("max_ngram_order")) o.max_ngram_order = params["max_ngram_order"];
  if (params.contains("effective_order")) o.effective_order = params["effective_order"];
  return o;
}

void expect_bleu(const nlohmann::json& e, const BleuScore& s, const std::string& id) {
  EXPECT_TRUE(close_score(e["score"].get<double>(), s.score)) << id;
  EXPECT_TRUE(close_score(e["bp"].get<double>(), s.bp)) << id;
  EXPECT_EQ(e["sys_len"].get<long>(), s.sys_len) << id;
  EXPECT_EQ(e["ref_len"].get<long>(), s.ref_len) << id;
  EXPECT_EQ(e["counts"].get<std::vector<double>>(), s.counts) << id;
  EXPECT_EQ(e["totals"].get<std::vector<double>>(), s.totals) << id;
  const auto precisions = e["precisions"].get<std::vector<double>>();
  ASSERT_EQ(precisions.size(), s.precisions.size()) << id;
  for (std::size_t i = 0; i < precisions.size(); ++i) EXPECT_TRUE(close_score(precisions[i], s.precisions[i])) << id;
  if (e.contains("formatted")) {
    EXPECT_EQ(e["formatted"].get<std::string>(), s.format()) << id;
  }
}

TEST(SacrebleuConformance, CorpusBleu) {
  AEVAL_REQUIRE_GOLDEN(records, "sacrebleu.jsonl");
  int checked = 0;
  for (const auto& r : records) {
    if (r["kind"] != "corpus_bleu") continue;
    const BleuOptions o = bleu_options(r["params"]);
    const auto refs = r["input"]["references"].get<std::vector<std::vector<std::string>>>();
    const auto s = aeval::metrics::corpus_bleu(r["input"]["hypotheses"], refs, o);
    expect_bleu(r["expected"], s, r["id"]);
    EXPECT_EQ(r["expected"]["signature"].get<std::string>(), aeval::metrics::bleu_signature(o, int(refs.size())));
    EXPECT_EQ(r["expected"]["signature_short"].get<std::string>(),
              aeval::metrics::bleu_signature(o, int(refs.size()), true));
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(SacrebleuConformance, CorpusChrf) {
  AEVAL_REQUIRE_GOLDEN(records, "sacrebleu.jsonl");
  for (const auto& r : records) {
    if (r["kind"] != "corpus_chrf") continue;
    ChrfOptions o;
    if (r["params"].contains("word_order")) o.word_order = r["params"]["word_order"];
    const auto refs = r["input"]["references"].get<std::vector<std::vector<std::string>>>();
    const auto s = aeval::metrics::corpus_chrf(r["input"]["hypotheses"], refs, o);
    const auto& e = r["expected"];
    EXPECT_TRUE(close_score(e["score"].get<double>(), s.score)) << r["id"];
    EXPECT_EQ(e["stats"].get<std::vector<long>>(), s.stats) << r["id"];
    EXPECT_EQ(e["formatted"].get<std::string>(), s.format()) << r["id"];
    EXPECT_EQ(e["signature"].get<std::string>(), aeval::metrics::chrf_signature(o, int(refs.size())));
    EXPECT_EQ(e["signature_short"].get<std::string>(), aeval::metrics::chrf_signature(o, int(refs.size()), true));
  }
}

TEST(SacrebleuConformance, SentenceScoresAndTokenization) {
  AEVAL_REQUIRE_GOLDEN(records, "sacrebleu.jsonl");
  for (const auto& r : records) {
    if (r["kind"] != "sentence") continue;
    const std::string id = r["id"];
    const std::string hyp = r["input"]["hypothesis"];
    const auto refs = r["input"]["references"].get<std::vector<std::string>>();
    const auto& e = r["expected"];
    BleuOptions o;
    o.tokenize = r["params"]["tokenize"];
    EXPECT_EQ(e["hyp_tokenized"].get<std::string>(), aeval::metrics::bleu_tokenize(hyp, o.tokenize)) << id;
    for (std::size_t k = 0; k < refs.size(); ++k)
      EXPECT_EQ(e["refs_tokenized"][k].get<std::string>(), aeval::metrics::bleu_tokenize(refs[k], o.tokenize)) << id;
    expect_bleu(e["bleu_default"], aeval::metrics::sentence_bleu(hyp, refs, o), id + " default");
    o.effective_order = true;
    expect_bleu(e["bleu_effective_order"], aeval::metrics::sentence_bleu(hyp, refs, o), id + " effective");
    EXPECT_TRUE(close_score(e["chrf"]["score"].get<double>(), aeval::metrics::sentence_chrf(hyp, refs).score)) << id;
    ChrfOptions plus;
    plus.word_order = 2;
    EXPECT_TRUE(close_score(e["chrf++"]["score"].get<double>(), aeval::metrics::sentence_chrf(hyp, refs, plus).score))
        << id;
  }
}

TEST(SacrebleuConformance, Signatures) {
  AEVAL_REQUIRE_GOLDEN(records, "sacrebleu.jsonl");
  for (const auto& r : records) {
    if (r["kind"] != "signature") continue;
    const BleuOptions o = bleu_options(r["params"]);
    const int nrefs = r["params"]["nrefs"];
    EXPECT_EQ(r["expected"]["signature"].get<std::string>(), aeval::metrics::bleu_signature(o, nrefs));
    EXPECT_EQ(r["expected"]["signature_short"].get<std::string>(), aeval::metrics::bleu_signature(o, nrefs, true));
  }
}

}  // namespace
