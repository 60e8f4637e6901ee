// NLTK 3.8 bleu_score.py: modified precision with max(1, count) denominators,
// closest reference length (ties to the shorter), method0/method1, fsum.
#include "aeval/metrics/nltk_bleu.hpp"

#include <cfloat>
#include <cmath>

#include "aeval/error.hpp"
#include "aeval/text/unicode.hpp"
#include "metrics/text/ngram_counts.hpp"
#include "metrics/text/python_fsum.hpp"

namespace aeval::metrics {

double nltk_corpus_bleu(const std::vector<std::vector<Tokens>>& list_of_references, const std::vector<Tokens>& hypotheses,
                        const NltkBleuOptions& o) {
  if (list_of_references.size() != hypotheses.size())
    throw Error(ErrorCategory::data, "BLEU: " + std::to_string(hypotheses.size()) + " hypotheses but " +
                                         std::to_string(list_of_references.size()) + " reference lists");
  const std::size_t orders = o.weights.size();
  std::vector<long> numerators(orders, 0), denominators(orders, 0);
  long hyp_lengths = 0, ref_lengths = 0;
  detail::Interner interner;
  detail::with_ngram_key(int(orders), detail::kWordBits, [&]<class Key>() {
    for (std::size_t s = 0; s < hypotheses.size(); ++s) {
      const std::u32string hyp = interner.ids(hypotheses[s]);
      std::vector<std::u32string> refs;
      for (const auto& r : list_of_references[s]) refs.push_back(interner.ids(r));
      for (std::size_t n = 0; n < orders; ++n) {
        detail::Counts<Key> max_ref;
        for (const auto& r : refs)
          max_ref = detail::max_counts(max_ref, detail::count_ngrams<Key>(r, int(n + 1), detail::kWordBits));
        const auto counts = detail::count_ngrams<Key>(hyp, int(n + 1), detail::kWordBits);
        numerators[n] += detail::clipped_matches(counts, max_ref);
        denominators[n] += std::max(1L, detail::total(counts));
      }
      const long hyp_len = long(hyp.size());
      hyp_lengths += hyp_len;
      // min over references by (|len - hyp_len|, len)
      long best = -1;
      for (const auto& r : refs) {
        const long len = long(r.size());
        if (best < 0 || std::labs(len - hyp_len) < std::labs(best - hyp_len) ||
            (std::labs(len - hyp_len) == std::labs(best - hyp_len) && len < best))
          best = len;
      }
      if (best < 0) throw Error(ErrorCategory::data, "BLEU: hypothesis " + std::to_string(s) + " has no reference");
      ref_lengths += best;
    }
  });

  const double bp = hyp_lengths > ref_lengths ? 1.0
                    : hyp_lengths == 0        ? 0.0
                                              : std::exp(1.0 - double(ref_lengths) / double(hyp_lengths));
  if (orders == 0 || numerators[0] == 0) return 0.0;

  std::vector<double> terms;
  for (std::size_t n = 0; n < orders; ++n) {
    double p;
    if (numerators[n] != 0) {
      p = double(numerators[n]) / double(denominators[n]);
    } else if (o.smoothing == NltkSmoothing::method1) {
      p = o.epsilon / double(denominators[n]);
    } else {
      p = DBL_MIN;  // method0: sys.float_info.min, so log() stays finite
    }
    if (p > 0) terms.push_back(o.weights[n] * std::log(p));
  }
  return bp * std::exp(detail::python_fsum(terms));
}

double nltk_sentence_bleu(const std::vector<Tokens>& references, const Tokens& hypothesis, const NltkBleuOptions& o) {
  return nltk_corpus_bleu({references}, {hypothesis}, o);
}

NltkBleuOptions audiocapbench_bleu_n(int n) {
  if (n < 1 || n > 4) throw Error(ErrorCategory::config, "BLEU-n needs n in 1..4");
  NltkBleuOptions o;
  o.weights.assign(4, 0.0);
  for (int i = 0; i < n; ++i) o.weights[static_cast<std::size_t>(i)] = 1.0 / n;
  o.smoothing = NltkSmoothing::method1;
  return o;
}

Tokens lower_split(const std::string& text) { return text::split_whitespace(text::lower(text)); }

}  // namespace aeval::metrics
