// CIDEr-D: pycocoevalcap ad63453 cider_scorer.py (precook, document
// frequency, counts2vec, sim).
#include "aeval/metrics/cider.hpp"

#include <cmath>
#include <numbers>
#include <algorithm>

#include "aeval/error.hpp"
#include "aeval/text/unicode.hpp"
#include "util/numpy_sum.hpp"
#include "metrics/text/ngram_counts.hpp"

namespace aeval::metrics {

namespace {

// One sentence's n-grams per order: sorted counts for lookups, and the
// first-occurrence order in which Python's dicts iterate (and sum).
template <class Key>
struct Cooked {
  std::vector<detail::Counts<Key>> sorted;
  std::vector<std::vector<std::pair<Key, double>>> ordered;
};

template <class Key>
Cooked<Key> precook(const std::string& sentence, int n, detail::Interner& interner) {
  const std::u32string ids = interner.ids(text::split_whitespace(sentence));
  Cooked<Key> c;
  for (int k = 1; k <= n; ++k) {
    auto counts = detail::count_ngrams<Key>(ids, k, detail::kWordBits);
    std::vector<bool> emitted(counts.size(), false);
    std::vector<std::pair<Key, double>> ordered;
    for (std::size_t i = 0; i + static_cast<std::size_t>(k) <= ids.size(); ++i) {
      const Key key = detail::make_key<Key>(ids, i, k, detail::kWordBits);
      const auto it = std::lower_bound(counts.begin(), counts.end(), key,
                                       [](const auto& entry, const Key& value) { return entry.first < value; });
      const auto at = static_cast<std::size_t>(it - counts.begin());
      if (!emitted[at]) {
        emitted[at] = true;
        ordered.emplace_back(key, double(it->second));
      }
    }
    c.sorted.push_back(std::move(counts));
    c.ordered.push_back(std::move(ordered));
  }
  return c;
}

template <class Key>
struct Vector {
  std::vector<std::vector<std::pair<Key, double>>> ordered;  // tf-idf weights, first-occurrence order
  std::vector<std::vector<std::pair<Key, double>>> sorted;   // the same, sorted by key
  std::vector<double> norm;
  double length = 0;  // number of bigrams: pycocoevalcap's "length"
};

template <class Key>
double lookup(const std::vector<std::pair<Key, double>>& sorted, const Key& key) {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), key,
                                   [](const auto& entry, const Key& value) { return entry.first < value; });
  return it != sorted.end() && it->first == key ? it->second : 0.0;
}

template <class Key>
CiderResult cider_with(const std::vector<std::string>& candidates, const std::vector<std::vector<std::string>>& references,
                       int n, double sigma) {
  detail::Interner interner;
  const auto orders = static_cast<std::size_t>(n);
  std::vector<Cooked<Key>> tests;
  std::vector<std::vector<Cooked<Key>>> refs(references.size());
  // Document frequency: in how many items' reference sets each n-gram occurs.
  std::vector<std::vector<Key>> occurrences(orders);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (references[i].empty())
      throw Error(ErrorCategory::data, "CIDEr-D: item " + std::to_string(i) + " has no reference");
    tests.push_back(precook<Key>(candidates[i], n, interner));
    std::vector<detail::Counts<Key>> present(orders);
    for (const auto& r : references[i]) {
      refs[i].push_back(precook<Key>(r, n, interner));
      for (std::size_t k = 0; k < orders; ++k) present[k] = detail::max_counts(present[k], refs[i].back().sorted[k]);
    }
    for (std::size_t k = 0; k < orders; ++k)
      for (const auto& entry : present[k]) occurrences[k].push_back(entry.first);
  }
  std::vector<detail::Counts<Key>> document_frequency(orders);
  for (std::size_t k = 0; k < orders; ++k) {
    std::sort(occurrences[k].begin(), occurrences[k].end());
    for (std::size_t a = 0; a < occurrences[k].size();) {
      std::size_t b = a + 1;
      while (b < occurrences[k].size() && occurrences[k][b] == occurrences[k][a]) ++b;
      document_frequency[k].emplace_back(occurrences[k][a], long(b - a));
      a = b;
    }
  }
  const double ref_len = std::log(double(candidates.size()));

  auto to_vector = [&](const Cooked<Key>& c) {
    Vector<Key> v;
    v.ordered.resize(orders);
    v.norm.assign(orders, 0.0);
    for (std::size_t k = 0; k < orders; ++k) {
      const auto& df_list = document_frequency[k];
      for (const auto& [key, tf] : c.ordered[k]) {
        const auto it = std::lower_bound(df_list.begin(), df_list.end(), key,
                                         [](const auto& entry, const Key& value) { return entry.first < value; });
        const double df_count = it != df_list.end() && it->first == key ? double(it->second) : 0.0;
        const double w = tf * (ref_len - std::log(std::max(1.0, df_count)));
        v.ordered[k].emplace_back(key, w);
        v.norm[k] += std::pow(w, 2);
        if (k == 1) v.length += tf;
      }
      v.norm[k] = std::sqrt(v.norm[k]);
      v.sorted.push_back(v.ordered[k]);
      std::sort(v.sorted[k].begin(), v.sorted[k].end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    return v;
  };

  CiderResult result;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    const Vector<Key> hyp = to_vector(tests[i]);
    std::vector<double> score(orders, 0.0);
    for (const auto& r : refs[i]) {
      const Vector<Key> ref = to_vector(r);
      const double delta = hyp.length - ref.length;
      for (std::size_t k = 0; k < orders; ++k) {
        double val = 0.0;
        for (const auto& [key, w] : hyp.ordered[k]) {
          const double rw = lookup(ref.sorted[k], key);
          val += std::min(w, rw) * rw;
        }
        if (hyp.norm[k] != 0 && ref.norm[k] != 0) val /= hyp.norm[k] * ref.norm[k];
        val *= std::pow(std::numbers::e, -(delta * delta) / (2 * sigma * sigma));
        score[k] += val;
      }
    }
    double average = aeval::detail::numpy_mean(score.data(), score.size());
    average /= double(refs[i].size());
    average *= 10.0;
    result.per_item.push_back(average);
  }
  result.corpus = aeval::detail::numpy_mean(result.per_item.data(), result.per_item.size());
  return result;
}

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
  if (n < 1) throw Error(ErrorCategory::config, "CIDEr-D needs n >= 1");
  return detail::with_ngram_key(n, detail::kWordBits,
                                [&]<class Key>() { return cider_with<Key>(candidates, references, n, sigma); });
}

}  // namespace aeval::metrics
