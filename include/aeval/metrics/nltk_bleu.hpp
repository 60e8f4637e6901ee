#pragma once
// NLTK 3.8 BLEU (nltk/translate/bleu_score.py) on pre-tokenized input:
// sentence_bleu / corpus_bleu with weights, smoothing method0 (none) or
// method1 (epsilon 0.1), as AudioCapBench reports BLEU-1..4;
// shared/specs/metric-specs.md §4.
#include <string>
#include <vector>

namespace aeval::metrics {

using Tokens = std::vector<std::string>;

enum class NltkSmoothing { method0, method1 };

struct NltkBleuOptions {
  std::vector<double> weights{0.25, 0.25, 0.25, 0.25};
  NltkSmoothing smoothing = NltkSmoothing::method0;
  double epsilon = 0.1;  // method1
};

// One segment: references of one hypothesis.
double nltk_sentence_bleu(const std::vector<Tokens>& references, const Tokens& hypothesis,
                          const NltkBleuOptions& options = {});
// list_of_references[i] are the references of hypotheses[i].
double nltk_corpus_bleu(const std::vector<std::vector<Tokens>>& list_of_references, const std::vector<Tokens>& hypotheses,
                        const NltkBleuOptions& options = {});

// AudioCapBench's weights for BLEU-n: (1/n,)*n padded with zeros to 4 entries.
NltkBleuOptions audiocapbench_bleu_n(int n);

// text.lower().split(), AudioCapBench's tokenization.
Tokens lower_split(const std::string& text);

}  // namespace aeval::metrics
