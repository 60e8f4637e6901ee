// Whisper normalizers against shared/reference/whisper_normalizers.jsonl.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "aeval/text/unicode.hpp"
#include "aeval/text/whisper_normalizers.hpp"
#include "support/reference.hpp"

namespace {

using aeval::text::SpellingTable;

// The spelling table is data aeval may not ship. The golden file records
// EnglishSpellingNormalizer() on every raw input, so the entries those inputs
// exercise can be read back from it: word i of the input maps to word i of
// the output. `known` collects every word whose entry (or absence) is thus
// established; the english check tolerates differences only in other words.
SpellingTable spelling_entries_seen(const std::vector<nlohmann::json>& records, std::set<std::string>& known) {
  SpellingTable table;
  for (const auto& r : records) {
    const auto in = aeval::text::split_whitespace(r["input"].get<std::string>());
    const auto out = aeval::text::split_whitespace(r["expected"]["english_spelling"].get<std::string>());
    if (in.size() != out.size()) continue;
    for (std::size_t i = 0; i < in.size(); ++i) {
      known.insert(in[i]);
      if (in[i] != out[i]) table.mapping[in[i]] = out[i];
    }
  }
  table.source = "derived from whisper_normalizers.jsonl";
  return table;
}

TEST(WhisperNormalizersConformance, Basic) {
  AEVAL_REQUIRE_GOLDEN(records, "whisper_normalizers.jsonl");
  for (const auto& r : records) {
    const std::string input = r["input"];
    const auto& e = r["expected"];
    EXPECT_EQ(e["basic"].get<std::string>(), aeval::text::whisper_basic_normalize(input)) << r["id"];
    EXPECT_EQ(e["basic_remove_diacritics"].get<std::string>(),
              aeval::text::whisper_basic_normalize(input, {.remove_diacritics = true}))
        << r["id"];
    EXPECT_EQ(e["basic_split_letters"].get<std::string>(),
              aeval::text::whisper_basic_normalize(input, {.split_letters = true}))
        << r["id"];
  }
}

TEST(WhisperNormalizersConformance, EnglishNumber) {
  AEVAL_REQUIRE_GOLDEN(records, "whisper_normalizers.jsonl");
  const aeval::text::EnglishNumberNormalizer numbers;
  for (const auto& r : records)
    EXPECT_EQ(r["expected"]["english_number"].get<std::string>(), numbers(r["input"].get<std::string>())) << r["id"];
}

TEST(WhisperNormalizersConformance, EnglishSpelling) {
  AEVAL_REQUIRE_GOLDEN(records, "whisper_normalizers.jsonl");
  std::set<std::string> known;
  const SpellingTable table = spelling_entries_seen(records, known);
  ASSERT_FALSE(table.mapping.empty()) << "the golden file exercises no spelling entry";
  for (const auto& r : records)
    EXPECT_EQ(r["expected"]["english_spelling"].get<std::string>(),
              aeval::text::apply_spelling(table, r["input"].get<std::string>()))
        << r["id"];
}

TEST(WhisperNormalizersConformance, English) {
  AEVAL_REQUIRE_GOLDEN(records, "whisper_normalizers.jsonl");
  std::set<std::string> known;
  const aeval::text::EnglishTextNormalizer english(spelling_entries_seen(records, known));
  std::size_t unknowable = 0;
  for (const auto& r : records) {
    const std::string input = r["input"], expected = r["expected"]["english"];
    const std::string ours = english(input);
    if (ours == expected) continue;
    // The only tolerated difference: a word the golden inputs never showed to
    // the spelling normalizer, so its table entry cannot be known here.
    const auto a = aeval::text::split_whitespace(expected), b = aeval::text::split_whitespace(ours);
    bool explained = a.size() == b.size();
    for (std::size_t i = 0; explained && i < a.size(); ++i) explained = a[i] == b[i] || !known.count(b[i]);
    if (explained) {
      ++unknowable;
      continue;
    }
    ADD_FAILURE() << r["id"] << "\n input:    " << input << "\n expected: " << expected << "\n ours:     " << ours;
  }
  EXPECT_LT(unknowable, records.size() / 100) << "too many records depend on unknown spelling entries";
}

}  // namespace
