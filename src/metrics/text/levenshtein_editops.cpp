// RapidFuzz's Levenshtein editops in linear memory. Columns of the matrix are
// computed 64 rows at a time by Hyyrö's bit-parallel algorithm (2003), only
// within a band around the diagonal as wide as the distance: every cell on a
// shortest alignment lies in it, so it is exact where it matters and the
// result is the same as the whole matrix's.
#include "levenshtein_editops.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace aeval::metrics::levenshtein {

namespace {

using Seq = std::span<const int>;
using Type = AlignmentChunk::Type;
constexpr std::size_t kUnknown = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kWord = 64;

// For each 64-token block of a pattern, the bit mask of where each token
// occurs in it, sorted by token and block so that a column finds the masks of
// its token for consecutive blocks in one search.
class BlockMasks {
 public:
  struct Entry {
    int token;
    std::size_t block;
    uint64_t mask;
  };
  explicit BlockMasks(Seq pattern) {
    std::vector<Entry> all;
    all.reserve(pattern.size());
    for (std::size_t i = 0; i < pattern.size(); ++i) all.push_back({pattern[i], i / kWord, uint64_t{1} << (i % kWord)});
    std::sort(all.begin(), all.end(), before);
    for (const Entry& e : all) {
      if (!entries_.empty() && entries_.back().token == e.token && entries_.back().block == e.block)
        entries_.back().mask |= e.mask;
      else
        entries_.push_back(e);
    }
  }
  // The entries of `token` in blocks first..last.
  std::span<const Entry> of(int token, std::size_t first, std::size_t last) const {
    const auto begin = std::lower_bound(entries_.begin(), entries_.end(), Entry{token, first, 0}, before);
    return {begin, std::lower_bound(begin, entries_.end(), Entry{token, last + 1, 0}, before)};
  }

 private:
  static bool before(const Entry& x, const Entry& y) {
    return x.token != y.token ? x.token < y.token : x.block < y.block;
  }
  std::vector<Entry> entries_;
};

// The vertical differences D[i][j] - D[i-1][j] of every column j, kept for the
// blocks of the band only.
class Deltas {
 public:
  void start_column(std::size_t first_block) {
    first_.push_back(first_block);
    begin_.push_back(vp_.size());
  }
  void add(uint64_t vp, uint64_t vn) {
    vp_.push_back(vp);
    vn_.push_back(vn);
  }
  // Rows and columns count from 1; outside the band both are false.
  bool plus_one(std::size_t row, std::size_t column) const { return bit(vp_, row, column); }
  bool minus_one(std::size_t row, std::size_t column) const { return bit(vn_, row, column); }

 private:
  bool bit(const std::vector<uint64_t>& words, std::size_t row, std::size_t column) const {
    const std::size_t block = (row - 1) / kWord, c = column - 1;
    if (block < first_[c]) return false;
    const std::size_t at = begin_[c] + block - first_[c];
    const std::size_t end = c + 1 < begin_.size() ? begin_[c + 1] : words.size();
    return at < end && (words[at] >> ((row - 1) % kWord) & 1);
  }
  std::vector<std::size_t> first_, begin_;
  std::vector<uint64_t> vp_, vn_;
};

// The last column of the Levenshtein matrix of a against b: entry i is the
// distance from a[:i] to b. Only blocks holding cells within `band` of the
// diagonal are computed; a cell dropped above the band is taken to grow by
// one per column and a block joining below it to grow by one per row, which
// can only overstate. So an entry whose true value is at most `band` is
// exact, and any other is kUnknown or larger than `band`.
std::vector<std::size_t> last_column(Seq a, Seq b, std::size_t band, Deltas* deltas = nullptr) {
  const std::size_t m = a.size(), n = b.size();
  std::vector<std::size_t> column(m + 1, kUnknown);
  if (m == 0) {
    column[0] = n;
    return column;
  }
  const BlockMasks masks(a);
  const std::size_t blocks = (m + kWord - 1) / kWord;
  const auto rows_in = [&](std::size_t block) { return std::min(kWord, m - block * kWord); };
  const auto block_of = [](std::size_t row) { return (row - 1) / kWord; };
  std::vector<uint64_t> vp(blocks, ~uint64_t{0}), vn(blocks, 0);
  std::vector<std::size_t> score(blocks);  // D at the block's last row
  std::size_t first = 0, last = block_of(std::min(m, band + 1));
  for (std::size_t k = 0; k <= last; ++k) score[k] = k * kWord + rows_in(k);

  for (std::size_t j = 1; j <= n; ++j) {
    if (j > m + band) return column;  // the band has left the matrix
    first = block_of(std::max<std::size_t>(1, j > band ? j - band : 1));
    for (const std::size_t to = block_of(std::min(m, j + band)); last < to;) {
      ++last;
      vp[last] = ~uint64_t{0};
      vn[last] = 0;
      score[last] = score[last - 1] + rows_in(last);
    }
    if (deltas) deltas->start_column(first);
    uint64_t hp_carry = 1, hn_carry = 0;  // the row above the band grows by one
    const auto matches = masks.of(b[j - 1], first, last);
    std::size_t next_match = 0;
    for (std::size_t k = first; k <= last; ++k) {
      uint64_t x = hn_carry;
      if (next_match < matches.size() && matches[next_match].block == k) x |= matches[next_match++].mask;
      const uint64_t d0 = (((x & vp[k]) + vp[k]) ^ vp[k]) | x | vn[k];
      uint64_t hp = vn[k] | ~(d0 | vp[k]);
      uint64_t hn = d0 & vp[k];
      const uint64_t last_row = uint64_t{1} << (rows_in(k) - 1);
      score[k] = score[k] + ((hp & last_row) ? 1 : 0) - ((hn & last_row) ? 1 : 0);
      const uint64_t hp_out = hp >> 63, hn_out = hn >> 63;
      hp = (hp << 1) | hp_carry;
      hn = (hn << 1) | hn_carry;
      vp[k] = hn | ~(d0 | hp);
      vn[k] = hp & d0;
      hp_carry = hp_out;
      hn_carry = hn_out;
      if (deltas) deltas->add(vp[k], vn[k]);
    }
  }
  if (first == 0) column[0] = n;
  for (std::size_t k = first; k <= last; ++k) {
    std::size_t value = score[k];
    for (std::size_t r = rows_in(k); r > 0; --r) {
      column[k * kWord + r] = value;
      value = value - (vp[k] >> (r - 1) & 1) + (vn[k] >> (r - 1) & 1);
    }
  }
  return column;
}

// The backtrace RapidFuzz's recover_alignment makes (shared/specs §1.2).
void backtrace(Seq a, Seq b, std::size_t band, std::size_t src, std::size_t dst, std::vector<EditOp>& out) {
  Deltas deltas;
  if (!a.empty() && !b.empty()) last_column(a, b, band, &deltas);
  const std::size_t begin = out.size();
  std::size_t i = a.size(), j = b.size();
  while (i > 0 && j > 0) {
    if (deltas.plus_one(i, j)) {
      --i;
      out.push_back({Type::remove, src + i, dst + j});
    } else {
      --j;
      if (j > 0 && deltas.minus_one(i, j)) {
        out.push_back({Type::insert, src + i, dst + j});
      } else {
        --i;
        if (a[i] != b[j]) out.push_back({Type::substitute, src + i, dst + j});
      }
    }
  }
  while (i > 0) {
    --i;
    out.push_back({Type::remove, src + i, dst + j});
  }
  while (j > 0) {
    --j;
    out.push_back({Type::insert, src + i, dst + j});
  }
  std::reverse(out.begin() + std::ptrdiff_t(begin), out.end());
}

struct Split {
  std::size_t a_mid, b_mid, left, right;  // left, right: the distances of the two halves
};

// RapidFuzz's find_hirschberg_pos: b is cut in the middle and a where the
// distances of the two halves first add up to the least. A band narrower
// than the distance finds no sum within it and is doubled.
Split hirschberg_split(Seq a, Seq b, std::size_t band, std::size_t max) {
  const std::size_t m = a.size(), b_mid = b.size() / 2;
  const std::vector<int> a_reversed(a.rbegin(), a.rend()), right_reversed(b.rbegin(), b.rend() - std::ptrdiff_t(b_mid));
  for (;; band = std::min(2 * band, max)) {
    const std::vector<std::size_t> right = last_column(a_reversed, right_reversed, band);
    const std::vector<std::size_t> left = last_column(a, b.first(b_mid), band);
    Split best{0, b_mid, kUnknown, kUnknown};
    std::size_t best_sum = kUnknown;
    for (std::size_t i = 0; i <= m; ++i) {
      if (left[i] == kUnknown || right[m - i] == kUnknown || left[i] + right[m - i] >= best_sum) continue;
      best_sum = left[i] + right[m - i];
      best = {i, b_mid, left[i], right[m - i]};
    }
    if (best_sum <= band) return best;
  }
}

// RapidFuzz's levenshtein_align_hirschberg. `max` bounds the distance: the
// longer length at the top, a half's distance below. RapidFuzz decides by it
// whether to split; aeval also computes only within it, starting the split's
// band from `guess`.
void align(Seq a, Seq b, std::size_t src, std::size_t dst, std::size_t max, std::size_t guess,
           std::vector<EditOp>& out) {
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  a = a.subspan(prefix);
  b = b.subspan(prefix);
  std::size_t suffix = 0;
  while (suffix < a.size() && suffix < b.size() && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) ++suffix;
  a = a.first(a.size() - suffix);
  b = b.first(b.size() - suffix);
  src += prefix;
  dst += prefix;

  max = std::min(max, std::max(a.size(), b.size()));
  const std::size_t full_band = std::min(a.size(), 2 * max + 1);
  const std::size_t matrix_bytes = 2 * full_band * b.size() / 8;
  if (matrix_bytes < 1024 * 1024 || a.size() < 65 || b.size() < 10) {
    backtrace(a, b, max, src, dst, out);
    return;
  }
  const std::size_t gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  const Split split = hirschberg_split(a, b, std::min(max, std::max({guess, gap, kWord})), max);
  align(a.first(split.a_mid), b.first(split.b_mid), src, dst, split.left, split.left, out);
  align(a.subspan(split.a_mid), b.subspan(split.b_mid), src + split.a_mid, dst + split.b_mid, split.right, split.right,
        out);
}

}  // namespace

std::vector<EditOp> editops(Seq a, Seq b) {
  std::vector<EditOp> ops;
  align(a, b, 0, 0, std::max(a.size(), b.size()), 0, ops);
  return ops;
}

}  // namespace aeval::metrics::levenshtein
