// NLTK 3.8 PorterStemmer: steps 1a-5b with NLTK's and Martin Porter's
// departures from the 1980 paper selected by mode. Rule tables are static;
// stems are memoised per thread because corpora repeat their words.
#include "aeval/text/porter_stemmer.hpp"

#include <array>
#include <map>
#include <span>
#include <unordered_map>

#include "aeval/text/unicode.hpp"

namespace aeval::text {

namespace {

using Word = std::u32string;
using View = std::u32string_view;

bool ends_with(View w, View suffix) { return w.size() >= suffix.size() && w.substr(w.size() - suffix.size()) == suffix; }
Word drop(View w, std::size_t n) { return Word(w.substr(0, w.size() - n)); }

enum class Condition {
  none,
  positive_measure,     // m(stem) > 0
  measure_above_one,    // m(stem) > 1
  ion,                  // m(stem) > 1 and stem ends in s or t
  not_l_s_z,            // step 1b, *d: the doubled letter is not l, s or z
  short_cvc,            // step 1b: m(stem) == 1 and *o
  y_after_consonant,    // step 1c, NLTK: stem longer than 1 and ends in a consonant
  contains_vowel,       // step 1c, original
  logi,                 // step 2, NLTK: m(word minus "ogi") > 0
  ll,                   // step 5b: m(word minus one l) > 1
};

struct Rule {
  View suffix;  // U"*d" means "ends with a double consonant"
  View replacement;
  Condition condition;
};

constexpr Rule kStep1a[] = {{U"sses", U"ss", Condition::none}, {U"ies", U"i", Condition::none},
                            {U"ss", U"ss", Condition::none}, {U"s", U"", Condition::none}};
constexpr Rule kStep1bTail[] = {{U"at", U"ate", Condition::none}, {U"bl", U"ble", Condition::none},
                                {U"iz", U"ize", Condition::none}, {U"*d", U"", Condition::not_l_s_z},
                                {U"", U"e", Condition::short_cvc}};
constexpr Rule kStep1cNltk[] = {{U"y", U"i", Condition::y_after_consonant}};
constexpr Rule kStep1cOriginal[] = {{U"y", U"i", Condition::contains_vowel}};
constexpr Condition P = Condition::positive_measure;
constexpr Rule kStep2Head[] = {{U"ational", U"ate", P}, {U"tional", U"tion", P}, {U"enci", U"ence", P},
                               {U"anci", U"ance", P}, {U"izer", U"ize", P}};
constexpr Rule kStep2Tail[] = {{U"alli", U"al", P},     {U"entli", U"ent", P},   {U"eli", U"e", P},
                               {U"ousli", U"ous", P},   {U"ization", U"ize", P}, {U"ation", U"ate", P},
                               {U"ator", U"ate", P},    {U"alism", U"al", P},    {U"iveness", U"ive", P},
                               {U"fulness", U"ful", P}, {U"ousness", U"ous", P}, {U"aliti", U"al", P},
                               {U"iviti", U"ive", P},   {U"biliti", U"ble", P}};
constexpr Rule kStep3[] = {{U"icate", U"ic", P}, {U"ative", U"", P}, {U"alize", U"al", P}, {U"iciti", U"ic", P},
                           {U"ical", U"ic", P},  {U"ful", U"", P},   {U"ness", U"", P}};
constexpr Condition M = Condition::measure_above_one;
constexpr Rule kStep4[] = {{U"al", U"", M},  {U"ance", U"", M},  {U"ence", U"", M}, {U"er", U"", M},
                           {U"ic", U"", M},  {U"able", U"", M},  {U"ible", U"", M}, {U"ant", U"", M},
                           {U"ement", U"", M}, {U"ment", U"", M}, {U"ent", U"", M},
                           {U"ion", U"", Condition::ion},
                           {U"ou", U"", M},  {U"ism", U"", M},   {U"ate", U"", M},  {U"iti", U"", M},
                           {U"ous", U"", M}, {U"ive", U"", M},   {U"ize", U"", M}};
constexpr Rule kStep5b[] = {{U"ll", U"l", Condition::ll}};

class Stemmer {
 public:
  explicit Stemmer(PorterMode mode) : mode_(mode) {}

  Word stem(Word w) const {
    w = step1a(w);
    w = step1b(w);
    w = apply(w, nltk() ? std::span<const Rule>(kStep1cNltk) : std::span<const Rule>(kStep1cOriginal));
    w = step2(w);
    w = apply(w, kStep3);
    w = apply(w, kStep4);
    w = step5a(w);
    return apply(w, kStep5b);
  }

 private:
  bool nltk() const { return mode_ == PorterMode::nltk_extensions; }

  static bool is_vowel_letter(char32_t c) { return c == U'a' || c == U'e' || c == U'i' || c == U'o' || c == U'u'; }

  static bool consonant(View w, std::size_t i) {
    if (is_vowel_letter(w[i])) return false;
    if (w[i] == U'y') return i == 0 ? true : !consonant(w, i - 1);
    return true;
  }

  static int measure(View stem) {
    int m = 0;
    bool previous_consonant = true;  // value for index -1 is irrelevant: only "vc" pairs count
    for (std::size_t i = 0; i < stem.size(); ++i) {
      const bool c = consonant(stem, i);
      if (i > 0 && !previous_consonant && c) ++m;
      previous_consonant = c;
    }
    return m;
  }

  static bool contains_vowel(View stem) {
    for (std::size_t i = 0; i < stem.size(); ++i)
      if (!consonant(stem, i)) return true;
    return false;
  }

  static bool ends_double_consonant(View w) {
    return w.size() >= 2 && w[w.size() - 1] == w[w.size() - 2] && consonant(w, w.size() - 1);
  }

  bool ends_cvc(View w) const {
    const std::size_t n = w.size();
    if (n >= 3 && consonant(w, n - 3) && !consonant(w, n - 2) && consonant(w, n - 1) && w[n - 1] != U'w' &&
        w[n - 1] != U'x' && w[n - 1] != U'y')
      return true;
    return nltk() && n == 2 && !consonant(w, 0) && consonant(w, 1);
  }

  // `word` is the word the rule list was applied to, `stem` what the rule left.
  bool holds(Condition c, View word, View stem, char32_t doubled) const {
    switch (c) {
      case Condition::none: return true;
      case Condition::positive_measure: return measure(stem) > 0;
      case Condition::measure_above_one: return measure(stem) > 1;
      case Condition::ion: return measure(stem) > 1 && (stem.back() == U's' || stem.back() == U't');
      case Condition::not_l_s_z: return doubled != U'l' && doubled != U's' && doubled != U'z';
      case Condition::short_cvc: return measure(stem) == 1 && ends_cvc(stem);
      case Condition::y_after_consonant: return stem.size() > 1 && consonant(stem, stem.size() - 1);
      case Condition::contains_vowel: return contains_vowel(stem);
      case Condition::logi: return measure(word.substr(0, word.size() - 3)) > 0;
      case Condition::ll: return measure(word.substr(0, word.size() - 1)) > 1;
    }
    return false;
  }

  // The first rule whose suffix matches decides: if its condition fails the
  // word is returned unchanged.
  Word apply(const Word& w, std::span<const Rule> rules) const {
    for (const Rule& r : rules) {
      if (r.suffix == U"*d" && ends_double_consonant(w)) {
        // step 1b: the replacement is the doubled letter itself
        const char32_t doubled = w.back();
        return holds(r.condition, w, View(w).substr(0, w.size() - 2), doubled) ? drop(w, 1) : w;
      }
      if (ends_with(w, r.suffix)) {
        const View stem = View(w).substr(0, w.size() - r.suffix.size());
        if (!holds(r.condition, w, stem, w.empty() ? 0 : w.back())) return w;
        Word out(stem);
        if (r.suffix == U"*d") out += w.back();  // a literal "*d" ending: the reference appends the last letter
        return out.append(r.replacement);
      }
    }
    return w;
  }

  Word step1a(const Word& w) const {
    if (nltk() && ends_with(w, U"ies") && w.size() == 4) return drop(w, 3) + U"ie";
    return apply(w, kStep1a);
  }

  Word step1b(const Word& w) const {
    if (nltk() && ends_with(w, U"ied")) return drop(w, 3) + (w.size() == 4 ? U"ie" : U"i");
    if (ends_with(w, U"eed")) {
      const Word stem = drop(w, 3);
      return measure(stem) > 0 ? stem + U"ee" : w;
    }
    for (View suffix : {View(U"ed"), View(U"ing")}) {
      if (ends_with(w, suffix)) {
        const Word stem = drop(w, suffix.size());
        if (contains_vowel(stem)) return apply(stem, kStep1bTail);
      }
    }
    return w;
  }

  Word step2(const Word& w) const {
    if (nltk() && ends_with(w, U"alli") && measure(View(w).substr(0, w.size() - 4)) > 0)
      return step2(drop(w, 4) + U"al");
    // The published "abli" rule, or "bli" as Martin Porter and NLTK have it.
    static constexpr Rule kAbli{U"abli", U"able", P}, kBli{U"bli", U"ble", P};
    static constexpr Rule kFulli{U"fulli", U"ful", P}, kLogiNltk{U"logi", U"log", Condition::logi},
        kLogiMartin{U"logi", U"log", P};
    std::array<Rule, std::size(kStep2Head) + 1 + std::size(kStep2Tail) + 2> rules{};
    std::size_t n = 0;
    for (const Rule& r : kStep2Head) rules[n++] = r;
    rules[n++] = mode_ == PorterMode::original_algorithm ? kAbli : kBli;
    for (const Rule& r : kStep2Tail) rules[n++] = r;
    if (nltk()) {
      rules[n++] = kFulli;
      rules[n++] = kLogiNltk;  // the 'l' of "logi" stays with the stem for the measure
    } else if (mode_ == PorterMode::martin_extensions) {
      rules[n++] = kLogiMartin;
    }
    return apply(w, std::span<const Rule>(rules.data(), n));
  }

  Word step5a(const Word& w) const {
    if (!ends_with(w, U"e")) return w;
    const View stem = View(w).substr(0, w.size() - 1);
    const int m = measure(stem);
    if (m > 1 || (m == 1 && !ends_cvc(stem))) return Word(stem);
    return w;
  }

  PorterMode mode_;
};

const std::map<std::string, std::string>& irregular_forms() {
  static const std::map<std::string, std::string> pool{
      {"sky", "sky"},         {"skies", "sky"},       {"dying", "die"},     {"lying", "lie"},
      {"tying", "tie"},       {"news", "news"},       {"innings", "inning"}, {"inning", "inning"},
      {"outings", "outing"},  {"outing", "outing"},   {"cannings", "canning"}, {"canning", "canning"},
      {"howe", "howe"},       {"proceed", "proceed"}, {"exceed", "exceed"}, {"succeed", "succeed"}};
  return pool;
}

std::string stem_uncached(std::string_view word, PorterMode mode) {
  if (mode == PorterMode::nltk_extensions) {
    if (auto it = irregular_forms().find(std::string(word)); it != irregular_forms().end()) return it->second;
  }
  const std::string lowered = lower(word);
  if (mode != PorterMode::original_algorithm && to_u32(word).size() <= 2) return lowered;
  return to_utf8(Stemmer(mode).stem(to_u32(lowered)));
}

}  // namespace

std::string porter_stem(std::string_view word, PorterMode mode) {
  // Corpora repeat their words: remember stems, per thread, up to a bound.
  constexpr std::size_t kMaxCached = 1 << 18;
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  thread_local std::array<std::unordered_map<std::string, std::string, Hash, std::equal_to<>>, 3> cache;
  auto& memo = cache[static_cast<std::size_t>(mode)];
  if (auto it = memo.find(word); it != memo.end()) return it->second;
  std::string stem = stem_uncached(word, mode);
  if (memo.size() >= kMaxCached) memo.clear();
  memo.emplace(std::string(word), stem);
  return stem;
}

}  // namespace aeval::text
