// SpeechColab cn_tn.py TextNorm (the copy UltraEval-Audio vendors as
// audio_evals/lib/text_normalization/cn_tn.py; read at AudioTrust/AudioTrust
// b19fcf77, a fork of UltraEval-Audio) with every option off, as UltraEval-Audio's
// audio_evals/lib/wer.py constructs it. Vectors: tests/data/uea_text/cn_tn.jsonl.
//
// The Python code is reproduced step for step, because its quirks decide the
// output: each rule collects all matches of its pattern first, then replaces
// the FIRST occurrence of each matched string anywhere in the current text
// (not the occurrence that matched); money amounts replace every occurrence of
// each number inside the amount; "^" and "$" guard the text and every leading
// "^" / trailing "$" is stripped at the end, the user's own included.
#include "aeval/text/chinese_text_norm.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "aeval/error.hpp"
#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "aeval/text/utf8.hpp"

namespace aeval::text {

namespace {

// ------------------------------------------------------------------ numbers

constexpr char32_t kDigits[] = U"零一二三四五六七八九";
constexpr char32_t kTwoAlt = U'两';
constexpr char32_t kPoint = U'点';

// cn_tn's units for the "mid" numbering system: 十百千万 (10^1..10^4), then
// 亿兆京垓秭穰沟涧正载 (10^8, 10^12, ... 10^44).
struct Unit {
  int power;
  char32_t name;
};
constexpr std::array<Unit, 14> kUnits{{{1, U'十'}, {2, U'百'}, {3, U'千'}, {4, U'万'}, {8, U'亿'},
                                       {12, U'兆'}, {16, U'京'}, {20, U'垓'}, {24, U'秭'}, {28, U'穰'},
                                       {32, U'沟'}, {36, U'涧'}, {40, U'正'}, {44, U'载'}}};

// One symbol of num2chn's result list.
struct Symbol {
  enum Kind { digit, unit, point } kind;
  int value = 0;  // digit value, or unit power
  char32_t name = 0;
};

[[noreturn]] void value_error(std::string_view number, const std::string& why) {
  throw Error(ErrorCategory::data, "Chinese number '" + std::string(number) + "': " + why);
}

// CHINESE_DIGIS[int(c)] for one character.
Symbol digit_symbol(char32_t c, std::string_view number) {
  const int value = decimal_digit_value(c);
  if (value < 0) value_error(number, "'" + to_utf8(c) + "' is not a decimal digit");
  return {Symbol::digit, value, kDigits[value]};
}

// num2chn's get_value: recursive split at the largest unit shorter than the
// number. Only ASCII '0' is stripped (str.lstrip("0")), as in Python.
void spell_value(std::u32string_view value, std::string_view number, std::vector<Symbol>& out) {
  const std::size_t first = value.find_first_not_of(U'0');
  if (first == std::u32string_view::npos) return;
  const std::u32string_view stripped = value.substr(first);
  if (stripped.size() == 1) {
    if (value.size() != stripped.size()) out.push_back({Symbol::digit, 0, kDigits[0]});
    out.push_back(digit_symbol(stripped[0], number));
    return;
  }
  const Unit* unit = nullptr;
  for (auto it = kUnits.rbegin(); it != kUnits.rend(); ++it)
    if (std::size_t(it->power) < stripped.size()) {
      unit = &*it;
      break;
    }
  const auto power = std::size_t(unit->power);
  spell_value(value.substr(0, value.size() - power), number, out);
  out.push_back({Symbol::unit, unit->power, unit->name});
  spell_value(stripped.substr(stripped.size() - power), number, out);
}

std::string num2chn(std::string_view number, bool alt_two, bool use_units) {
  const std::u32string u = to_u32(number);
  const std::size_t dot = u.find(U'.');
  if (dot != std::u32string::npos && u.find(U'.', dot + 1) != std::u32string::npos)
    value_error(number, "more than one dot");
  const std::u32string_view whole = std::u32string_view(u).substr(0, dot);
  const std::u32string_view decimals =
      dot == std::u32string::npos ? std::u32string_view() : std::u32string_view(u).substr(dot + 1);

  std::vector<Symbol> symbols;
  if (use_units && whole.size() > 1) {
    spell_value(whole, number, symbols);
  } else {
    for (char32_t c : whole) symbols.push_back(digit_symbol(c, number));
  }
  std::vector<Symbol> decimal_symbols;
  for (char32_t c : decimals) decimal_symbols.push_back(digit_symbol(c, number));
  if (!decimals.empty()) {
    symbols.push_back({Symbol::point, 0, kPoint});
    symbols.insert(symbols.end(), decimal_symbols.begin(), decimal_symbols.end());
  }

  // 两 for a 2 before 百/千/万/亿..., unless a 十 precedes it or a digit does.
  if (alt_two) {
    for (std::size_t i = 0; i < symbols.size(); ++i) {
      if (symbols[i].kind != Symbol::digit || symbols[i].value != 2) continue;
      const Symbol* next = i + 1 < symbols.size() ? &symbols[i + 1] : nullptr;
      const Symbol* previous = i > 0 ? &symbols[i - 1] : nullptr;
      if (!next || next->kind != Symbol::unit) continue;
      if (previous && previous->kind != Symbol::unit) continue;
      if (next->value != 1 && (!previous || previous->value != 1)) symbols[i].name = kTwoAlt;
    }
  }

  std::u32string result;
  for (const Symbol& s : symbols) result.push_back(s.name);
  if (!result.empty() && result[0] == kPoint) result.insert(result.begin(), kDigits[0]);
  else if (result.size() >= 2 && result[1] == U'十' && result[0] == U'一') result.erase(0, 1);
  return to_utf8(result);
}

// ------------------------------------------------------------------ Python string helpers

// str.replace(old, new, 1); an empty `old` inserts at the front, as in Python.
void replace_first(std::string& text, std::string_view old_text, std::string_view new_text) {
  const std::size_t at = text.find(old_text);
  if (at != std::string::npos) text.replace(at, old_text.size(), new_text);
}

// str.replace(old, new) for a non-empty `old`.
void replace_all(std::string& text, std::string_view old_text, std::string_view new_text) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = text.find(old_text); at != std::string::npos; at = text.find(old_text, from)) {
    out.append(text, from, at - from);
    out += new_text;
    from = at + old_text.size();
  }
  out.append(text, from);
  text = std::move(out);
}

// str.strip(chars) for ASCII `chars`.
std::string_view strip_chars(std::string_view s, std::string_view chars) {
  const std::size_t begin = s.find_first_not_of(chars);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(chars) - begin + 1);
}

std::vector<std::string> split_on(std::string_view s, std::string_view separator) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t at = s.find(separator); at != std::string_view::npos; at = s.find(separator, from)) {
    out.emplace_back(s.substr(from, at - from));
    from = at + separator.size();
  }
  out.emplace_back(s.substr(from));
  return out;
}

// The last code point of a UTF-8 string and what precedes it (s[:-1], s[-1]).
std::pair<std::string_view, std::string_view> split_last_code_point(std::string_view s) {
  std::size_t at = s.size();
  while (at > 0 && (static_cast<unsigned char>(s[at - 1]) & 0xC0) == 0x80) --at;
  if (at > 0) --at;
  return {s.substr(0, at), s.substr(at)};
}

// re.findall(pattern, text) for the group `group` of each match.
std::vector<std::string> find_all(const Regex& pattern, std::string_view text, int group) {
  std::vector<std::string> out;
  pattern.sub(text, [&](const Regex::Match& m) {
    out.push_back(m.group(group));
    return std::string();
  });
  return out;
}

// ------------------------------------------------------------------ rewriters

std::string spell_date(std::string_view date) {
  const std::string stripped = strip(date);
  std::string year, other;
  if (const std::size_t at = stripped.find("年"); at != std::string::npos) {
    year = chinese_digits(std::string_view(stripped).substr(0, at)) + "年";
    other = stripped.substr(at + std::string_view("年").size());
  } else {
    other = std::string(date);
  }
  std::string month, day;
  if (!other.empty()) {
    const std::string rest = strip(other);
    if (const std::size_t at = rest.find("月"); at != std::string::npos) {
      month = chinese_cardinal(std::string_view(rest).substr(0, at)) + "月";
      day = rest.substr(at + std::string_view("月").size());
    } else {
      day = std::string(date);
    }
    if (!day.empty()) {
      const auto [number, last] = split_last_code_point(day);
      day = chinese_cardinal(number) + std::string(last);
    }
  }
  return year + month + day;
}

struct Patterns {
  // Python `re` \d is any Unicode decimal digit; PCRE2 with UCP matches the same.
  Regex date{R"(\D+((([089]\d|(19|20)\d{2})年)?(\d{1,2}月(\d{1,2}[日号])?)?))"};
  Regex money;
  Regex mobile{R"(\D((\+?86 ?)?1([38]\d|5[0-35-9]|7[678]|9[89])\d{8})\D)"};
  Regex fixed_line{R"(\D((0(10|2[1-3]|[3-9]\d{2})-?)?[1-9]\d{6,7})\D)"};
  Regex fraction{R"((\d+/\d+))"};
  Regex percentage{R"((\d+(\.\d+)?%))"};
  Regex quantified;
  Regex digit_string{R"((\d{4,32}))"};
  Regex number{R"((\d+(\.\d+)?))"};
  Regex letters_two_letters{R"((([a-zA-Z]+)二([a-zA-Z]+)))"};

  static std::string currency_units() {
    return "((亿|千万|百万|万|千|百)|(亿|千万|百万|万|千|百|)元|(亿|千万|百万|万|千|百|)块|角|毛|分)";
  }
  // cn_tn's measure words (COM_QUANTIFIERS), repeats included.
  static std::string quantifiers() {
    return "(匹|张|座|回|场|尾|条|个|首|阙|阵|网|炮|顶|丘|棵|只|支|袭|辆|挑|担|颗|壳|窠|曲|墙|群|腔|"
           "砣|座|客|贯|扎|捆|刀|令|打|手|罗|坡|山|岭|江|溪|钟|队|单|双|对|出|口|头|脚|板|跳|枝|件|贴|"
           "针|线|管|名|位|身|堂|课|本|页|家|户|层|丝|毫|厘|分|钱|两|斤|担|铢|石|钧|锱|忽|(千|毫|微)克|"
           "毫|厘|分|寸|尺|丈|里|寻|常|铺|程|(千|分|厘|毫|微)米|撮|勺|合|升|斗|石|盘|碗|碟|叠|桶|笼|盆|"
           "盒|杯|钟|斛|锅|簋|篮|盘|桶|罐|瓶|壶|卮|盏|箩|箱|煲|啖|袋|钵|年|月|日|季|刻|时|周|天|秒|分|旬|"
           "纪|岁|世|更|夜|春|夏|秋|冬|代|伏|辈|丸|泡|粒|颗|幢|堆|条|根|支|道|面|片|张|颗|块)";
  }

  Patterns()
      : money(R"(\D+((\d+(\.\d+)?)[多余几]?)" + currency_units() + R"((\d)" + currency_units() + R"(?)?))"),
        quantified(R"((\d+(\.\d+)?)[多余几]?)" + quantifiers()) {}
};

const Patterns& patterns() {
  static const Patterns p;
  return p;
}

// cn_tn's PUNCS: CN_PUNCS_STOP, CN_PUNCS_NONSTOP and string.punctuation.
bool is_cn_tn_punctuation(char32_t c) {
  static const std::u32string set = [] {
    std::u32string s =
        U"\uFF01\uFF1F\uFF61\u3002"  // ！？｡。
        U"\uFF02\uFF03\uFF04\uFF05\uFF06\uFF07\uFF08\uFF09\uFF0A\uFF0B\uFF0C\uFF0D\uFF0F\uFF1A\uFF1B"
        U"\uFF1C\uFF1D\uFF1E\uFF20\uFF3B\uFF3C\uFF3D\uFF3E\uFF3F\uFF40\uFF5B\uFF5C\uFF5D\uFF5E\uFF5F"
        U"\uFF60\uFF62\uFF63\uFF64\u3001\u3003\u300A\u300B\u300C\u300D\u300E\u300F\u3010\u3011\u3014"
        U"\u3015\u3016\u3017\u3018\u3019\u301A\u301B\u301C\u301D\u301E\u301F\u3030\u303E\u303F\u2013"
        U"\u2014\u2018\u2019\u201B\u201C\u201D\u201E\u201F\u2026\u2027\uFE4F\u00B7\u3008\u3009-"
        U"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
    std::sort(s.begin(), s.end());
    return s;
  }();
  return std::binary_search(set.begin(), set.end(), c);
}

// Python strings cannot hold invalid UTF-8; bytes that are not UTF-8 become
// U+FFFD here (as everywhere in aeval's text layer) before PCRE2 sees them.
std::string valid_utf8(std::string_view text) {
  if (!first_invalid_utf8(text)) return std::string(text);
  return to_utf8(to_u32(text));
}

}  // namespace

std::string chinese_cardinal(std::string_view number) { return num2chn(number, true, true); }

std::string chinese_digits(std::string_view number) { return num2chn(number, false, false); }

std::string chinese_normalize_nsw(std::string_view raw) {
  const Patterns& p = patterns();
  // cn_tn brackets the text with ^ and $ (its patterns anchor on them); built by appending, which
  // also keeps GCC 12 from a false -Wrestrict alarm on "^" + string.
  std::string text = "^";
  text += valid_utf8(raw);
  text += '$';

  for (const std::string& date : find_all(p.date, text, 1)) replace_first(text, date, spell_date(date));

  for (const std::string& money : find_all(p.money, text, 1)) {
    std::string spelled = money;
    for (const std::string& amount : find_all(p.number, money, 1))
      replace_all(spelled, amount, chinese_cardinal(amount));
    replace_first(text, money, spelled);
  }

  for (const std::string& phone : find_all(p.mobile, text, 1)) {
    std::string spelled;
    for (const std::string& part : split_whitespace(strip_chars(phone, "+"))) spelled += chinese_digits(part);
    replace_first(text, phone, spelled);
  }
  for (const std::string& phone : find_all(p.fixed_line, text, 1)) {
    std::string spelled;
    for (const std::string& part : split_on(phone, "-")) spelled += chinese_digits(part);
    replace_first(text, phone, spelled);
  }

  for (const std::string& fraction : find_all(p.fraction, text, 1)) {
    const auto parts = split_on(fraction, "/");  // the pattern allows exactly one '/'
    replace_first(text, fraction, chinese_cardinal(parts[1]) + "分之" + chinese_cardinal(parts[0]));
  }

  replace_all(text, "％", "%");
  for (const std::string& percentage : find_all(p.percentage, text, 1))
    replace_first(text, percentage, "百分之" + chinese_cardinal(strip_chars(strip(percentage), "%")));

  for (const std::string& number : find_all(p.quantified, text, 1))
    replace_first(text, number, chinese_cardinal(number));
  for (const std::string& digits : find_all(p.digit_string, text, 1))
    replace_first(text, digits, chinese_digits(digits));
  for (const std::string& number : find_all(p.number, text, 1))
    replace_first(text, number, chinese_cardinal(number));

  std::vector<std::array<std::string, 3>> words;  // "P二P" → "P2P"
  p.letters_two_letters.sub(text, [&](const Regex::Match& m) {
    words.push_back({m.group(1), m.group(2), m.group(3)});
    return std::string();
  });
  for (const auto& [word, before, after] : words) replace_first(text, word, before + "2" + after);

  const std::size_t begin = text.find_first_not_of('^');
  if (begin == std::string::npos) return {};
  const std::size_t end = text.find_last_not_of('$');
  return end == std::string::npos || end < begin ? std::string() : text.substr(begin, end - begin + 1);
}

std::string chinese_text_normalize(std::string_view text) {
  std::u32string u = to_u32(chinese_normalize_nsw(text));
  for (char32_t& c : u)
    if (is_cn_tn_punctuation(c)) c = U' ';
  return to_utf8(u);
}

}  // namespace aeval::text
