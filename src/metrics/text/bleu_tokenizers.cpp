// sacreBLEU 2.6.0 tokenizers: 13a (mteval-v13a), intl (mteval-v14
// international), zh, char, none; shared/specs/metric-specs.md §3.1.
#include <array>

#include "aeval/error.hpp"
#include "aeval/metrics/bleu.hpp"
#include "aeval/text/japanese_tokenizer.hpp"
#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::metrics {

namespace {

struct Patterns {
  text::Regex punctuation{R"(([\{-\~\[-\` -\&\(-\+\:-\@\/]))"};
  text::Regex period_comma_after_non_digit{R"(([^0-9])([\.,]))"};
  text::Regex period_comma_before_non_digit{R"(([\.,])([^0-9]))"};
  text::Regex dash_after_digit{R"(([0-9])(-))"};
  text::Regex intl_punct_after_non_number{R"((\P{N})(\p{P}))"};
  text::Regex intl_punct_before_non_number{R"((\p{P})(\P{N}))"};
  text::Regex intl_symbol{R"((\p{S}))"};
};

const Patterns& patterns() {
  static const Patterns p;
  return p;
}

std::string collapse_whitespace(std::string_view s) { return text::join(text::split_whitespace(s), " "); }

// mteval's four regular expressions, then whitespace normalisation.
std::string regexp_rules(std::string_view line) {
  const auto& p = patterns();
  std::string s = p.punctuation.sub(line, " \\1 ");
  s = p.period_comma_after_non_digit.sub(s, "\\1 \\2 ");
  s = p.period_comma_before_non_digit.sub(s, " \\1 \\2");
  s = p.dash_after_digit.sub(s, "\\1 \\2 ");
  return collapse_whitespace(s);
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

std::string tokenize_13a(std::string_view line) {
  std::string s(line);
  replace_all(s, "<skipped>", "");
  replace_all(s, "-\n", "");
  replace_all(s, "\n", " ");
  if (s.find('&') != std::string::npos) {
    replace_all(s, "&quot;", "\"");
    replace_all(s, "&amp;", "&");
    replace_all(s, "&lt;", "<");
    replace_all(s, "&gt;", ">");
  }
  return regexp_rules(" " + s + " ");
}

// sacreBLEU's _is_chinese_char compares 2-character Python strings for two of
// its ranges ('\u20000' is U+2000 followed by '0'); these are the code-point
// ranges that comparison actually selects.
bool is_chinese_char(char32_t c) {
  static constexpr std::array<std::pair<char32_t, char32_t>, 22> kRanges{{
      {0x3400, 0x4DB5}, {0x4E00, 0x9FA5}, {0x9FA6, 0x9FBB}, {0xF900, 0xFA2D}, {0xFA30, 0xFA6A},
      {0xFA70, 0xFAD9}, {0x2001, 0x2A6D}, {0x2F81, 0x2FA1}, {0xFF00, 0xFFEF}, {0x2E80, 0x2EFF},
      {0x3000, 0x303F}, {0x31C0, 0x31EF}, {0x2F00, 0x2FDF}, {0x2FF0, 0x2FFF}, {0x3100, 0x312F},
      {0x31A0, 0x31BF}, {0xFE10, 0xFE1F}, {0xFE30, 0xFE4F}, {0x2600, 0x26FF}, {0x2700, 0x27BF},
      {0x3200, 0x32FF}, {0x3300, 0x33FF},
  }};
  for (const auto& [lo, hi] : kRanges)
    if (c >= lo && c <= hi) return true;
  return false;
}

std::string tokenize_zh(std::string_view line) {
  std::u32string out;
  for (char32_t c : text::to_u32(text::strip(line))) {
    if (is_chinese_char(c)) {
      out.push_back(U' ');
      out.push_back(c);
      out.push_back(U' ');
    } else {
      out.push_back(c);
    }
  }
  return regexp_rules(text::to_utf8(out));
}

std::string tokenize_intl(std::string_view line) {
  const auto& p = patterns();
  std::string s = p.intl_punct_after_non_number.sub(line, "\\1 \\2 ");
  s = p.intl_punct_before_non_number.sub(s, " \\1 \\2");
  s = p.intl_symbol.sub(s, " \\1 ");
  return collapse_whitespace(s);
}

std::string tokenize_char(std::string_view line) {
  std::string out;
  for (char32_t c : text::to_u32(line)) {
    if (!out.empty()) out += ' ';
    out += text::to_utf8(c);
  }
  return out;
}

}  // namespace

std::string bleu_tokenize(std::string_view line, const std::string& tokenizer) {
  if (tokenizer == "13a") return tokenize_13a(line);
  if (tokenizer == "intl") return tokenize_intl(line);
  if (tokenizer == "zh") return tokenize_zh(line);
  if (tokenizer == "char") return tokenize_char(line);
  if (tokenizer == "ja-mecab") return text::sacrebleu_japanese_tokenizer()(line);
  if (tokenizer == "none") return std::string(line);
  throw Error(ErrorCategory::config, "unknown BLEU tokenizer '" + tokenizer + "' (13a, intl, zh, char, ja-mecab, none)");
}

}  // namespace aeval::metrics
