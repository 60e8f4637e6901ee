#pragma once
// NLTK 3.8 BLEU (nltk/translate/bleu_score.py) on pre-tokenized input:
// sentence_bleu / corpus_bleu with weights, smoothing method0 (none) or
// method1 (epsilon 0.1), as AudioCapBench reports BLEU-1..4;
// shared/specs/metric-specs.md §4.
#include <cstddef>
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

// What BLEU is made of, for one segment or summed over a corpus: per n-gram order the clipped
// matches and the hypothesis's n-grams (at least 1, NLTK's denominator), the hypothesis length and
// the closest reference length (ties to the shorter). Every BLEU-n of a segment or a corpus comes
// from one count of each segment.
struct NltkBleuCounts {
  std::vector<long> numerators, denominators;
  long hyp_length = 0, ref_length = 0;
  NltkBleuCounts& operator+=(const NltkBleuCounts& other);
};
// Counts orders 1..`orders` of one segment. Throws aeval::Error (data) when it has no reference.
NltkBleuCounts nltk_bleu_counts(const std::vector<Tokens>& references, const Tokens& hypothesis, std::size_t orders);
// BLEU from counts with at least as many orders as `options` has weights.
double nltk_bleu(const NltkBleuCounts& counts, const NltkBleuOptions& options);

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
