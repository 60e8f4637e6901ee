// NLTK 3.8 PorterStemmer: steps 1a-5b with NLTK's and Martin Porter's
// departures from the 1980 paper selected by mode.
#include "aeval/text/porter_stemmer.hpp"

#include <functional>
#include <map>
#include <vector>

#include "aeval/text/unicode.hpp"

namespace aeval::text {

namespace {

using Word = std::u32string;

bool ends_with(const Word& w, std::u32string_view suffix) {
  return w.size() >= suffix.size() && std::u32string_view(w).substr(w.size() - suffix.size()) == suffix;
}

Word drop(const Word& w, std::size_t n) { return w.substr(0, w.size() - n); }

class Stemmer {
 public:
  explicit Stemmer(PorterMode mode) : mode_(mode) {}

  Word stem(Word w) const {
    w = step1a(w);
    w = step1b(w);
    w = step1c(w);
    w = step2(w);
    w = step3(w);
    w = step4(w);
    w = step5a(w);
    return step5b(w);
  }

 private:
  struct Rule {
    std::u32string suffix;  // U"*d" means "ends with a double consonant"
    Word replacement;
    std::function<bool(const Word&)> condition;  // empty: unconditional
  };

  bool nltk() const { return mode_ == PorterMode::nltk_extensions; }

  static bool is_vowel_letter(char32_t c) { return c == U'a' || c == U'e' || c == U'i' || c == U'o' || c == U'u'; }

  static bool consonant(const Word& w, std::size_t i) {
    if (is_vowel_letter(w[i])) return false;
    if (w[i] == U'y') return i == 0 ? true : !consonant(w, i - 1);
    return true;
  }

  static int measure(const Word& stem) {
    int m = 0;
    for (std::size_t i = 0; i + 1 < stem.size(); ++i)
      if (!consonant(stem, i) && consonant(stem, i + 1)) ++m;
    return m;
  }

  static bool positive_measure(const Word& stem) { return measure(stem) > 0; }

  static bool contains_vowel(const Word& stem) {
    for (std::size_t i = 0; i < stem.size(); ++i)
      if (!consonant(stem, i)) return true;
    return false;
  }

  static bool ends_double_consonant(const Word& w) {
    return w.size() >= 2 && w[w.size() - 1] == w[w.size() - 2] && consonant(w, w.size() - 1);
  }

  bool ends_cvc(const Word& w) const {
    const std::size_t n = w.size();
    if (n >= 3 && consonant(w, n - 3) && !consonant(w, n - 2) && consonant(w, n - 1) && w[n - 1] != U'w' &&
        w[n - 1] != U'x' && w[n - 1] != U'y')
      return true;
    return nltk() && n == 2 && !consonant(w, 0) && consonant(w, 1);
  }

  // The first rule whose suffix matches decides: if its condition fails the
  // word is returned unchanged.
  static Word apply(const Word& w, const std::vector<Rule>& rules) {
    for (const Rule& r : rules) {
      if (r.suffix == U"*d" && ends_double_consonant(w)) {
        const Word stem = drop(w, 2);
        return !r.condition || r.condition(stem) ? stem + r.replacement : w;
      }
      if (ends_with(w, r.suffix)) {
        const Word stem = drop(w, r.suffix.size());
        return !r.condition || r.condition(stem) ? stem + r.replacement : w;
      }
    }
    return w;
  }

  Word step1a(const Word& w) const {
    if (nltk() && ends_with(w, U"ies") && w.size() == 4) return drop(w, 3) + U"ie";
    return apply(w, {{U"sses", U"ss", {}}, {U"ies", U"i", {}}, {U"ss", U"ss", {}}, {U"s", U"", {}}});
  }

  Word step1b(const Word& w) const {
    if (nltk() && ends_with(w, U"ied")) return drop(w, 3) + (w.size() == 4 ? U"ie" : U"i");
    if (ends_with(w, U"eed")) {
      const Word stem = drop(w, 3);
      return measure(stem) > 0 ? stem + U"ee" : w;
    }
    Word stem;
    bool trimmed = false;
    for (std::u32string_view suffix : {std::u32string_view(U"ed"), std::u32string_view(U"ing")}) {
      if (ends_with(w, suffix)) {
        stem = drop(w, suffix.size());
        if (contains_vowel(stem)) {
          trimmed = true;
          break;
        }
      }
    }
    if (!trimmed) return w;
    const char32_t last = stem.back();
    return apply(stem, {{U"at", U"ate", {}},
                        {U"bl", U"ble", {}},
                        {U"iz", U"ize", {}},
                        {U"*d", Word(1, last), [last](const Word&) { return last != U'l' && last != U's' && last != U'z'; }},
                        {U"", U"e", [this](const Word& s) { return measure(s) == 1 && ends_cvc(s); }}});
  }

  Word step1c(const Word& w) const {
    if (nltk())
      return apply(w, {{U"y", U"i", [](const Word& s) { return s.size() > 1 && consonant(s, s.size() - 1); }}});
    return apply(w, {{U"y", U"i", contains_vowel}});
  }

  Word step2(const Word& w) const {
    if (nltk() && ends_with(w, U"alli") && positive_measure(drop(w, 4))) return step2(drop(w, 4) + U"al");
    std::vector<Rule> rules{
        {U"ational", U"ate", positive_measure},
        {U"tional", U"tion", positive_measure},
        {U"enci", U"ence", positive_measure},
        {U"anci", U"ance", positive_measure},
        {U"izer", U"ize", positive_measure},
        mode_ == PorterMode::original_algorithm ? Rule{U"abli", U"able", positive_measure}
                                                : Rule{U"bli", U"ble", positive_measure},
        {U"alli", U"al", positive_measure},
        {U"entli", U"ent", positive_measure},
        {U"eli", U"e", positive_measure},
        {U"ousli", U"ous", positive_measure},
        {U"ization", U"ize", positive_measure},
        {U"ation", U"ate", positive_measure},
        {U"ator", U"ate", positive_measure},
        {U"alism", U"al", positive_measure},
        {U"iveness", U"ive", positive_measure},
        {U"fulness", U"ful", positive_measure},
        {U"ousness", U"ous", positive_measure},
        {U"aliti", U"al", positive_measure},
        {U"iviti", U"ive", positive_measure},
        {U"biliti", U"ble", positive_measure},
    };
    if (nltk()) {
      rules.push_back({U"fulli", U"ful", positive_measure});
      // The 'l' of "logi" stays with the stem for the measure ("geo", "theo").
      rules.push_back({U"logi", U"log", [w](const Word&) { return positive_measure(drop(w, 3)); }});
    }
    if (mode_ == PorterMode::martin_extensions) rules.push_back({U"logi", U"log", positive_measure});
    return apply(w, rules);
  }

  static Word step3(const Word& w) {
    return apply(w, {{U"icate", U"ic", positive_measure},
                     {U"ative", U"", positive_measure},
                     {U"alize", U"al", positive_measure},
                     {U"iciti", U"ic", positive_measure},
                     {U"ical", U"ic", positive_measure},
                     {U"ful", U"", positive_measure},
                     {U"ness", U"", positive_measure}});
  }

  static Word step4(const Word& w) {
    const auto gt1 = [](const Word& s) { return measure(s) > 1; };
    return apply(w, {{U"al", U"", gt1},   {U"ance", U"", gt1}, {U"ence", U"", gt1}, {U"er", U"", gt1},
                     {U"ic", U"", gt1},   {U"able", U"", gt1}, {U"ible", U"", gt1}, {U"ant", U"", gt1},
                     {U"ement", U"", gt1}, {U"ment", U"", gt1}, {U"ent", U"", gt1},
                     {U"ion", U"", [](const Word& s) { return measure(s) > 1 && (s.back() == U's' || s.back() == U't'); }},
                     {U"ou", U"", gt1},   {U"ism", U"", gt1},  {U"ate", U"", gt1},  {U"iti", U"", gt1},
                     {U"ous", U"", gt1},  {U"ive", U"", gt1},  {U"ize", U"", gt1}});
  }

  Word step5a(const Word& w) const {
    if (!ends_with(w, U"e")) return w;
    const Word stem = drop(w, 1);
    if (measure(stem) > 1) return stem;
    if (measure(stem) == 1 && !ends_cvc(stem)) return stem;
    return w;
  }

  static Word step5b(const Word& w) {
    return apply(w, {{U"ll", U"l", [w](const Word&) { return measure(drop(w, 1)) > 1; }}});
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

}  // namespace

std::string porter_stem(std::string_view word, PorterMode mode) {
  const std::string lowered = lower(word);
  if (mode == PorterMode::nltk_extensions) {
    if (auto it = irregular_forms().find(std::string(word)); it != irregular_forms().end()) return it->second;
  }
  const Word original = to_u32(word);
  if (mode != PorterMode::original_algorithm && original.size() <= 2) return lowered;
  return to_utf8(Stemmer(mode).stem(to_u32(lowered)));
}

}  // namespace aeval::text
