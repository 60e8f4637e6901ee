#pragma once
// Python 3 string semantics that the reference metrics depend on
// (shared/specs/metric-specs.md, "Python semantics"): str.isspace, split,
// strip, lower, unicodedata.normalize and unicodedata.category.
// Strings are UTF-8 throughout; ICU supplies the Unicode tables.
#include <string>
#include <string_view>
#include <vector>

namespace aeval::text {

std::u32string to_u32(std::string_view utf8);
std::string to_utf8(std::u32string_view text);
std::string to_utf8(char32_t c);

// str.isascii().
bool is_ascii(std::string_view s);

// str.isspace() for one code point (includes \x1c-\x1f and \x85, unlike \p{White_Space}).
bool is_space(char32_t c);

// str.split() with no argument: runs of Unicode whitespace, no empty pieces.
std::vector<std::string> split_whitespace(std::string_view s);
// str.strip() with no argument.
std::string strip(std::string_view s);
// " ".join(pieces)
std::string join(const std::vector<std::string>& pieces, std::string_view separator);

// str.lower(): full Unicode lowercase mapping (İ → i̇, final sigma).
std::string lower(std::string_view s);
// str.upper(): full Unicode uppercase mapping (ß → SS).
std::string upper(std::string_view s);

// unicodedata.normalize('NFD' | 'NFKC' | 'NFKD', s).
std::string nfd(std::string_view s);
std::string nfkc(std::string_view s);
std::string nfkd(std::string_view s);

// unicodedata.category(c), e.g. "Mn", "Zs", "Lu".
const char* general_category(char32_t c);

// regex \X: extended grapheme clusters.
std::vector<std::string> grapheme_clusters(std::string_view s);

// Value of a Unicode decimal digit (category Nd), or -1.
int decimal_digit_value(char32_t c);

}  // namespace aeval::text
