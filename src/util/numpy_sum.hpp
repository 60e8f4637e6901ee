#pragma once
// numpy's pairwise summation (np.sum / np.mean of a contiguous array), so that
// sums the references compute with numpy round the same way: blocks of 8
// partial sums up to 128 values, halves (multiples of 8) above. For float32
// arrays numpy sums in float32.
#include <cstddef>

namespace aeval::detail {

template <class T>
T numpy_pairwise_sum(const T* a, std::size_t n) {
  if (n < 8) {
    T sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += a[i];
    return sum;
  }
  if (n <= 128) {
    T r[8];
    for (std::size_t j = 0; j < 8; ++j) r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (std::size_t j = 0; j < 8; ++j) r[j] += a[i + j];
    T sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) sum += a[i];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return numpy_pairwise_sum(a, half) + numpy_pairwise_sum(a + half, n - half);
}

inline double numpy_mean(const double* a, std::size_t n) { return numpy_pairwise_sum(a, n) / double(n); }

}  // namespace aeval::detail
