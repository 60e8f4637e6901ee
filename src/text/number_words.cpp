// num2words 0.5.10's English cardinals, on decimal strings so that numbers of
// any length (num2words goes up to 10^306) need no big-integer library.
//
// num2words splits a number n by its largest "card" c <= n (10^3k names, 100,
// the tens, 0-20) into div = n / c, c and mod = n % c, spells div and mod
// recursively and merges the pieces pairwise: (div, c) first, then that with
// mod. Every merge of Num2Word_EN.merge that can arise is spelled out below.
#include "aeval/text/number_words.hpp"

#include <array>

#include "aeval/text/unicode.hpp"

namespace aeval::text {

namespace {

constexpr std::array<const char*, 21> kLow = {
    "zero", "one",   "two",    "three",    "four",     "five",    "six",
    "seven", "eight", "nine",  "ten",      "eleven",   "twelve",  "thirteen",
    "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"};
constexpr std::array<const char*, 10> kTens = {"", "", "twenty", "thirty", "forty",
                                               "fifty", "sixty", "seventy", "eighty", "ninety"};

// Largest exponent num2words names (10^303, "centillion"); it refuses n >= 1000 * 10^303.
constexpr std::size_t kLargestPower = 303;

// The name of 10^k for k = 3, 6, ..., 303: thousand, then the Latin prefixes of
// num2words' European table (lang_EU) with "illion".
std::string power_name(std::size_t k) {
  if (k == 3) return "thousand";
  static constexpr std::array<const char*, 10> units = {"",    "un",   "duo",  "tre",  "quattuor",
                                                        "quin", "sex", "sept", "octo", "novem"};
  static constexpr std::array<const char*, 9> tens = {"dec",         "vigint",     "trigint",
                                                      "quadragint",  "quinquagint", "sexagint",
                                                      "septuagint",  "octogint",   "nonagint"};
  static constexpr std::array<const char*, 9> small = {"m", "b", "tr", "quadr", "quint", "sext", "sept", "oct", "non"};
  const std::size_t n = k / 3 - 1;  // million is 1, billion 2, ..., centillion 100
  if (n <= small.size()) return std::string(small[n - 1]) + "illion";
  if (n == 100) return "centillion";
  const std::size_t latin = n - 10;  // 0 = decillion
  return std::string(units[latin % 10]) + tens[latin / 10] + "illion";
}

std::string_view without_leading_zeros(std::string_view digits) {
  const auto first = digits.find_first_not_of('0');
  return first == std::string_view::npos ? std::string_view("0") : digits.substr(first);
}

// Words of n (decimal, no leading zeros, below 10^306).
std::string spell(std::string_view n) {
  if (n.size() <= 2 && std::stoi(std::string(n)) <= 20) return kLow[std::stoi(std::string(n))];
  if (n.size() == 2) {  // tens, then "-unit": merge(("forty", 40), ("five", 5))
    const std::string tens = kTens[n[0] - '0'];
    return n[1] == '0' ? tens : tens + "-" + kLow[n[1] - '0'];
  }
  // n = div * 10^k + mod with div < 1000 (k = 2 for hundreds).
  const std::size_t k = n.size() == 3 ? 2 : (n.size() - 1) / 3 * 3;
  const std::string_view div = n.substr(0, n.size() - k);
  const std::string_view mod = without_leading_zeros(n.substr(n.size() - k));
  std::string words = (div == "1" ? std::string("one") : spell(div)) + " " + (k == 2 ? "hundred" : power_name(k));
  if (mod == "0") return words;
  // The whole part is >= 100; a remainder below 100 joins with "and", a larger one with ", ".
  return words + (mod.size() <= 2 ? " and " : ", ") + spell(mod);
}

}  // namespace

std::optional<std::string> english_cardinal(std::string_view digits) {
  const std::string_view n = without_leading_zeros(digits);
  if (n.size() > kLargestPower + 3) return std::nullopt;
  return spell(n);
}

std::string spell_out_numbers(std::string_view text) {
  const std::u32string in = to_u32(text);
  std::string out, digits;
  const auto flush = [&]() -> bool {
    if (digits.empty()) return true;
    const auto words = english_cardinal(digits);
    if (!words) return false;
    out += " " + *words + " ";
    digits.clear();
    return true;
  };
  for (const char32_t c : in) {
    if (const int d = decimal_digit_value(c); d >= 0) {
      digits += char('0' + d);
      continue;
    }
    if (!flush()) return std::string(text);
    out += to_utf8(c);
  }
  if (!flush()) return std::string(text);
  return out;
}

}  // namespace aeval::text
