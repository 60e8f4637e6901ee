#include "aeval/text/unicode.hpp"

#include <unicode/brkiter.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <memory>

#include "aeval/error.hpp"

namespace aeval::text {

std::u32string to_u32(std::string_view utf8) {
  std::u32string out;
  out.reserve(utf8.size());
  const auto* bytes = reinterpret_cast<const uint8_t*>(utf8.data());
  const auto length = static_cast<int32_t>(utf8.size());
  int32_t i = 0;
  while (i < length) {
    UChar32 c;
    U8_NEXT(bytes, i, length, c);
    out.push_back(c < 0 ? U'\uFFFD' : char32_t(c));  // invalid bytes become U+FFFD
  }
  return out;
}

std::string to_utf8(char32_t c) {
  char buf[4];
  int32_t n = 0;
  UBool error = false;
  U8_APPEND(reinterpret_cast<uint8_t*>(buf), n, 4, UChar32(c), error);
  if (error) return "\xEF\xBF\xBD";
  return std::string(buf, static_cast<std::size_t>(n));
}

std::string to_utf8(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char32_t c : text) out += to_utf8(c);
  return out;
}

bool is_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

bool is_ascii(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

std::vector<std::string> split_whitespace(std::string_view s) {
  std::vector<std::string> out;
  if (is_ascii(s)) {  // fast path: the ASCII whitespace of str.isspace()
    std::size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && is_space(char32_t(s[i]))) ++i;
      const std::size_t start = i;
      while (i < s.size() && !is_space(char32_t(s[i]))) ++i;
      if (i > start) out.emplace_back(s.substr(start, i - start));
    }
    return out;
  }
  std::u32string current;
  for (char32_t c : to_u32(s)) {
    if (is_space(c)) {
      if (!current.empty()) out.push_back(to_utf8(current));
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) out.push_back(to_utf8(current));
  return out;
}

std::string strip(std::string_view s) {
  if (is_ascii(s)) {  // fast path: nothing to decode, nothing invalid to replace
    std::size_t begin = 0, end = s.size();
    while (begin < end && is_space(char32_t(s[begin]))) ++begin;
    while (end > begin && is_space(char32_t(s[end - 1]))) --end;
    return std::string(s.substr(begin, end - begin));
  }
  const std::u32string u = to_u32(s);
  std::size_t begin = 0, end = u.size();
  while (begin < end && is_space(u[begin])) ++begin;
  while (end > begin && is_space(u[end - 1])) --end;
  return to_utf8(std::u32string_view(u).substr(begin, end - begin));
}

std::string join(const std::vector<std::string>& pieces, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (i) out += separator;
    out += pieces[i];
  }
  return out;
}

namespace {

icu::UnicodeString from_utf8(std::string_view s) {
  return icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
}

std::string utf8_of(const icu::UnicodeString& u) {
  std::string out;
  u.toUTF8String(out);
  return out;
}

enum class Form { nfd, nfkc, nfkd };

std::string normalize(std::string_view s, Form form) {
  if (is_ascii(s)) return std::string(s);  // every form leaves ASCII as it is
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* normalizer = form == Form::nfd    ? icu::Normalizer2::getNFDInstance(status)
                                       : form == Form::nfkc ? icu::Normalizer2::getNFKCInstance(status)
                                                            : icu::Normalizer2::getNFKDInstance(status);
  if (U_FAILURE(status)) throw Error(ErrorCategory::internal, "ICU normalizer unavailable");
  icu::UnicodeString result = normalizer->normalize(from_utf8(s), status);
  if (U_FAILURE(status)) throw Error(ErrorCategory::internal, "ICU normalization failed");
  return utf8_of(result);
}

}  // namespace

std::string lower(std::string_view s) {
  if (is_ascii(s)) {  // Python lowercases ASCII letter by letter
    std::string out(s);
    for (char& c : out)
      if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
  }
  icu::UnicodeString u = from_utf8(s);
  u.toLower(icu::Locale::getRoot());
  return utf8_of(u);
}

std::string upper(std::string_view s) {
  icu::UnicodeString u = from_utf8(s);
  u.toUpper(icu::Locale::getRoot());
  return utf8_of(u);
}

std::string nfd(std::string_view s) { return normalize(s, Form::nfd); }
std::string nfkc(std::string_view s) { return normalize(s, Form::nfkc); }
std::string nfkd(std::string_view s) { return normalize(s, Form::nfkd); }

const char* general_category(char32_t c) {
  switch (u_charType(UChar32(c))) {
    case U_UPPERCASE_LETTER: return "Lu";
    case U_LOWERCASE_LETTER: return "Ll";
    case U_TITLECASE_LETTER: return "Lt";
    case U_MODIFIER_LETTER: return "Lm";
    case U_OTHER_LETTER: return "Lo";
    case U_NON_SPACING_MARK: return "Mn";
    case U_COMBINING_SPACING_MARK: return "Mc";
    case U_ENCLOSING_MARK: return "Me";
    case U_DECIMAL_DIGIT_NUMBER: return "Nd";
    case U_LETTER_NUMBER: return "Nl";
    case U_OTHER_NUMBER: return "No";
    case U_SPACE_SEPARATOR: return "Zs";
    case U_LINE_SEPARATOR: return "Zl";
    case U_PARAGRAPH_SEPARATOR: return "Zp";
    case U_CONTROL_CHAR: return "Cc";
    case U_FORMAT_CHAR: return "Cf";
    case U_PRIVATE_USE_CHAR: return "Co";
    case U_SURROGATE: return "Cs";
    case U_DASH_PUNCTUATION: return "Pd";
    case U_START_PUNCTUATION: return "Ps";
    case U_END_PUNCTUATION: return "Pe";
    case U_CONNECTOR_PUNCTUATION: return "Pc";
    case U_OTHER_PUNCTUATION: return "Po";
    case U_INITIAL_PUNCTUATION: return "Pi";
    case U_FINAL_PUNCTUATION: return "Pf";
    case U_MATH_SYMBOL: return "Sm";
    case U_CURRENCY_SYMBOL: return "Sc";
    case U_MODIFIER_SYMBOL: return "Sk";
    case U_OTHER_SYMBOL: return "So";
    default: return "Cn";
  }
}

std::vector<std::string> grapheme_clusters(std::string_view s) {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::BreakIterator> it(
      icu::BreakIterator::createCharacterInstance(icu::Locale::getRoot(), status));
  if (U_FAILURE(status)) throw Error(ErrorCategory::internal, "ICU break iterator unavailable");
  const icu::UnicodeString u = from_utf8(s);
  it->setText(u);
  std::vector<std::string> out;
  int32_t start = it->first();
  for (int32_t end = it->next(); end != icu::BreakIterator::DONE; start = end, end = it->next())
    out.push_back(utf8_of(icu::UnicodeString(u, start, end - start)));
  return out;
}

int decimal_digit_value(char32_t c) {
  return u_charType(UChar32(c)) == U_DECIMAL_DIGIT_NUMBER ? u_charDigitValue(UChar32(c)) : -1;
}

}  // namespace aeval::text
