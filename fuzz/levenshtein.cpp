// The alignment behind WER and CER (metrics::align) against the textbook:
// its opcodes turn the reference into the hypothesis, their edits add up to
// the distance of a whole-matrix DP, and below the size where RapidFuzz
// splits by Hirschberg's method they are those of RapidFuzz's backtrace
// through the whole matrix (shared/specs/metric-specs.md §1.2). Input: a
// byte for the vocabulary (low 4 bits) and for repeating both texts (high 4
// bits, to reach the split), then the two texts separated by a 0xFF byte.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "aeval/metrics/wer.hpp"

namespace {

using aeval::metrics::AlignmentChunk;
using Type = AlignmentChunk::Type;

void check(bool ok) {
  if (!ok) std::abort();
}

// Hits, substitutions, deletions and insertions of the spec's backtrace.
std::vector<std::size_t> reference_counts(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::size_t p = 0, s = 0;
  while (p < a.size() && p < b.size() && a[p] == b[p]) ++p;
  while (s < a.size() - p && s < b.size() - p && a[a.size() - 1 - s] == b[b.size() - 1 - s]) ++s;
  const std::size_t m = a.size() - p - s, n = b.size() - p - s, w = n + 1;
  std::vector<uint32_t> d((m + 1) * w);
  for (std::size_t j = 0; j <= n; ++j) d[j] = uint32_t(j);
  for (std::size_t i = 1; i <= m; ++i) {
    d[i * w] = uint32_t(i);
    for (std::size_t j = 1; j <= n; ++j)
      d[i * w + j] = std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1,
                               d[(i - 1) * w + j - 1] + (a[p + i - 1] != b[p + j - 1] ? 1u : 0u)});
  }
  std::vector<std::size_t> counts = {p + s, 0, 0, 0};
  std::size_t i = m, j = n;
  while (i > 0 && j > 0) {
    if (d[i * w + j] == d[(i - 1) * w + j] + 1) {
      --i, ++counts[2];
    } else {
      --j;
      if (j > 0 && d[i * w + j] + 1 == d[(i - 1) * w + j]) {
        ++counts[3];
      } else {
        --i;
        ++counts[a[p + i] != b[p + j] ? 1 : 0];
      }
    }
  }
  counts[2] += i;
  counts[3] += j;
  return counts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t vocabulary = (data[0] & 15) + 1, repeats = (data[0] >> 4) + 1;
  const uint8_t* end = data + size;
  const uint8_t* cut = std::find(data + 1, end, uint8_t(0xFF));
  std::vector<std::string> a, b;
  for (std::size_t r = 0; r < repeats; ++r) {
    for (const uint8_t* c = data + 1; c < cut; ++c) a.push_back(std::to_string(*c % vocabulary));
    for (const uint8_t* c = cut + (cut < end); c < end; ++c) b.push_back(std::to_string(*c % vocabulary));
  }
  if (a.size() * b.size() > 16'000'000) return 0;

  std::vector<AlignmentChunk> chunks;
  const auto counts = aeval::metrics::align(a, b, &chunks);
  // The opcodes tile both texts in order, and equal blocks are equal.
  std::size_t ra = 0, rb = 0;
  for (const auto& c : chunks) {
    check(c.ref_start == ra && c.hyp_start == rb && c.ref_end >= c.ref_start && c.hyp_end >= c.hyp_start);
    if (c.type == Type::equal || c.type == Type::substitute) check(c.ref_end - c.ref_start == c.hyp_end - c.hyp_start);
    if (c.type == Type::insert) check(c.ref_end == c.ref_start);
    if (c.type == Type::remove) check(c.hyp_end == c.hyp_start);
    for (std::size_t k = 0; c.type != Type::insert && c.type != Type::remove && k < c.ref_end - c.ref_start; ++k)
      check((a[c.ref_start + k] == b[c.hyp_start + k]) == (c.type == Type::equal));
    ra = c.ref_end;
    rb = c.hyp_end;
  }
  check(ra == a.size() && rb == b.size());
  const auto expected = reference_counts(a, b);
  check(counts.errors() == expected[1] + expected[2] + expected[3]);
  // Below RapidFuzz's split (a whole matrix of under 1 MiB of bits after the common ends), the same split of edits.
  std::size_t p = 0, s = 0;
  while (p < a.size() && p < b.size() && a[p] == b[p]) ++p;
  while (s < a.size() - p && s < b.size() - p && a[a.size() - 1 - s] == b[b.size() - 1 - s]) ++s;
  const std::size_t m = a.size() - p - s, n = b.size() - p - s;
  if (2 * m * n / 8 < 1024 * 1024 || m < 65 || n < 10)
    check(counts.hits == expected[0] && counts.substitutions == expected[1] && counts.deletions == expected[2] &&
          counts.insertions == expected[3]);
  return 0;
}
