// CIDEr-D: pycocoevalcap ad63453 cider_scorer.py (precook, document
// frequency, counts2vec, sim).
#include "aeval/metrics/cider.hpp"

#include <cmath>
#include <numbers>
#include <unordered_map>
#include <unordered_set>

#include "aeval/error.hpp"
#include "aeval/text/unicode.hpp"
#include "metrics/numpy_sum.hpp"
#include "metrics/text/ngram_counts.hpp"

namespace aeval::metrics {

namespace {

using detail::Ngram;

// N-gram counts in first-occurrence order (order 1 first), as Python's dict keeps them.
struct Cooked {
  std::vector<Ngram> order;
  std::unordered_map<Ngram, double> counts;
};

Cooked precook(const std::string& sentence, int n, detail::Interner& interner) {
  const std::u32string ids = interner.ids(text::split_whitespace(sentence));
  Cooked c;
  for (int k = 1; k <= n; ++k)
    for (std::size_t i = 0; i + static_cast<std::size_t>(k) <= ids.size(); ++i) {
      Ngram g = ids.substr(i, static_cast<std::size_t>(k));
      auto [it, inserted] = c.counts.emplace(g, 0.0);
      if (inserted) c.order.push_back(std::move(g));
      it->second += 1;
    }
  return c;
}

struct Vector {
  std::vector<std::vector<std::pair<const Ngram*, double>>> ordered;  // per order, insertion order
  std::vector<std::unordered_map<Ngram, double>> weights;
  std::vector<double> norm;
  double length = 0;  // number of bigrams: pycocoevalcap's "length"
};

}  // namespace

std::string cider_simple_tokenize(std::string_view input) {
  std::string s = text::lower(input);
  for (char& c : s)
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) c = ' ';
  return text::join(text::split_whitespace(s), " ");
}

CiderResult cider_d(const std::vector<std::string>& candidates, const std::vector<std::vector<std::string>>& references,
                    int n, double sigma) {
  if (candidates.size() != references.size())
    throw Error(ErrorCategory::data, "CIDEr-D: " + std::to_string(candidates.size()) + " candidates but " +
                                         std::to_string(references.size()) + " reference sets");
  if (candidates.empty()) throw Error(ErrorCategory::data, "CIDEr-D needs at least one candidate");
  detail::Interner interner;
  std::vector<Cooked> tests;
  std::vector<std::vector<Cooked>> refs(references.size());
  std::unordered_map<Ngram, double> document_frequency;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (references[i].empty())
      throw Error(ErrorCategory::data, "CIDEr-D: item " + std::to_string(i) + " has no reference");
    tests.push_back(precook(candidates[i], n, interner));
    std::unordered_set<Ngram> seen;
    for (const auto& r : references[i]) {
      refs[i].push_back(precook(r, n, interner));
      for (const auto& g : refs[i].back().order) seen.insert(g);
    }
    for (const auto& g : seen) document_frequency[g] += 1;
  }
  const double ref_len = std::log(double(candidates.size()));
  const auto orders = static_cast<std::size_t>(n);

  auto to_vector = [&](const Cooked& c) {
    Vector v;
    v.ordered.resize(orders);
    v.weights.resize(orders);
    v.norm.assign(orders, 0.0);
    for (const Ngram& g : c.order) {
      const double tf = c.counts.at(g);
      const auto df_it = document_frequency.find(g);
      const double df = std::log(std::max(1.0, df_it == document_frequency.end() ? 0.0 : df_it->second));
      const std::size_t k = g.size() - 1;
      const double w = tf * (ref_len - df);
      v.weights[k][g] = w;
      v.ordered[k].emplace_back(&g, w);
      v.norm[k] += std::pow(w, 2);
      if (k == 1) v.length += tf;
    }
    for (double& x : v.norm) x = std::sqrt(x);
    return v;
  };

  CiderResult result;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    const Vector hyp = to_vector(tests[i]);
    std::vector<double> score(orders, 0.0);
    for (const Cooked& r : refs[i]) {
      const Vector ref = to_vector(r);
      const double delta = hyp.length - ref.length;
      for (std::size_t k = 0; k < orders; ++k) {
        double val = 0.0;
        for (const auto& [gram, w] : hyp.ordered[k]) {
          const auto it = ref.weights[k].find(*gram);
          const double rw = it == ref.weights[k].end() ? 0.0 : it->second;
          val += std::min(w, rw) * rw;
        }
        if (hyp.norm[k] != 0 && ref.norm[k] != 0) val /= hyp.norm[k] * ref.norm[k];
        val *= std::pow(std::numbers::e, -(delta * delta) / (2 * sigma * sigma));
        score[k] += val;
      }
    }
    double average = detail::numpy_mean(score.data(), score.size());
    average /= double(refs[i].size());
    average *= 10.0;
    result.per_item.push_back(average);
  }
  result.corpus = detail::numpy_mean(result.per_item.data(), result.per_item.size());
  return result;
}

}  // namespace aeval::metrics
