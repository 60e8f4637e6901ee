#pragma once
// Answer matching for spoken QA and multiple-choice benchmarks. Texts are
// compared after SQuAD-style normalization: lowercase, ASCII punctuation
// removed, articles (a, an, the) removed, whitespace collapsed.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aeval::metrics {

std::string normalize_answer(std::string_view text);

// 1 when the normalized prediction equals a normalized reference, else 0.
double exact_match(std::string_view prediction, const std::vector<std::string>& references);
// 1 when a normalized reference occurs in the normalized prediction as a run
// of whole words ("paris" in "it is paris", not "no" in "know"), else 0.
double exist_match(std::string_view prediction, const std::vector<std::string>& references);
// UltraEval-Audio's qa-exist-match (its QAExistMatchEvaluator, the has_answer
// check of DPR): both texts NFD-normalized and split into tokens (runs of
// letters, numbers and marks, or any single character that is neither a
// separator nor a control/format/unassigned code point), each token
// lowercased as Python's str.lower; 1 when the token sequence of a reference
// occurs contiguously in the prediction's, else 0. An empty reference matches.
double qa_exist_match(std::string_view prediction, const std::vector<std::string>& references);
// The tokens qa_exist_match compares.
std::vector<std::string> qa_exist_match_tokens(std::string_view text);
// MMAU's official string_match (used by UltraEval-Audio's choice-strings-match):
// word sets (Python re `\b\w+\b` of the lowercased text); 1 when the answer's
// words are all in the prediction and the prediction has none of the words of
// the other choices that the answer lacks (choices whose word set equals the
// answer's are not "other"), and the prediction has a word at all.
double choice_strings_match(std::string_view prediction, std::string_view answer, const std::vector<std::string>& choices);
// UltraEval-Audio's em for text labels (EM): 1 when the answer, stripped as
// Python's str.strip, equals a stripped reference, else 0.
double strip_equal(std::string_view prediction, const std::vector<std::string>& references);
// UltraEval-Audio's prefix-match (PrefixMatch, ignore_case): 1 when the
// answer, lowercased and stripped as Python does, starts with a reference
// lowercased and stripped, else 0.
double prefix_match(std::string_view prediction, const std::vector<std::string>& references);
// SQuAD token F1 (bag of normalized words), max over references.
double token_f1(std::string_view prediction, const std::vector<std::string>& references);

// The option a free-form answer chose among labelled options ("A", "B", ...):
// a standalone label ("B", "(B)", "B.", "answer is B"), else the single
// option whose text the answer contains. Nothing when it is ambiguous.
std::optional<std::string> extract_choice(std::string_view prediction, const std::vector<std::string>& labels,
                                          const std::vector<std::string>& option_texts);
// 1 when the extracted choice is the gold label, else 0.
double choice_accuracy(std::string_view prediction, const std::string& gold_label,
                       const std::vector<std::string>& labels, const std::vector<std::string>& option_texts);

}  // namespace aeval::metrics
