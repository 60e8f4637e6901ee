#include "metrics/stats/stable_order.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace aeval::metrics {

// An LSD radix sort on the keys' bits, a byte a pass, passes where every key has the same byte skipped:
// linear, where a comparison sort of positions chases them through memory (measured in bench/README.md).
std::vector<std::size_t> stable_order_by(const std::vector<double>& keys, std::vector<std::size_t> order) {
  const std::size_t n = order.size();
  std::vector<std::uint64_t> bits(n), bits_next(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double v = keys[order[k]] == 0.0 ? 0.0 : keys[order[k]];
    const auto u = std::bit_cast<std::uint64_t>(v);
    bits[k] = (u >> 63) ? ~u : u | (std::uint64_t{1} << 63);
  }
  std::vector<std::size_t> order_next(n);
  for (int shift = 0; shift < 64; shift += 8) {
    std::size_t count[257] = {};
    for (std::size_t k = 0; k < n; ++k) ++count[((bits[k] >> shift) & 0xff) + 1];
    if (std::find(count + 1, count + 257, n) != count + 257) continue;  // one byte value: already in order
    for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t to = count[(bits[k] >> shift) & 0xff]++;
      bits_next[to] = bits[k];
      order_next[to] = order[k];
    }
    bits.swap(bits_next);
    order.swap(order_next);
  }
  return order;
}

}  // namespace aeval::metrics
