#pragma once
// ROUGE-1, ROUGE-2 and ROUGE-L as google-research rouge-score 0.1.2 computes
// them: ASCII [a-z0-9] tokens, NLTK Porter stemming of tokens longer than 3
// characters when enabled, score(target, prediction), score_multi over
// references; shared/specs/metric-specs.md §6.
#include <string>
#include <string_view>
#include <vector>

namespace aeval::metrics {

struct RougeScore {
  double precision = 0, recall = 0, fmeasure = 0;
};

struct RougeScores {
  RougeScore rouge1, rouge2, rougeL;
};

// rouge-score's DefaultTokenizer.
std::vector<std::string> rouge_tokenize(std::string_view text, bool use_stemmer);

RougeScore rouge_n(const std::vector<std::string>& target, const std::vector<std::string>& prediction, int n);
RougeScore rouge_l(const std::vector<std::string>& target, const std::vector<std::string>& prediction);

// scorer.score(target, prediction): note the argument order.
RougeScores rouge_score(std::string_view target, std::string_view prediction, bool use_stemmer);
// scorer.score_multi(targets, prediction): per type, the target with the
// greatest F (the first on ties).
RougeScores rouge_score_multi(const std::vector<std::string>& targets, std::string_view prediction, bool use_stemmer);

}  // namespace aeval::metrics
