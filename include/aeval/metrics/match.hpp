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
