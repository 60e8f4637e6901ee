// Exact/exist match and token F1 follow the SQuAD v1.1 evaluation script's
// normalize_answer and f1_score; choice extraction is aeval's own rule set.
#include "aeval/metrics/match.hpp"

#include <fmt/format.h>

#include <map>

#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::metrics {

namespace {

bool is_ascii_punctuation(char c) {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

}  // namespace

std::string normalize_answer(std::string_view text) {
  static const text::Regex articles(R"(\b(a|an|the)\b)");
  std::string s = text::lower(text);
  std::string without_punctuation;
  for (char c : s)
    if (!is_ascii_punctuation(c)) without_punctuation += c;
  return text::join(text::split_whitespace(articles.sub(without_punctuation, " ")), " ");
}

double exact_match(std::string_view prediction, const std::vector<std::string>& references) {
  const std::string p = normalize_answer(prediction);
  for (const auto& r : references)
    if (normalize_answer(r) == p) return 1.0;
  return 0.0;
}

double exist_match(std::string_view prediction, const std::vector<std::string>& references) {
  // Padding with spaces makes the search respect word boundaries.
  const auto padded = [](std::string s) { return s.insert(0, 1, ' ').append(1, ' '); };
  const std::string p = padded(normalize_answer(prediction));
  for (const auto& r : references) {
    const std::string n = normalize_answer(r);
    if (!n.empty() && p.find(padded(n)) != std::string::npos) return 1.0;
  }
  return 0.0;
}

double token_f1(std::string_view prediction, const std::vector<std::string>& references) {
  const auto predicted = text::split_whitespace(normalize_answer(prediction));
  double best = 0;
  for (const auto& r : references) {
    const auto truth = text::split_whitespace(normalize_answer(r));
    double f = 0;
    if (predicted.empty() || truth.empty()) {
      f = predicted == truth ? 1.0 : 0.0;
    } else {
      std::map<std::string, long> counts;
      for (const auto& t : truth) ++counts[t];
      long common = 0;
      for (const auto& t : predicted)
        if (auto it = counts.find(t); it != counts.end() && it->second > 0) {
          --it->second;
          ++common;
        }
      if (common > 0) {
        const double precision = double(common) / double(predicted.size());
        const double recall = double(common) / double(truth.size());
        f = 2 * precision * recall / (precision + recall);
      }
    }
    best = std::max(best, f);
  }
  return best;
}

std::optional<std::string> extract_choice(std::string_view prediction, const std::vector<std::string>& labels,
                                          const std::vector<std::string>& option_texts) {
  const std::string text = text::strip(prediction);
  // A label standing alone: "B", "(B)", "B.", "B)", "[B]", or after "answer is"/"answer:"/"option".
  std::vector<std::string> found;
  for (const auto& label : labels) {
    const text::Regex standalone(fmt::format(R"(^[\(\[]?\Q{}\E[\)\]\.:,]?(\s|$))", label));
    const text::Regex announced(fmt::format(R"((?i:(answer|option|choice)\s*(is|:)?)\s*[\(\[]?\Q{}\E[\)\]]?(?!\w))", label));
    if (standalone.search(text) || announced.search(text)) found.push_back(label);
  }
  if (found.size() == 1) return found.front();
  if (found.size() > 1) return std::nullopt;
  // Otherwise the one option whose text the answer contains.
  std::optional<std::string> by_text;
  for (std::size_t i = 0; i < labels.size() && i < option_texts.size(); ++i) {
    if (exist_match(prediction, {option_texts[i]}) == 1.0) {
      if (by_text) return std::nullopt;
      by_text = labels[i];
    }
  }
  return by_text;
}

double choice_accuracy(std::string_view prediction, const std::string& gold_label, const std::vector<std::string>& labels,
                       const std::vector<std::string>& option_texts) {
  const auto choice = extract_choice(prediction, labels, option_texts);
  return choice && *choice == gold_label ? 1.0 : 0.0;
}

}  // namespace aeval::metrics
