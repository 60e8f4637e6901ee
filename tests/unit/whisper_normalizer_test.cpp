// Vectors from whisper's own tests/test_normalizer.py and the computed
// examples in shared/specs/metric-specs.md §2.
#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "aeval/text/spelling_table.hpp"
#include "aeval/text/whisper_normalizers.hpp"
#include "util/download.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::text::EnglishNumberNormalizer;
using aeval::text::EnglishTextNormalizer;
using aeval::text::SpellingTable;

TEST(WhisperNormalizer, NumberNormalizerVectors) {
  const EnglishNumberNormalizer n;
  const std::pair<const char*, const char*> cases[] = {
      {"two", "2"},
      {"nineteen ninety nine", "1999"},
      {"two point five million", "2500000"},
      {"$20 million", "$20000000"},
      {"two double o eight", "2008"},
      {"thirty three thousand and three hundred and thirty third", "33333rd"},
      {"seventy six per cent", "76%"},
      {"two dollars and seventy cents", "$2.70"},
      {"$0.36", "¢36"},
      {"three and a half million", "3500000"},
      {"b747", "b 747"},
      {"10 th", "10th"},
      {"one decillion and one", "1000000000000000000000000000000001"},
  };
  for (const auto& [in, out] : cases) EXPECT_EQ(n(in), out) << in;
}

TEST(WhisperNormalizer, EnglishVectors) {
  const EnglishTextNormalizer n{SpellingTable{}};
  EXPECT_EQ(n("Let's"), "let us");
  EXPECT_EQ(n("she's been like"), "she has been like");
  EXPECT_EQ(n("10km"), "10 km");
  EXPECT_EQ(n("RC232"), "rc 232");
  EXPECT_EQ(n("Mr. Park visited Assoc. Prof. Kim Jr."), "mister park visited associate professor kim junior");
  EXPECT_EQ(n("It's 3:00 p.m."), "it is 3 0 p m");
  EXPECT_EQ(n("I ate 1/2 of it"), "i ate one 2 of it");
  EXPECT_EQ(n("100 %"), "100 ");
  EXPECT_EQ(n("uh-huh"), "huh");
}

TEST(WhisperNormalizer, BasicVectors) {
  EXPECT_EQ(aeval::text::whisper_basic_normalize("Hello, World!"), "hello world ");
  EXPECT_EQ(aeval::text::whisper_basic_normalize("  Hi [noise] (laughs) there.  "), " hi there ");
  EXPECT_EQ(aeval::text::whisper_basic_normalize("¿Qué tal?"), " qué tal ");
  EXPECT_EQ(aeval::text::whisper_basic_normalize("¿Qué tal?", {.remove_diacritics = true}), " que tal ");
  EXPECT_EQ(aeval::text::whisper_basic_normalize("x² ½"), "x2 1 2");
}

// Long texts (a 1 MB reference) go through the same passes as a sentence. The
// sentence below starts and ends with a plain word and closes its brackets, so
// that no rule of whisper's normalizer reaches across it: N copies normalize
// to N copies of its normalization.
std::string repeated(std::string_view text, int copies, std::string_view separator) {
  std::string out;
  for (int i = 0; i < copies; ++i) {
    if (i) out += separator;
    out += text;
  }
  return out;
}

TEST(WhisperNormalizer, LongTextIsItsSentencesNormalized) {
  const EnglishTextNormalizer n{SpellingTable{}};
  const std::string sentence =
      "Mr. Park's café can't pay $20 million for two hundred and fifty-one items (roughly) [noise], "
      "uh she's been like 10km away — said Dr Jones";
  const std::string one = n(sentence);
  ASSERT_EQ(one, "mister park is cafe can not pay $20000000 for 251 items she has been like 10 km away said doctor jones");
  EXPECT_EQ(n(repeated(sentence, 2000, " ")), repeated(one, 2000, " "));
}

TEST(WhisperNormalizer, LongRunsOfSpelledDigitsMakeOneNumber) {
  const EnglishNumberNormalizer n;
  EXPECT_EQ(n(repeated("one two three four five six seven eight nine oh", 2000, " ")), repeated("1234567890", 2000, ""));
  // "twenty one" twice is "2121": the tens' zero gives way to the digit each time.
  EXPECT_EQ(n(repeated("twenty one", 2000, " ")), repeated("21", 2000, ""));
}

TEST(WhisperNormalizer, InvalidUtf8AtTheEndOfALongTextIsAnError) {
  const EnglishNumberNormalizer n;
  EXPECT_THROW(n(repeated("one and a half apples", 2000, " ") + "\xff"), aeval::Error);
}

TEST(WhisperNormalizer, SpellingTableFromFile) {
  aeval::testing::TempDir dir;
  aeval::testing::write_bytes(dir / "english.json", R"({"colour": "color", "mobilisation": "mobilization"})");
  const EnglishTextNormalizer n(aeval::text::read_spelling_table(dir / "english.json"));
  EXPECT_EQ(n("The Colour of mobilisation"), "the color of mobilization");
  EXPECT_TRUE(n.spelling().available());
  EXPECT_EQ(n.spelling().sha256.size(), 64u);
}

TEST(WhisperNormalizer, MalformedSpellingTableIsAClearError) {
  aeval::testing::TempDir dir;
  aeval::testing::write_bytes(dir / "english.json", R"({"colour": )");
  try {
    aeval::text::read_spelling_table(dir / "english.json");
    FAIL() << "no error";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("english.json"), std::string::npos);
  }
}

TEST(WhisperNormalizer, FetchFailsClearlyOffline) {
  aeval::testing::TempDir dir;
  // A port nothing listens on stands in for a machine without network.
  try {
    aeval::download_verified("http://127.0.0.1:9/english.json", dir / "english.json", aeval::text::kWhisperSpellingSha256);
    FAIL() << "no error";
  } catch (const aeval::Error& e) {
    EXPECT_EQ(e.category(), aeval::ErrorCategory::network);
    EXPECT_NE(std::string(e.what()).find("by hand"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "english.json"));
}

}  // namespace
