// Exact/exist match and token F1 follow the SQuAD v1.1 evaluation script's
// normalize_answer and f1_score; choice extraction is aeval's own rule set.
// qa_exist_match follows UltraEval-Audio's QAExistMatchEvaluator (DPR's
// has_answer with its SimpleTokenizer; Python `regex`) and choice_strings_match
// MMAU's string_match as UltraEval-Audio's ChoiceStringMatch calls it (Python
// `re`), both as in audio_evals/evaluator/{qa_exact_match,string_match}.py of
// an UltraEval-Audio snapshot (AudioTrust/AudioTrust@b19fcf7); golden vectors in
// tests/data/uea_match. prefix_match is UltraEval-Audio's PrefixMatch
// (audio_evals/evaluator/base.py, OpenBMB/UltraEval-Audio@31b21cf).
#include "aeval/metrics/match.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::metrics {

namespace {

bool is_ascii_punctuation(char c) {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

bool is_ascii_alnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Python's \w in ASCII.
bool is_ascii_word(char c) { return is_ascii_alnum(c) || c == '_'; }

// \b(a|an|the)\b replaced by a space in ASCII text: the articles are whole runs of word characters.
std::string without_ascii_articles(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (!is_ascii_word(s[i])) {
      out += s[i++];
      continue;
    }
    std::size_t end = i;
    while (end < s.size() && is_ascii_word(s[end])) ++end;
    const std::string_view word = s.substr(i, end - i);
    if (word == "a" || word == "an" || word == "the")
      out += ' ';
    else
      out += word;
    i = end;
  }
  return out;
}

}  // namespace

std::string normalize_answer(std::string_view text) {
  static const text::Regex articles(R"(\b(a|an|the)\b)");
  std::string s = text::lower(text);
  std::string without_punctuation;
  for (char c : s)
    if (!is_ascii_punctuation(c)) without_punctuation += c;
  const std::string without_articles =
      text::is_ascii(without_punctuation) ? without_ascii_articles(without_punctuation) : articles.sub(without_punctuation, " ");
  return text::join(text::split_whitespace(without_articles), " ");
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

namespace {

// Every match of `pattern` in `s`, in order (Python's finditer).
std::vector<std::string> find_all(const text::Regex& pattern, std::string_view s) {
  std::vector<std::string> out;
  pattern.sub(s, [&out](const text::Regex::Match& m) {
    out.push_back(m.group(0));
    return std::string();
  });
  return out;
}

// What the Unicode patterns below find in ASCII text, without a regex search per token (most of these
// metrics' time): the runs of `in_run` characters and, with `singles`, every other character that is
// neither a space nor a control character as a token of its own.
template <class InRun>
std::vector<std::string> ascii_tokens(std::string_view s, InRun in_run, bool singles) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t end = i;
    while (end < s.size() && in_run(s[end])) ++end;
    if (end > i) {
      out.emplace_back(s.substr(i, end - i));
      i = end;
      continue;
    }
    if (singles && s[i] > ' ' && s[i] != 0x7F) out.emplace_back(1, s[i]);
    ++i;
  }
  return out;
}

}  // namespace

std::vector<std::string> qa_exist_match_tokens(std::string_view text) {
  // In ASCII: runs of letters and digits ([\p{L}\p{N}\p{M}]+), and each other character but spaces (Z) and
  // controls (C).
  if (text::is_ascii(text)) return ascii_tokens(text::lower(text), is_ascii_alnum, true);
  static const text::Regex token(R"(([\p{L}\p{N}\p{M}]+)|([^\p{Z}\p{C}]))");
  auto tokens = find_all(token, text::nfd(text));
  for (auto& t : tokens) t = text::lower(t);
  return tokens;
}

double qa_exist_match(std::string_view prediction, const std::vector<std::string>& references) {
  const auto text = qa_exist_match_tokens(prediction);
  for (const auto& r : references) {
    const auto answer = qa_exist_match_tokens(r);
    if (answer.size() > text.size()) continue;
    for (std::size_t i = 0; i + answer.size() <= text.size(); ++i)
      if (std::equal(answer.begin(), answer.end(), text.begin() + long(i))) return 1.0;
  }
  return 0.0;
}

double choice_strings_match(std::string_view prediction, std::string_view answer,
                            const std::vector<std::string>& choices) {
  // Python's \w: letters, numbers and the underscore (no marks).
  static const text::Regex word(R"([\p{L}\p{N}_]+)");
  const auto words = [](std::string_view s) {
    const std::string lowered = text::lower(s);
    const auto found = text::is_ascii(lowered)
                           ? ascii_tokens(lowered, is_ascii_word, false)
                           : find_all(word, lowered);
    return std::set<std::string>(found.begin(), found.end());
  };
  const auto predicted = words(prediction), correct = words(answer);
  if (predicted.empty()) return 0.0;
  for (const auto& c : choices) {
    const auto choice = words(c);
    if (choice == correct) continue;
    for (const auto& w : choice)
      if (!correct.count(w) && predicted.count(w)) return 0.0;
  }
  for (const auto& w : correct)
    if (!predicted.count(w)) return 0.0;
  return 1.0;
}

double strip_equal(std::string_view prediction, const std::vector<std::string>& references) {
  const std::string p = text::strip(prediction);
  for (const auto& r : references)
    if (text::strip(r) == p) return 1.0;
  return 0.0;
}

double prefix_match(std::string_view prediction, const std::vector<std::string>& references) {
  const std::string p = text::strip(text::lower(prediction));
  for (const auto& r : references) {
    const std::string label = text::strip(text::lower(r));
    if (p.compare(0, label.size(), label) == 0) return 1.0;
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
