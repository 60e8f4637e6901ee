// UltraEval-Audio's answer matchers against tests/data/uea_match: qa-exist-match
// (QAExistMatchEvaluator, DPR's has_answer) for the spoken-QA sets, and MMAU's
// string_match (choice-strings-match) for MMAU test-mini. The expected values
// were produced by the reference Python code (tests/data/uea_match/README.md).
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "aeval/metrics/catalog.hpp"
#include "aeval/metrics/match.hpp"
#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "support/reference.hpp"

namespace {

std::vector<nlohmann::json> read_vectors(const std::string& file) { return aeval::testing::read_test_data("uea_match/" + file); }

TEST(UeaMatchConformance, QaExistMatchTokens) {
  const auto records = read_vectors("qa_exist_match.jsonl");
  ASSERT_GT(records.size(), 100u) << "tests/data/uea_match/qa_exist_match.jsonl is missing";
  for (const auto& r : records)
    EXPECT_EQ(r["expected"]["prediction_tokens"].get<std::vector<std::string>>(),
              aeval::metrics::qa_exist_match_tokens(r["prediction"].get<std::string>()))
        << r["id"];
}

// ASCII text is tokenized without the regex; on random ASCII (controls, tabs, underscores, punctuation,
// digits) the tokens must be those of the reference's pattern, which the golden tokens above check.
TEST(UeaMatchConformance, AsciiTextGivesThePatternsTokens) {
  const aeval::text::Regex pattern(R"(([\p{L}\p{N}\p{M}]+)|([^\p{Z}\p{C}]))");
  std::mt19937 random(7);
  for (int n = 0; n < 2000; ++n) {
    std::string text(random() % 24, ' ');
    for (char& c : text) c = char(random() % 128);
    std::vector<std::string> expected;
    pattern.sub(text, [&](const aeval::text::Regex::Match& m) {
      expected.push_back(aeval::text::lower(m.group(0)));
      return std::string();
    });
    EXPECT_EQ(expected, aeval::metrics::qa_exist_match_tokens(text)) << nlohmann::json(text).dump();
  }
}

// normalize_answer drops the articles of ASCII text without the regex; on random ASCII it must give what
// \b(a|an|the)\b does (after lowercasing and dropping punctuation, as SQuAD's script orders them).
TEST(UeaMatchConformance, AsciiTextLosesTheArticlesThePatternFinds) {
  const aeval::text::Regex articles(R"(\b(a|an|the)\b)");
  std::mt19937 random(11);
  const std::vector<std::string> pieces = {"a", "an", "the", "A", "The", "ant", "thea", "x", "_", " ", "  ", "\t",
                                           "-", ".", "an_", "1a", "9", "\n"};
  for (int n = 0; n < 2000; ++n) {
    std::string text;
    for (std::size_t k = random() % 10; k > 0; --k) text += pieces[random() % pieces.size()];
    std::string without_punctuation;
    for (char c : aeval::text::lower(text))
      if (!std::ispunct(static_cast<unsigned char>(c))) without_punctuation += c;
    const std::string expected =
        aeval::text::join(aeval::text::split_whitespace(articles.sub(without_punctuation, " ")), " ");
    EXPECT_EQ(expected, aeval::metrics::normalize_answer(text)) << nlohmann::json(text).dump();
  }
}

TEST(UeaMatchConformance, QaExistMatch) {
  const auto records = read_vectors("qa_exist_match.jsonl");
  ASSERT_GT(records.size(), 100u);
  int matched = 0;
  for (const auto& r : records) {
    const auto refs = r["references"].get<std::vector<std::string>>();
    const double expected = r["expected"]["match"].get<double>();
    EXPECT_EQ(expected, aeval::metrics::qa_exist_match(r["prediction"].get<std::string>(), refs)) << r["id"];
    matched += expected == 1.0;
  }
  EXPECT_GT(matched, 20);
  EXPECT_LT(matched, int(records.size()) - 20);
}

TEST(UeaMatchConformance, ChoiceStringsMatch) {
  const auto records = read_vectors("choice_strings_match.jsonl");
  ASSERT_GT(records.size(), 40u) << "tests/data/uea_match/choice_strings_match.jsonl is missing";
  for (const auto& r : records)
    EXPECT_EQ(r["expected"]["match"].get<double>(),
              aeval::metrics::choice_strings_match(r["prediction"].get<std::string>(), r["answer"].get<std::string>(),
                                                   r["choices"].get<std::vector<std::string>>()))
        << r["id"];
}

TEST(UeaMatchConformance, PrefixMatch) {
  const auto records = read_vectors("prefix_match.jsonl");
  ASSERT_GT(records.size(), 40u) << "tests/data/uea_match/prefix_match.jsonl is missing";
  for (const auto& r : records)
    EXPECT_EQ(r["expected"]["match"].get<double>(),
              aeval::metrics::prefix_match(r["prediction"].get<std::string>(), {r["reference"].get<std::string>()}))
        << r["id"];
}

// UltraEval-Audio's EM on text labels: strip, then compare exactly.
TEST(UeaMatchConformance, StripEqual) {
  EXPECT_EQ(aeval::metrics::strip_equal(" A\n", {"A"}), 1.0);
  EXPECT_EQ(aeval::metrics::strip_equal("a", {"A"}), 0.0);
  EXPECT_EQ(aeval::metrics::strip_equal("", {"A"}), 0.0);
  EXPECT_EQ(aeval::metrics::strip_equal("B", {"A", "B"}), 1.0);
}

// The catalog entries score as the functions do: references are the answers
// (qa-exist-match), or the answer followed by the choices (choice-strings-match).
TEST(UeaMatchConformance, CatalogEntries) {
  const auto* qa = aeval::metrics::find_text_metric("qa-exist-match");
  ASSERT_NE(qa, nullptr);
  for (const auto& r : read_vectors("qa_exist_match.jsonl")) {
    const auto result = qa->segment(r["prediction"], r["references"].get<std::vector<std::string>>(), {});
    EXPECT_EQ(result["score"].get<double>(), r["expected"]["match"].get<double>()) << r["id"];
  }
  const auto* mc = aeval::metrics::find_text_metric("choice-strings-match");
  ASSERT_NE(mc, nullptr);
  for (const auto& r : read_vectors("choice_strings_match.jsonl")) {
    std::vector<std::string> refs{r["answer"].get<std::string>()};
    for (const auto& c : r["choices"]) refs.push_back(c);
    const auto result = mc->segment(r["prediction"], refs, {});
    EXPECT_EQ(result["score"].get<double>(), r["expected"]["match"].get<double>()) << r["id"];
  }
}

}  // namespace
