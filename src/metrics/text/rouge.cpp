// rouge-score 0.1.2 (rouge_scorer.py, tokenize.py): n-gram overlap and LCS.
#include "aeval/metrics/rouge.hpp"

#include <algorithm>

#include "aeval/error.hpp"
#include "aeval/text/porter_stemmer.hpp"
#include "aeval/text/unicode.hpp"
#include "metrics/text/ngram_counts.hpp"

namespace aeval::metrics {

namespace {

bool ascii_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

double fmeasure(double precision, double recall) {
  return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
}

RougeScore make(double precision, double recall) { return {precision, recall, fmeasure(precision, recall)}; }

}  // namespace

std::vector<std::string> rouge_tokenize(std::string_view text, bool use_stemmer) {
  // lower(), then every run outside [a-z0-9] is a separator: non-ASCII letters vanish.
  const std::string lowered = text::lower(text);
  std::vector<std::string> tokens;
  std::string current;
  for (char c : lowered) {
    if (ascii_alnum(c)) {
      current += c;
    } else if (!current.empty()) {
      tokens.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) tokens.push_back(std::move(current));
  if (use_stemmer)
    for (auto& t : tokens)
      if (t.size() > 3) t = text::porter_stem(t);
  // Stems of [a-z0-9] words stay [a-z0-9]; the reference's final filter only drops empties.
  return tokens;
}

RougeScore rouge_n(const std::vector<std::string>& target, const std::vector<std::string>& prediction, int n) {
  detail::Interner interner;
  const std::u32string t_ids = interner.ids(target), p_ids = interner.ids(prediction);
  return detail::with_ngram_key(n, detail::kWordBits, [&]<class Key>() {
    const auto t = detail::count_ngrams<Key>(t_ids, n, detail::kWordBits);
    const auto p = detail::count_ngrams<Key>(p_ids, n, detail::kWordBits);
    const long overlap = detail::clipped_matches(t, p);
    return make(double(overlap) / double(std::max(detail::total(p), 1L)),
                double(overlap) / double(std::max(detail::total(t), 1L)));
  });
}

RougeScore rouge_l(const std::vector<std::string>& target, const std::vector<std::string>& prediction) {
  if (target.empty() || prediction.empty()) return {};
  // One row of the LCS table at a time.
  std::vector<std::size_t> previous(prediction.size() + 1, 0), row(prediction.size() + 1, 0);
  for (std::size_t i = 1; i <= target.size(); ++i) {
    for (std::size_t j = 1; j <= prediction.size(); ++j)
      row[j] = target[i - 1] == prediction[j - 1] ? previous[j - 1] + 1 : std::max(previous[j], row[j - 1]);
    std::swap(previous, row);
  }
  const double lcs = double(previous[prediction.size()]);
  return make(lcs / double(prediction.size()), lcs / double(target.size()));
}

RougeScores rouge_score(std::string_view target, std::string_view prediction, bool use_stemmer) {
  const auto t = rouge_tokenize(target, use_stemmer), p = rouge_tokenize(prediction, use_stemmer);
  return {rouge_n(t, p, 1), rouge_n(t, p, 2), rouge_l(t, p)};
}

RougeScores rouge_score_multi(const std::vector<std::string>& targets, std::string_view prediction, bool use_stemmer) {
  if (targets.empty()) throw Error(ErrorCategory::data, "ROUGE: score_multi needs at least one reference");
  RougeScores best;
  bool first = true;
  for (const auto& target : targets) {
    const RougeScores s = rouge_score(target, prediction, use_stemmer);
    for (auto member : {&RougeScores::rouge1, &RougeScores::rouge2, &RougeScores::rougeL})
      if (first || (s.*member).fmeasure > (best.*member).fmeasure) best.*member = s.*member;
    first = false;
  }
  return best;
}

}  // namespace aeval::metrics
