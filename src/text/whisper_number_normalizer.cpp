// Whisper EnglishNumberNormalizer (openai/whisper c0d2f62,
// whisper/normalizers/english.py); shared/specs/metric-specs.md §2.2.
// A left-to-right state machine over words with a (previous, current, next)
// window. Python integers are unbounded ("decillion" is 10^33), so integer
// values are kept as canonical decimal strings with the few operations the
// algorithm needs.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "aeval/text/whisper_normalizers.hpp"

namespace aeval::text {

namespace {

// ---- unbounded non-negative integers as decimal strings -------------------

std::string canonical(std::string digits) {
  const auto first = digits.find_first_not_of('0');
  return first == std::string::npos ? "0" : digits.substr(first);
}

std::string add(const std::string& a, const std::string& b) {
  std::string out;  // least significant digit first
  int carry = 0;
  for (std::size_t i = 0; i < std::max(a.size(), b.size()) || carry; ++i) {
    int d = carry;
    if (i < a.size()) d += a[a.size() - 1 - i] - '0';
    if (i < b.size()) d += b[b.size() - 1 - i] - '0';
    out.push_back(char('0' + d % 10));
    carry = d / 10;
  }
  std::reverse(out.begin(), out.end());
  return canonical(out);
}

int last_digits(const std::string& a, std::size_t count) {
  return std::stoi(a.size() <= count ? a : a.substr(a.size() - count));
}

std::string times_pow10(const std::string& a, std::size_t zeros) {
  return a == "0" ? a : a + std::string(zeros, '0');
}

// value // 1000 * 1000 + value % 1000 * 10^zeros
std::string scale_last_group(const std::string& a, std::size_t zeros) {
  const std::string before = a.size() <= 3 ? "0" : a.substr(0, a.size() - 3) + "000";
  return add(before, times_pow10(std::to_string(last_digits(a, 3)), zeros));
}

// Fraction(text) for the forms this algorithm produces ("12", "1.5", "3.",
// ".5"; Unicode decimal digits allowed), multiplied by 10^zeros. Returns the
// numerator when the product is an integer, nothing when it is not or when
// Fraction() would raise.
std::optional<std::string> integer_times_pow10(std::string_view text, std::size_t zeros) {
  std::string whole, fraction;
  bool seen_point = false;
  for (char32_t c : to_u32(text)) {
    if (c == U'.' && !seen_point) {
      seen_point = true;
      continue;
    }
    const int d = decimal_digit_value(c);
    if (d < 0) return std::nullopt;
    (seen_point ? fraction : whole).push_back(char('0' + d));
  }
  if (whole.empty() && fraction.empty()) return std::nullopt;
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  if (fraction.size() > zeros) return std::nullopt;
  return canonical(whole + fraction + std::string(zeros - fraction.size(), '0'));
}

// s[:-1] of valid UTF-8 (the regexes have rejected invalid input before).
std::string_view without_last_code_point(std::string_view s) {
  std::size_t end = s.size();
  while (end > 0 && (static_cast<unsigned char>(s[end - 1]) & 0xC0) == 0x80) --end;
  return s.substr(0, end > 0 ? end - 1 : 0);
}

// A Python value that is either an int (canonical digits) or a str.
struct Value {
  bool is_int;
  std::string text;
  bool truthy() const { return !(is_int ? text == "0" : text.empty()); }
};

Value integer(std::string digits) { return {true, std::move(digits)}; }
Value string(std::string text) { return {false, std::move(text)}; }

struct Suffixed {
  int value;
  std::string suffix;
};

}  // namespace

struct EnglishNumberNormalizer::Tables {
  std::set<std::string> zeros{"o", "oh", "zero"};
  std::map<std::string, int> ones, tens;
  std::map<std::string, Suffixed> ones_suffixed, tens_suffixed;
  std::map<std::string, std::size_t> multipliers;  // name → power of ten
  std::map<std::string, std::pair<std::size_t, std::string>> multipliers_suffixed;
  std::map<std::string, std::string> preceding_prefixers{
      {"minus", "-"}, {"negative", "-"}, {"plus", "+"}, {"positive", "+"}};
  std::map<std::string, std::string> following_prefixers{
      {"pound", "£"}, {"pounds", "£"}, {"euro", "€"}, {"euros", "€"},
      {"dollar", "$"}, {"dollars", "$"}, {"cent", "¢"}, {"cents", "¢"}};
  std::u32string prefixes = U"-+£€$¢";
  std::set<std::string> specials{"and", "double", "triple", "point"};
  std::set<std::string> words, decimals;

  Regex numeric{R"(^\d+(\.\d+)?$)"};
  Regex and_a_half{R"(\band\s+a\s+half\b)"};
  Regex half_a_multiplier{""};
  Regex letter_digit{"([a-z])([0-9])"};
  Regex digit_letter{"([0-9])([a-z])"};
  Regex split_suffix{R"(([0-9])\s+(st|nd|rd|th|s)\b)"};
  Regex cents_after_amount{R"(([€£$])([0-9]+) (?:and )?¢([0-9]{1,2})\b)"};
  Regex cents_only{R"([€£$]0.([0-9]{1,2})\b)"};
  Regex one{R"(\b1(s?)\b)"};

  Tables() {
    const char* one_names[] = {"one", "two", "three", "four", "five", "six", "seven",
                               "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
                               "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
    for (int i = 0; i < 19; ++i) ones[one_names[i]] = i + 1;
    for (const auto& [name, value] : ones)
      ones_suffixed[name == "six" ? "sixes" : name + "s"] = {value, "s"};
    ones_suffixed["zeroth"] = {0, "th"};
    ones_suffixed["first"] = {1, "st"};
    ones_suffixed["second"] = {2, "nd"};
    ones_suffixed["third"] = {3, "rd"};
    ones_suffixed["fifth"] = {5, "th"};
    ones_suffixed["twelfth"] = {12, "th"};
    for (const auto& [name, value] : ones) {
      // whisper's rule, quirks included: "eighth" but also "nineth"
      if (value > 3 && value != 5 && value != 12)
        ones_suffixed[name + (name.back() == 't' ? "h" : "th")] = {value, "th"};
    }
    const char* ten_names[] = {"twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};
    for (int i = 0; i < 8; ++i) {
      const std::string name = ten_names[i];
      const int value = 20 + 10 * i;
      tens[name] = value;
      const std::string stem = name.substr(0, name.size() - 1);  // each has exactly one final 'y'
      tens_suffixed[stem + "ies"] = {value, "s"};
      tens_suffixed[stem + "ieth"] = {value, "th"};
    }
    const char* multiplier_names[] = {"hundred", "thousand", "million", "billion", "trillion",
                                      "quadrillion", "quintillion", "sextillion", "septillion",
                                      "octillion", "nonillion", "decillion"};
    for (int i = 0; i < 12; ++i) {
      const std::size_t zeros = i == 0 ? 2 : std::size_t(3 * i);
      multipliers[multiplier_names[i]] = zeros;
      multipliers_suffixed[std::string(multiplier_names[i]) + "s"] = {zeros, "s"};
      multipliers_suffixed[std::string(multiplier_names[i]) + "th"] = {zeros, "th"};
    }

    auto add_keys = [&](const auto& mapping) {
      for (const auto& entry : mapping) words.insert(entry.first);
    };
    words.insert(zeros.begin(), zeros.end());
    words.insert(specials.begin(), specials.end());
    words.insert("per");
    words.insert("percent");
    add_keys(ones), add_keys(ones_suffixed), add_keys(tens), add_keys(tens_suffixed);
    add_keys(multipliers), add_keys(multipliers_suffixed);
    add_keys(preceding_prefixers), add_keys(following_prefixers);
    for (const auto& [name, value] : ones) decimals.insert(name);
    for (const auto& [name, value] : tens) decimals.insert(name);
    decimals.insert(zeros.begin(), zeros.end());

    // Longest names first so that no alternative shadows a longer one.
    std::vector<std::string> names;
    for (const auto& [name, zeros] : multipliers) names.push_back(name);
    std::stable_sort(names.begin(), names.end(),
                     [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    half_a_multiplier = Regex(R"(\b(?:a\s+half\s+|half\s+(?:a\s+)?)()" + join(names, "|") + R"()\b)");
  }
};

EnglishNumberNormalizer::EnglishNumberNormalizer() : tables_(std::make_unique<const Tables>()) {}
EnglishNumberNormalizer::~EnglishNumberNormalizer() = default;

namespace {

class WordMachine {
 public:
  explicit WordMachine(const EnglishNumberNormalizer::Tables& t) : t_(t) {}

  std::vector<std::string> run(const std::vector<std::string>& words) {
    bool skip = false;
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (skip) {
        skip = false;
        continue;
      }
      const std::string* prev = i > 0 ? &words[i - 1] : nullptr;
      const std::string* next = i + 1 < words.size() ? &words[i + 1] : nullptr;
      skip = step(prev, words[i], next);
    }
    if (value_) emit_value();
    return std::move(out_);
  }

 private:
  template <class Map>
  static bool in(const Map& m, const std::string* word) {
    return word && m.count(*word) > 0;
  }

  void emit(std::string result) {
    if (prefix_) result = *prefix_ + result;
    value_.reset();
    prefix_.reset();
    out_.push_back(std::move(result));
  }
  void emit_value() { emit(value_->text); }
  // value = str(value) + more, and value = str(value or "") + more: in place,
  // so that a long run of spelled-out digits costs linear time.
  void append(std::string_view more) {
    value_->is_int = false;
    value_->text += more;
  }
  void append_to_truthy(std::string_view more) {
    if (!value_ || !value_->truthy()) value_ = string("");
    append(more);
  }

  // Returns true when the next word was consumed.
  bool step(const std::string* prev, const std::string& current, const std::string* next) {
    const bool next_is_numeric = next && t_.numeric.match(*next);
    const std::u32string cur32 = to_u32(current);
    const bool has_prefix = t_.prefixes.find(cur32[0]) != std::u32string::npos;
    const std::string without_prefix = has_prefix ? to_utf8(cur32.substr(1)) : current;

    if (t_.numeric.match(without_prefix)) {
      if (value_) {
        if (!value_->is_int && value_->text.ends_with(".")) {  // decimals, IP address parts
          value_->text += current;
          return false;
        }
        emit_value();
      }
      if (has_prefix) prefix_ = to_utf8(cur32[0]);
      if (auto whole = integer_times_pow10(without_prefix, 0)) {
        value_ = integer(*whole);
      } else {
        value_ = string(without_prefix);
      }
    } else if (!t_.words.count(current)) {
      if (value_) emit_value();
      emit(current);
    } else if (t_.zeros.count(current)) {
      append_to_truthy("0");
    } else if (auto o = t_.ones.find(current); o != t_.ones.end()) {
      const int ones = o->second;
      if (!value_) {
        value_ = integer(std::to_string(ones));
      } else if (!value_->is_int || in(t_.ones, prev)) {
        if (in(t_.tens, prev) && ones < 10)  // replace the tens' zero with the digit
          value_->text.resize(without_last_code_point(value_->text).size());
        append(std::to_string(ones));
      } else if (last_digits(value_->text, ones < 10 ? 1 : 2) == 0) {
        value_ = integer(add(value_->text, std::to_string(ones)));
      } else {
        append(std::to_string(ones));
      }
    } else if (auto os = t_.ones_suffixed.find(current); os != t_.ones_suffixed.end()) {
      const int ones = os->second.value;
      const std::string& suffix = os->second.suffix;
      if (!value_) {
        emit(std::to_string(ones) + suffix);
      } else if (!value_->is_int || in(t_.ones, prev)) {
        if (in(t_.tens, prev) && ones < 10)
          emit(std::string(without_last_code_point(value_->text)) + std::to_string(ones) + suffix);
        else
          emit(value_->text + std::to_string(ones) + suffix);
      } else if (last_digits(value_->text, ones < 10 ? 1 : 2) == 0) {
        emit(add(value_->text, std::to_string(ones)) + suffix);
      } else {
        emit(value_->text + std::to_string(ones) + suffix);
      }
      value_.reset();
    } else if (auto te = t_.tens.find(current); te != t_.tens.end()) {
      const std::string tens = std::to_string(te->second);
      if (!value_) {
        value_ = integer(tens);
      } else if (!value_->is_int) {
        append(tens);
      } else if (last_digits(value_->text, 2) == 0) {
        value_ = integer(add(value_->text, tens));
      } else {
        append(tens);
      }
    } else if (auto ts = t_.tens_suffixed.find(current); ts != t_.tens_suffixed.end()) {
      const std::string tens = std::to_string(ts->second.value);
      const std::string& suffix = ts->second.suffix;
      if (!value_) {
        emit(tens + suffix);
      } else if (!value_->is_int) {
        emit(value_->text + tens + suffix);
      } else if (last_digits(value_->text, 2) == 0) {
        emit(add(value_->text, tens) + suffix);
      } else {
        emit(value_->text + tens + suffix);
      }
    } else if (auto m = t_.multipliers.find(current); m != t_.multipliers.end()) {
      const std::size_t zeros = m->second;
      const std::string multiplier = times_pow10("1", zeros);
      if (!value_) {
        value_ = integer(multiplier);
      } else if (!value_->is_int || value_->text == "0") {
        if (auto product = integer_times_pow10(value_->text, zeros)) {
          value_ = integer(*product);
        } else {
          emit_value();
          value_ = integer(multiplier);
        }
      } else {
        value_ = integer(scale_last_group(value_->text, zeros));
      }
    } else if (auto ms = t_.multipliers_suffixed.find(current); ms != t_.multipliers_suffixed.end()) {
      const auto& [zeros, suffix] = ms->second;
      if (!value_) {
        emit(times_pow10("1", zeros) + suffix);
      } else if (!value_->is_int) {
        if (auto product = integer_times_pow10(value_->text, zeros)) {
          emit(*product + suffix);
        } else {
          emit_value();
          emit(times_pow10("1", zeros) + suffix);
        }
      } else {
        emit(scale_last_group(value_->text, zeros) + suffix);
      }
      value_.reset();
    } else if (auto pp = t_.preceding_prefixers.find(current); pp != t_.preceding_prefixers.end()) {
      if (value_) emit_value();
      if (in(t_.words, next) || next_is_numeric)
        prefix_ = pp->second;
      else
        emit(current);
    } else if (auto fp = t_.following_prefixers.find(current); fp != t_.following_prefixers.end()) {
      if (value_) {
        prefix_ = fp->second;
        emit_value();
      } else {
        emit(current);
      }
    } else if (current == "per" || current == "percent") {
      if (!value_) {
        emit(current);
      } else if (current == "percent") {
        emit(value_->text + "%");
      } else if (next && *next == "cent") {
        emit(value_->text + "%");
        return true;
      } else {
        emit_value();
        emit(current);
      }
    } else {  // the specials: and, double, triple, point
      if (!in(t_.words, next) && !next_is_numeric) {
        if (value_) emit_value();
        emit(current);
      } else if (current == "and") {
        if (!in(t_.multipliers, prev)) {  // "and" after hundreds, thousands... is dropped
          if (value_) emit_value();
          emit(current);
        }
      } else if (current == "double" || current == "triple") {
        if (in(t_.ones, next) || in(t_.zeros, next)) {
          const int repeats = current == "double" ? 2 : 3;
          const auto o2 = t_.ones.find(*next);
          const std::string digit = std::to_string(o2 == t_.ones.end() ? 0 : o2->second);
          std::string repeated;
          for (int r = 0; r < repeats; ++r) repeated += digit;
          append_to_truthy(repeated);
          return true;
        }
        if (value_) emit_value();
        emit(current);
      } else if (in(t_.decimals, next) || next_is_numeric) {  // "point"
        append_to_truthy(".");
      }
    }
    return false;
  }

  const EnglishNumberNormalizer::Tables& t_;
  std::optional<std::string> prefix_;
  std::optional<Value> value_;
  std::vector<std::string> out_;
};

}  // namespace

std::string EnglishNumberNormalizer::operator()(std::string_view input) const {
  const Tables& t = *tables_;

  // "<number> and a half" → "<number> point five"
  std::vector<std::string> results;
  const std::vector<std::string> segments = t.and_a_half.split(input);
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& segment = segments[i];
    if (strip(segment).empty()) continue;
    results.push_back(segment);
    if (i + 1 == segments.size()) continue;
    const std::string last_word = split_whitespace(segment).back();
    const bool numeric = t.decimals.count(last_word) || t.multipliers.count(last_word);
    results.push_back(numeric ? "point five" : "and a half");
  }
  std::string s = join(results, " ");
  s = t.half_a_multiplier.sub(s, "0.5 \\1");
  s = t.letter_digit.sub(s, "\\1 \\2");
  s = t.digit_letter.sub(s, "\\1 \\2");
  s = t.split_suffix.sub(s, "\\1\\2");

  s = join(WordMachine(t).run(split_whitespace(s)), " ");

  // "$2 and ¢7" → "$2.07"; "$0.07" → "¢7"; "1" → "one"
  s = t.cents_after_amount.sub(s, [](const Regex::Match& m) {
    const int cents = std::stoi(m.group(3));
    return m.group(1) + m.group(2) + "." + (cents < 10 ? "0" : "") + std::to_string(cents);
  });
  s = t.cents_only.sub(s, [](const Regex::Match& m) { return "¢" + std::to_string(std::stoi(m.group(1))); });
  return t.one.sub(s, "one\\1");
}

}  // namespace aeval::text
