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

NltkBleuCounts& NltkBleuCounts::operator+=(const NltkBleuCounts& other) {
  if (numerators.size() < other.numerators.size()) {
    numerators.resize(other.numerators.size(), 0);
    denominators.resize(other.denominators.size(), 0);
  }
  for (std::size_t n = 0; n < other.numerators.size(); ++n) {
    numerators[n] += other.numerators[n];
    denominators[n] += other.denominators[n];
  }
  hyp_length += other.hyp_length;
  ref_length += other.ref_length;
  return *this;
}

NltkBleuCounts nltk_bleu_counts(const std::vector<Tokens>& references, const Tokens& hypothesis, std::size_t orders) {
  NltkBleuCounts c;
  c.numerators.assign(orders, 0);
  c.denominators.assign(orders, 0);
  detail::Interner interner;
  const std::u32string hyp = interner.ids(hypothesis);
  std::vector<std::u32string> refs;
  for (const auto& r : references) refs.push_back(interner.ids(r));
  detail::with_ngram_key(int(orders), detail::kWordBits, [&]<class Key>() {
    for (std::size_t n = 0; n < orders; ++n) {
      detail::Counts<Key> max_ref;
      for (const auto& r : refs)
        max_ref = detail::max_counts(max_ref, detail::count_ngrams<Key>(r, int(n + 1), detail::kWordBits));
      const auto counts = detail::count_ngrams<Key>(hyp, int(n + 1), detail::kWordBits);
      c.numerators[n] = detail::clipped_matches(counts, max_ref);
      c.denominators[n] = std::max(1L, detail::total(counts));
    }
  });
  c.hyp_length = long(hyp.size());
  // min over references by (|len - hyp_len|, len)
  long best = -1;
  for (const auto& r : refs) {
    const long len = long(r.size());
    if (best < 0 || std::labs(len - c.hyp_length) < std::labs(best - c.hyp_length) ||
        (std::labs(len - c.hyp_length) == std::labs(best - c.hyp_length) && len < best))
      best = len;
  }
  if (best < 0) throw Error(ErrorCategory::data, "BLEU: a hypothesis has no reference");
  c.ref_length = best;
  return c;
}

double nltk_bleu(const NltkBleuCounts& c, const NltkBleuOptions& o) {
  const std::size_t orders = o.weights.size();
  if (c.numerators.size() < orders)
    throw Error(ErrorCategory::internal, "BLEU: counts of fewer orders than the weights have");
  const double bp = c.hyp_length > c.ref_length ? 1.0
                    : c.hyp_length == 0         ? 0.0
                                                : std::exp(1.0 - double(c.ref_length) / double(c.hyp_length));
  if (orders == 0 || c.numerators[0] == 0) return 0.0;

  std::vector<double> terms;
  for (std::size_t n = 0; n < orders; ++n) {
    double p;
    if (c.numerators[n] != 0) {
      p = double(c.numerators[n]) / double(c.denominators[n]);
    } else if (o.smoothing == NltkSmoothing::method1) {
      p = o.epsilon / double(c.denominators[n]);
    } else {
      p = DBL_MIN;  // method0: sys.float_info.min, so log() stays finite
    }
    if (p > 0) terms.push_back(o.weights[n] * std::log(p));
  }
  return bp * std::exp(detail::python_fsum(terms));
}

double nltk_corpus_bleu(const std::vector<std::vector<Tokens>>& list_of_references, const std::vector<Tokens>& hypotheses,
                        const NltkBleuOptions& o) {
  if (list_of_references.size() != hypotheses.size())
    throw Error(ErrorCategory::data, "BLEU: " + std::to_string(hypotheses.size()) + " hypotheses but " +
                                         std::to_string(list_of_references.size()) + " reference lists");
  NltkBleuCounts total;
  total.numerators.assign(o.weights.size(), 0);
  total.denominators.assign(o.weights.size(), 0);
  for (std::size_t s = 0; s < hypotheses.size(); ++s) {
    try {
      total += nltk_bleu_counts(list_of_references[s], hypotheses[s], o.weights.size());
    } catch (const Error&) {
      throw Error(ErrorCategory::data, "BLEU: hypothesis " + std::to_string(s) + " has no reference");
    }
  }
  return nltk_bleu(total, o);
}

double nltk_sentence_bleu(const std::vector<Tokens>& references, const Tokens& hypothesis, const NltkBleuOptions& o) {
  return nltk_bleu(nltk_bleu_counts(references, hypothesis, o.weights.size()), o);
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
