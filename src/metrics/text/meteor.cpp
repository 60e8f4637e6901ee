// NLTK 3.8 nltk/translate/meteor_score.py: _match_enums, _enum_stem_match,
// _enum_wordnetsyn_match, _count_chunks, single_meteor_score.
#include "aeval/metrics/meteor.hpp"

#include <algorithm>
#include <cmath>

#include "aeval/error.hpp"
#include "aeval/text/porter_stemmer.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::metrics {

namespace {

using Enum = std::vector<std::pair<std::size_t, std::string>>;
using Matches = std::vector<std::pair<std::size_t, std::size_t>>;

// Greedy: each hypothesis word from the last to the first takes the last
// unmatched reference word that passes `same`.
template <class Same>
void match_stage(Enum& hyp, Enum& ref, Matches& matches, Same same) {
  for (std::size_t i = hyp.size(); i-- > 0;) {
    for (std::size_t j = ref.size(); j-- > 0;) {
      if (same(hyp[i].second, ref[j].second)) {
        matches.emplace_back(hyp[i].first, ref[j].first);
        hyp.erase(hyp.begin() + std::ptrdiff_t(i));
        ref.erase(ref.begin() + std::ptrdiff_t(j));
        break;
      }
    }
  }
}

std::size_t count_chunks(const Matches& m) {
  std::size_t chunks = 1;
  for (std::size_t i = 0; i + 1 < m.size(); ++i)
    if (!(m[i + 1].first == m[i].first + 1 && m[i + 1].second == m[i].second + 1)) ++chunks;
  return chunks;
}

Enum enumerate_lowered(const std::vector<std::string>& tokens) {
  Enum out;
  for (std::size_t i = 0; i < tokens.size(); ++i) out.emplace_back(i, text::lower(tokens[i]));
  return out;
}

}  // namespace

MeteorAlignment single_meteor(const std::vector<std::string>& reference, const std::vector<std::string>& hypothesis,
                              const text::WordNet& wordnet, const MeteorOptions& o) {
  Enum hyp = enumerate_lowered(hypothesis), ref = enumerate_lowered(reference);
  MeteorAlignment result;
  Matches& matches = result.matches;
  const auto equal = [](const std::string& a, const std::string& b) { return a == b; };
  match_stage(hyp, ref, matches, equal);
  // Stage 2 replaces the remaining words by their stems; stage 3 sees the stems.
  for (auto& [index, word] : hyp) word = text::porter_stem(word);
  for (auto& [index, word] : ref) word = text::porter_stem(word);
  match_stage(hyp, ref, matches, equal);
  if (o.synonyms) {
    for (std::size_t i = hyp.size(); i-- > 0;) {
      // The word itself and its synonyms' single-word lemma names.
      const std::string& word = hyp[i].second;
      const auto& names = wordnet.synonym_lemma_names(word);
      const auto synonym = [&](const std::string& candidate) {
        if (candidate == word) return true;
        for (const auto& name : names)
          if (name == candidate && name.find('_') == std::string::npos) return true;
        return false;
      };
      for (std::size_t j = ref.size(); j-- > 0;) {
        if (synonym(ref[j].second)) {
          matches.emplace_back(hyp[i].first, ref[j].first);
          hyp.erase(hyp.begin() + std::ptrdiff_t(i));
          ref.erase(ref.begin() + std::ptrdiff_t(j));
          break;
        }
      }
    }
  }
  std::stable_sort(matches.begin(), matches.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  const double m = double(matches.size());
  if (hypothesis.empty() || reference.empty() || matches.empty()) return result;  // ZeroDivisionError → 0.0
  const double precision = m / double(hypothesis.size());
  const double recall = m / double(reference.size());
  const double fmean = (precision * recall) / (o.alpha * precision + (1 - o.alpha) * recall);
  const double fragmentation = double(count_chunks(matches)) / m;
  const double penalty = o.gamma * std::pow(fragmentation, o.beta);
  result.score = (1 - penalty) * fmean;
  return result;
}

double meteor_score(const std::vector<std::vector<std::string>>& references, const std::vector<std::string>& hypothesis,
                    const text::WordNet& wordnet, const MeteorOptions& options) {
  if (references.empty()) throw Error(ErrorCategory::data, "METEOR needs at least one reference");
  double best = 0;
  bool first = true;
  for (const auto& r : references) {
    const double s = single_meteor(r, hypothesis, wordnet, options).score;
    if (first || s > best) best = s;
    first = false;
  }
  return best;
}

}  // namespace aeval::metrics
