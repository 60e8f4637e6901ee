#pragma once
// Whisper's text normalizers (openai/whisper c0d2f62, whisper/normalizers),
// reproduced output-for-output; shared/specs/metric-specs.md §2.
#include <memory>
#include <string>
#include <string_view>

#include "aeval/text/spelling_table.hpp"

namespace aeval::text {

// Every mark, symbol and punctuation character (NFKC) becomes a space.
std::string remove_symbols(std::string_view s);
// NFKD; code points in `keep` stay, a few letters are spelled out (æ → ae),
// nonspacing marks are dropped, other marks/symbols/punctuation become spaces.
std::string remove_symbols_and_diacritics(std::string_view s, std::u32string_view keep = U"");

struct BasicNormalizerOptions {
  bool remove_diacritics = false;
  bool split_letters = false;  // one token per grapheme cluster
};

// BasicTextNormalizer: lowercase, drop bracketed/parenthesised spans, symbols
// to spaces, collapse whitespace. The output is not stripped.
std::string whisper_basic_normalize(std::string_view s, BasicNormalizerOptions options = {});

// EnglishNumberNormalizer: spelled-out numbers, currencies and percentages to digits.
class EnglishNumberNormalizer {
 public:
  EnglishNumberNormalizer();
  ~EnglishNumberNormalizer();
  std::string operator()(std::string_view s) const;

  struct Tables;  // word tables and patterns, defined in the source file

 private:
  std::unique_ptr<const Tables> tables_;
};

// EnglishSpellingNormalizer: British → American spellings, word by word.
std::string apply_spelling(const SpellingTable& table, std::string_view s);

// EnglishTextNormalizer: contractions, titles, fillers, numbers, spellings.
class EnglishTextNormalizer {
 public:
  explicit EnglishTextNormalizer(SpellingTable spelling);
  std::string operator()(std::string_view s) const;
  const SpellingTable& spelling() const { return spelling_; }

 private:
  SpellingTable spelling_;
  EnglishNumberNormalizer numbers_;
};

}  // namespace aeval::text
