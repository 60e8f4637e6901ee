#pragma once
// CIDEr-D as pycocoevalcap computes it (cider/cider_scorer.py: n = 4,
// sigma = 6, clipped tf-idf, Gaussian length penalty, x10, document
// frequencies from the whole corpus); shared/specs/metric-specs.md §7.
#include <string>
#include <string_view>
#include <vector>

namespace aeval::metrics {

struct CiderResult {
  double corpus = 0;             // mean of per_item
  std::vector<double> per_item;  // one score per candidate, in input order
};

// candidates[i] is scored against references[i]; all texts already tokenized
// (words separated by whitespace). The score depends on the whole corpus.
CiderResult cider_d(const std::vector<std::string>& candidates, const std::vector<std::vector<std::string>>& references,
                    int n = 4, double sigma = 6.0);

// The tokenization the golden vectors use instead of Stanford's PTBTokenizer:
// lowercase, ASCII punctuation to spaces, single spaces.
std::string cider_simple_tokenize(std::string_view text);

}  // namespace aeval::metrics
