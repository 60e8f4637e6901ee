#pragma once
// METEOR as NLTK 3.8's meteor_score computes it: greedy right-to-left
// alignment in three stages (exact, Porter stem, WordNet synonym of the
// stem), alpha 0.9, beta 3, gamma 0.5, max over references;
// shared/specs/metric-specs.md §5.1. Not Java METEOR 1.5.
#include <string>
#include <utility>
#include <vector>

#include "aeval/text/wordnet.hpp"

namespace aeval::metrics {

struct MeteorOptions {
  double alpha = 0.9, beta = 3.0, gamma = 0.5;
  bool synonyms = true;  // the WordNet stage
};

struct MeteorAlignment {
  double score = 0;
  std::vector<std::pair<std::size_t, std::size_t>> matches;  // (hypothesis index, reference index)
};

// Tokens are used as given (after Python's str.lower()); a reference list
// uses the best-scoring reference.
MeteorAlignment single_meteor(const std::vector<std::string>& reference, const std::vector<std::string>& hypothesis,
                              const text::WordNet& wordnet, const MeteorOptions& options = {});
double meteor_score(const std::vector<std::vector<std::string>>& references, const std::vector<std::string>& hypothesis,
                    const text::WordNet& wordnet, const MeteorOptions& options = {});

}  // namespace aeval::metrics
