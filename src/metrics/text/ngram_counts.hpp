#pragma once
// N-gram counting without hashing or per-n-gram allocation: an n-gram of
// interned symbols becomes one sortable key, counts are sorted (key, count)
// runs, and matching is a merge. A key packs the n-gram exactly into 128 bits
// when n * bits fits (4 word ids of 32 bits, 6 code points of 21 bits);
// longer n-grams use the symbols themselves as the key. Either way the
// counts are exact.
#include <algorithm>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace aeval::metrics::detail {

__extension__ typedef unsigned __int128 PackedKey;

constexpr int kWordBits = 32;  // interned word ids
constexpr int kCharBits = 21;  // Unicode code points

inline bool packs(int order, int bits) { return order * bits <= 128; }

template <class Key>
using Counts = std::vector<std::pair<Key, long>>;  // sorted by key, one entry per distinct n-gram

template <class Key>
Key make_key(std::u32string_view symbols, std::size_t start, int order, int bits) {
  if constexpr (std::is_same_v<Key, PackedKey>) {
    PackedKey key = 0;
    for (int k = 0; k < order; ++k) key = (key << bits) | PackedKey(symbols[start + static_cast<std::size_t>(k)]);
    return key;
  } else {
    return Key(symbols.substr(start, static_cast<std::size_t>(order)));
  }
}

// All n-grams of one order, counted.
template <class Key>
Counts<Key> count_ngrams(std::u32string_view symbols, int order, int bits) {
  std::vector<Key> keys;
  const auto n = static_cast<std::size_t>(order);
  if (symbols.size() >= n) {
    keys.reserve(symbols.size() - n + 1);
    for (std::size_t i = 0; i + n <= symbols.size(); ++i) keys.push_back(make_key<Key>(symbols, i, order, bits));
  }
  std::sort(keys.begin(), keys.end());
  Counts<Key> counts;
  for (std::size_t i = 0; i < keys.size();) {
    std::size_t j = i + 1;
    while (j < keys.size() && keys[j] == keys[i]) ++j;
    counts.emplace_back(std::move(keys[i]), long(j - i));
    i = j;
  }
  return counts;
}

template <class Key>
long total(const Counts<Key>& c) {
  long sum = 0;
  for (const auto& [key, count] : c) sum += count;
  return sum;
}

// Σ over shared n-grams of min(count in a, count in b): clipped matches.
template <class Key>
long clipped_matches(const Counts<Key>& a, const Counts<Key>& b) {
  long matches = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].first < b[j].first) {
      ++i;
    } else if (b[j].first < a[i].first) {
      ++j;
    } else {
      matches += std::min(a[i].second, b[j].second);
      ++i, ++j;
    }
  }
  return matches;
}

// The per-n-gram maximum of two count lists (multi-reference clipping).
template <class Key>
Counts<Key> max_counts(const Counts<Key>& a, const Counts<Key>& b) {
  Counts<Key> out;
  out.reserve(a.size() + b.size());
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) {
      out.push_back(a[i++]);
    } else if (i == a.size() || b[j].first < a[i].first) {
      out.push_back(b[j++]);
    } else {
      out.emplace_back(a[i].first, std::max(a[i].second, b[j].second));
      ++i, ++j;
    }
  }
  return out;
}

// Runs `body.template operator()<Key>()` with the packed key when it fits.
template <class Body>
auto with_ngram_key(int max_order, int bits, Body&& body) {
  if (packs(max_order, bits)) return body.template operator()<PackedKey>();
  return body.template operator()<std::u32string>();
}

// Words to dense ids, shared by everything compared in one call: an
// open-addressing table over the interner's own copies of the words.
class Interner {
 public:
  std::u32string ids(const std::vector<std::string>& tokens) {
    std::u32string out;
    out.reserve(tokens.size());
    for (const auto& t : tokens) out.push_back(id(t));
    return out;
  }

 private:
  char32_t id(std::string_view token) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = std::hash<std::string_view>{}(token) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (!slot.used) {
        slot = {words_.emplace_back(token), char32_t(count_++), true};
        return slot.id;
      }
      if (slot.token == token) return slot.id;
    }
  }

  void grow() {
    std::vector<Slot> old(std::max<std::size_t>(64, slots_.size() * 2));
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (!s.used) continue;
      std::size_t i = std::hash<std::string_view>{}(s.token) & mask;
      while (slots_[i].used) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  struct Slot {
    std::string_view token;
    char32_t id = 0;
    bool used = false;
  };
  std::vector<Slot> slots_;
  std::deque<std::string> words_;  // stable addresses for the views in slots_
  std::size_t count_ = 0;
};

}  // namespace aeval::metrics::detail
