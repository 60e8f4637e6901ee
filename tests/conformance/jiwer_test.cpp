// WER/MER/WIL/WIP/CER and alignments against shared/reference/jiwer.jsonl.
#include <gtest/gtest.h>

#include "aeval/metrics/wer.hpp"
#include "support/reference.hpp"

namespace {

using aeval::metrics::CorpusAlignment;
using aeval::testing::close_score;

std::vector<std::string> as_list(const nlohmann::json& v) {
  if (v.is_string()) return {v.get<std::string>()};
  return v.get<std::vector<std::string>>();
}

// The golden file keeps Python's int/float distinction; so do we.
void expect_measure(const nlohmann::json& expected, double actual, bool is_int, const std::string& what) {
  EXPECT_EQ(expected.is_number_integer(), is_int) << what << ": int/float kind differs";
  EXPECT_TRUE(close_score(expected.get<double>(), actual)) << what;
}

TEST(JiwerConformance, AllRecords) {
  AEVAL_REQUIRE_GOLDEN(records, "jiwer.jsonl");
  for (const auto& r : records) {
    const std::string id = r["id"];
    const auto& in = r["input"];
    const auto& e = r["expected"];
    const bool corpus = r["kind"] == "corpus";
    const auto refs = as_list(corpus ? in["references"] : in["reference"]);
    const auto hyps = as_list(corpus ? in["hypotheses"] : in["hypothesis"]);

    if (e.contains("wer")) {
      const CorpusAlignment words = aeval::metrics::process_words(refs, hyps);
      const auto rates = words.rates();
      expect_measure(e["wer"], rates.wer, rates.wer_mer_are_ints, id + " wer");
      expect_measure(e["mer"], rates.mer, rates.wer_mer_are_ints, id + " mer");
      expect_measure(e["wip"], rates.wip, rates.wip_wil_are_ints, id + " wip");
      expect_measure(e["wil"], rates.wil, rates.wip_wil_are_ints, id + " wil");
      EXPECT_EQ(e["hits"].get<std::size_t>(), words.counts.hits) << id;
      EXPECT_EQ(e["substitutions"].get<std::size_t>(), words.counts.substitutions) << id;
      EXPECT_EQ(e["deletions"].get<std::size_t>(), words.counts.deletions) << id;
      EXPECT_EQ(e["insertions"].get<std::size_t>(), words.counts.insertions) << id;
      if (e.contains("word_alignments")) {
        nlohmann::json ours = nlohmann::json::array();
        for (const auto& sentence : words.alignments) {
          nlohmann::json chunks = nlohmann::json::array();
          for (const auto& c : sentence)
            chunks.push_back({to_string(c.type), c.ref_start, c.ref_end, c.hyp_start, c.hyp_end});
          ours.push_back(chunks);
        }
        EXPECT_EQ(e["word_alignments"], ours) << id;
      }
    }
    if (e.contains("cer")) {
      const CorpusAlignment chars = aeval::metrics::process_characters(refs, hyps);
      const auto rates = chars.rates();
      expect_measure(e["cer"], rates.wer, rates.wer_mer_are_ints, id + " cer");
      EXPECT_EQ(e["char_hits"].get<std::size_t>(), chars.counts.hits) << id;
      EXPECT_EQ(e["char_substitutions"].get<std::size_t>(), chars.counts.substitutions) << id;
      EXPECT_EQ(e["char_deletions"].get<std::size_t>(), chars.counts.deletions) << id;
      EXPECT_EQ(e["char_insertions"].get<std::size_t>(), chars.counts.insertions) << id;
    }
  }
}

}  // namespace
