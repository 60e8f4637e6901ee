// Whisper EnglishTextNormalizer (openai/whisper c0d2f62,
// whisper/normalizers/english.py); shared/specs/metric-specs.md §2.2.
#include <utility>
#include <vector>

#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "aeval/text/whisper_normalizers.hpp"
#include "text/whisper_patterns.hpp"

namespace aeval::text {

namespace {

struct EnglishPatterns {
  Regex fillers{R"(\b(hmm|mm|mhm|mmm|uh|um)\b)"};
  Regex space_before_apostrophe{R"(\s+')"};
  // Applied in this order: whole-word contractions, titles, perfect tenses,
  // then the general contraction endings.
  std::vector<std::pair<Regex, std::string>> replacers;
  Regex digit_comma_digit{R"((\d),(\d))"};
  Regex period_not_before_digit{R"(\.([^0-9]|$))"};
  Regex stray_currency{R"([.$¢€£]([^0-9]))"};
  Regex stray_percent{R"(([^0-9])%)"};

  EnglishPatterns() {
    const std::pair<const char*, const char*> table[] = {
        {R"(\bwon't\b)", "will not"}, {R"(\bcan't\b)", "can not"}, {R"(\blet's\b)", "let us"},
        {R"(\bain't\b)", "aint"}, {R"(\by'all\b)", "you all"}, {R"(\bwanna\b)", "want to"},
        {R"(\bgotta\b)", "got to"}, {R"(\bgonna\b)", "going to"}, {R"(\bi'ma\b)", "i am going to"},
        {R"(\bimma\b)", "i am going to"}, {R"(\bwoulda\b)", "would have"},
        {R"(\bcoulda\b)", "could have"}, {R"(\bshoulda\b)", "should have"},
        {R"(\bma'am\b)", "madam"},
        {R"(\bmr\b)", "mister "}, {R"(\bmrs\b)", "missus "}, {R"(\bst\b)", "saint "},
        {R"(\bdr\b)", "doctor "}, {R"(\bprof\b)", "professor "}, {R"(\bcapt\b)", "captain "},
        {R"(\bgov\b)", "governor "}, {R"(\bald\b)", "alderman "}, {R"(\bgen\b)", "general "},
        {R"(\bsen\b)", "senator "}, {R"(\brep\b)", "representative "},
        {R"(\bpres\b)", "president "}, {R"(\brev\b)", "reverend "}, {R"(\bhon\b)", "honorable "},
        {R"(\basst\b)", "assistant "}, {R"(\bassoc\b)", "associate "},
        {R"(\blt\b)", "lieutenant "}, {R"(\bcol\b)", "colonel "}, {R"(\bjr\b)", "junior "},
        {R"(\bsr\b)", "senior "}, {R"(\besq\b)", "esquire "},
        {R"('d been\b)", " had been"}, {R"('s been\b)", " has been"}, {R"('d gone\b)", " had gone"},
        {R"('s gone\b)", " has gone"}, {R"('d done\b)", " had done"}, {R"('s got\b)", " has got"},
        {R"(n't\b)", " not"}, {R"('re\b)", " are"}, {R"('s\b)", " is"}, {R"('d\b)", " would"},
        {R"('ll\b)", " will"}, {R"('t\b)", " not"}, {R"('ve\b)", " have"}, {R"('m\b)", " am"},
    };
    for (const auto& [pattern, replacement] : table) replacers.emplace_back(Regex(pattern), replacement);
  }
};

const EnglishPatterns& english_patterns() {
  static const EnglishPatterns patterns;
  return patterns;
}

}  // namespace

EnglishTextNormalizer::EnglishTextNormalizer(SpellingTable spelling) : spelling_(std::move(spelling)) {}

std::string EnglishTextNormalizer::operator()(std::string_view input) const {
  const auto& basic = whisper_patterns();
  const auto& p = english_patterns();
  std::string s = lower(input);
  s = basic.bracketed.sub(s, "");
  s = basic.parenthesised.sub(s, "");
  s = p.fillers.sub(s, "");
  s = p.space_before_apostrophe.sub(s, "'");
  for (const auto& [pattern, replacement] : p.replacers) s = pattern.sub(s, replacement);
  s = p.digit_comma_digit.sub(s, "\\1\\2");
  s = p.period_not_before_digit.sub(s, " \\1");
  s = remove_symbols_and_diacritics(s, U".%$¢€£");
  s = numbers_(s);
  s = apply_spelling(spelling_, s);
  s = p.stray_currency.sub(s, " \\1");
  s = p.stray_percent.sub(s, "\\1 ");
  return basic.whitespace_run.sub(s, " ");
}

std::string apply_spelling(const SpellingTable& table, std::string_view s) {
  std::vector<std::string> words = split_whitespace(s);
  for (auto& word : words) {
    if (auto it = table.mapping.find(word); it != table.mapping.end()) word = it->second;
  }
  return join(words, " ");
}

}  // namespace aeval::text
