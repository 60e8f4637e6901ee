// Whisper BasicTextNormalizer and its symbol removers (openai/whisper c0d2f62,
// whisper/normalizers/basic.py); shared/specs/metric-specs.md §2.1.
#include <string_view>

#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "aeval/text/whisper_normalizers.hpp"
#include "text/whisper_patterns.hpp"

namespace aeval::text {

namespace {

// Letters NFKD does not decompose, spelled out as whisper does.
std::u32string_view additional_diacritic(char32_t c) {
  switch (c) {
    case U'œ': return U"oe";
    case U'Œ': return U"OE";
    case U'ø': return U"o";
    case U'Ø': return U"O";
    case U'æ': return U"ae";
    case U'Æ': return U"AE";
    case U'ß': return U"ss";
    case U'ẞ': return U"SS";
    case U'đ': return U"d";
    case U'Đ': return U"D";
    case U'ð': return U"d";
    case U'Ð': return U"D";
    case U'þ': return U"th";
    case U'Þ': return U"th";
    case U'ł': return U"l";
    case U'Ł': return U"L";
    default: return {};
  }
}

bool is_mark_symbol_or_punctuation(char32_t c) {
  const char major = general_category(c)[0];
  return major == 'M' || major == 'S' || major == 'P';
}

}  // namespace

std::string remove_symbols(std::string_view s) {
  std::u32string out;
  for (char32_t c : to_u32(nfkc(s))) out.push_back(is_mark_symbol_or_punctuation(c) ? U' ' : c);
  return to_utf8(out);
}

std::string remove_symbols_and_diacritics(std::string_view s, std::u32string_view keep) {
  std::u32string out;
  for (char32_t c : to_u32(nfkd(s))) {
    if (keep.find(c) != std::u32string_view::npos) {
      out.push_back(c);
    } else if (auto spelled = additional_diacritic(c); !spelled.empty()) {
      out.append(spelled);
    } else if (std::string_view(general_category(c)) == "Mn") {
      // dropped
    } else {
      out.push_back(is_mark_symbol_or_punctuation(c) ? U' ' : c);
    }
  }
  return to_utf8(out);
}

std::string whisper_basic_normalize(std::string_view input, BasicNormalizerOptions options) {
  const auto& p = whisper_patterns();
  std::string s = lower(input);
  s = p.bracketed.sub(s, "");
  s = p.parenthesised.sub(s, "");
  s = lower(options.remove_diacritics ? remove_symbols_and_diacritics(s) : remove_symbols(s));
  if (options.split_letters) s = join(grapheme_clusters(s), " ");
  return p.whitespace_run.sub(s, " ");
}

}  // namespace aeval::text
