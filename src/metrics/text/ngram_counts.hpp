#pragma once
// N-gram counting over interned tokens: each n-gram is the string of its
// token ids, so counting never compares or hashes the words themselves twice.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace aeval::metrics::detail {

using Ngram = std::u32string;  // token ids, one char32_t each
using NgramCounts = std::unordered_map<Ngram, long>;

class Interner {
 public:
  std::u32string ids(const std::vector<std::string>& tokens) {
    std::u32string out;
    out.reserve(tokens.size());
    for (const auto& t : tokens) out.push_back(char32_t(table_.emplace(t, table_.size()).first->second));
    return out;
  }

 private:
  std::unordered_map<std::string, std::size_t> table_;
};

// All n-grams of order `order` (one map per order: counts[order - 1]).
inline std::vector<NgramCounts> count_ngrams(std::u32string_view ids, int min_order, int max_order) {
  std::vector<NgramCounts> counts(static_cast<std::size_t>(max_order));
  for (int n = min_order; n <= max_order; ++n)
    for (std::size_t i = 0; i + static_cast<std::size_t>(n) <= ids.size(); ++i)
      ++counts[static_cast<std::size_t>(n - 1)][Ngram(ids.substr(i, static_cast<std::size_t>(n)))];
  return counts;
}

}  // namespace aeval::metrics::detail
