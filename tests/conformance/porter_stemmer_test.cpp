// NLTK PorterStemmer (three modes) against shared/reference/porter_stemmer.jsonl.
#include <gtest/gtest.h>

#include "aeval/text/porter_stemmer.hpp"
#include "support/reference.hpp"

namespace {

using aeval::text::PorterMode;

TEST(PorterStemmerConformance, AllModes) {
  AEVAL_REQUIRE_GOLDEN(records, "porter_stemmer.jsonl");
  for (const auto& r : records) {
    const std::string word = r["input"];
    const auto& e = r["expected"];
    EXPECT_EQ(e["nltk_extensions"].get<std::string>(), aeval::text::porter_stem(word)) << word;
    EXPECT_EQ(e["martin_extensions"].get<std::string>(), aeval::text::porter_stem(word, PorterMode::martin_extensions))
        << word;
    EXPECT_EQ(e["original_algorithm"].get<std::string>(),
              aeval::text::porter_stem(word, PorterMode::original_algorithm))
        << word;
  }
}

}  // namespace
