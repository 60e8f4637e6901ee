// kernels.hpp: the vector traits of each instruction set, kernels_isa.inl compiled once per
// set, and the choice among them at run time.
#include "dnsmos/kernels.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "aeval/error.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace aeval::dnsmos::kernels {

namespace {

// Tiles per Winograd block: a row of tiles at least (a layer streaming through rings runs one row at a
// time, and a block of its last few tiles would stream every point's weights again for a product of a few
// rows), else about 1.5 MB of transformed inputs and products (kWinogradPoints planes each); a multiple of
// every register tile's row count (6, 12, 24) when there is a choice.
int winograd_block_tiles(int in_channels, int out_channels, int width) {
  const int row = (width + kTileRows - 1) / kTileRows;
  const int tiles = (3 << 19) / (kWinogradPoints * 4 * (in_channels + out_channels));
  return std::max(row, tiles < 48 ? 24 : tiles / 24 * 24);
}

#if defined(__x86_64__)

namespace avx512 {
#define AEVAL_DNSMOS_TARGET __attribute__((target("avx512f,avx2,fma")))
#define AEVAL_DNSMOS_INLINE AEVAL_DNSMOS_TARGET inline __attribute__((always_inline))
struct F {
  using E = float;
  using V = __m512;
  static constexpr int lanes = 16, accumulators = 24, max_vectors = 4;
  AEVAL_DNSMOS_INLINE static V load(const float* p) { return _mm512_loadu_ps(p); }
  AEVAL_DNSMOS_INLINE static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
  AEVAL_DNSMOS_INLINE static V set1(float x) { return _mm512_set1_ps(x); }
  AEVAL_DNSMOS_INLINE static V zero() { return _mm512_setzero_ps(); }
  AEVAL_DNSMOS_INLINE static V fmadd(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  // (_mm512_max_ps trips GCC 12's -Wmaybe-uninitialized on its _mm512_undefined_ps.)
  AEVAL_DNSMOS_INLINE static V max(V a, V b) { return _mm512_maskz_max_ps(__mmask16(0xFFFF), a, b); }
};
struct D {
  using E = double;
  using V = __m512d;
  static constexpr int lanes = 8, accumulators = 24, max_vectors = 4;
  AEVAL_DNSMOS_INLINE static V load(const double* p) { return _mm512_loadu_pd(p); }
  AEVAL_DNSMOS_INLINE static void store(double* p, V v) { _mm512_storeu_pd(p, v); }
  AEVAL_DNSMOS_INLINE static V set1(double x) { return _mm512_set1_pd(x); }
  AEVAL_DNSMOS_INLINE static V zero() { return _mm512_setzero_pd(); }
  AEVAL_DNSMOS_INLINE static V fmadd(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
};
#include "dnsmos/kernels_isa.inl"
#undef AEVAL_DNSMOS_INLINE
#undef AEVAL_DNSMOS_TARGET
const KernelSet kSet{"avx512", gemm_f32, gemm_f64, conv3x3_single_input, conv3x3_winograd};
}  // namespace avx512

namespace avx2 {
#define AEVAL_DNSMOS_TARGET __attribute__((target("avx2,fma")))
#define AEVAL_DNSMOS_INLINE AEVAL_DNSMOS_TARGET inline __attribute__((always_inline))
struct F {
  using E = float;
  using V = __m256;
  static constexpr int lanes = 8, accumulators = 12, max_vectors = 2;
  AEVAL_DNSMOS_INLINE static V load(const float* p) { return _mm256_loadu_ps(p); }
  AEVAL_DNSMOS_INLINE static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
  AEVAL_DNSMOS_INLINE static V set1(float x) { return _mm256_set1_ps(x); }
  AEVAL_DNSMOS_INLINE static V zero() { return _mm256_setzero_ps(); }
  AEVAL_DNSMOS_INLINE static V fmadd(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  AEVAL_DNSMOS_INLINE static V max(V a, V b) { return _mm256_max_ps(a, b); }
};
struct D {
  using E = double;
  using V = __m256d;
  static constexpr int lanes = 4, accumulators = 12, max_vectors = 2;
  AEVAL_DNSMOS_INLINE static V load(const double* p) { return _mm256_loadu_pd(p); }
  AEVAL_DNSMOS_INLINE static void store(double* p, V v) { _mm256_storeu_pd(p, v); }
  AEVAL_DNSMOS_INLINE static V set1(double x) { return _mm256_set1_pd(x); }
  AEVAL_DNSMOS_INLINE static V zero() { return _mm256_setzero_pd(); }
  AEVAL_DNSMOS_INLINE static V fmadd(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
};
#include "dnsmos/kernels_isa.inl"
#undef AEVAL_DNSMOS_INLINE
#undef AEVAL_DNSMOS_TARGET
const KernelSet kSet{"avx2", gemm_f32, gemm_f64, conv3x3_single_input, conv3x3_winograd};
}  // namespace avx2

#endif

// GCC/Clang vector extensions of 16 bytes: SSE2 on any x86-64, NEON on ARM.
namespace portable {
#define AEVAL_DNSMOS_TARGET
#define AEVAL_DNSMOS_INLINE inline __attribute__((always_inline))
template <class T>
struct Vectors {
  using E = T;
  typedef T V __attribute__((vector_size(16)));
  static constexpr int lanes = 16 / sizeof(T), accumulators = 12, max_vectors = 2;
  AEVAL_DNSMOS_INLINE static V load(const T* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  AEVAL_DNSMOS_INLINE static void store(T* p, V v) { std::memcpy(p, &v, sizeof v); }
  AEVAL_DNSMOS_INLINE static V set1(T x) { return V{} + x; }
  AEVAL_DNSMOS_INLINE static V zero() { return V{}; }
  AEVAL_DNSMOS_INLINE static V fmadd(V a, V b, V c) { return a * b + c; }
  AEVAL_DNSMOS_INLINE static V max(V a, V b) {
    for (int i = 0; i < lanes; ++i) a[i] = a[i] < b[i] ? b[i] : a[i];
    return a;
  }
};
using F = Vectors<float>;
using D = Vectors<double>;
#include "dnsmos/kernels_isa.inl"
#undef AEVAL_DNSMOS_INLINE
#undef AEVAL_DNSMOS_TARGET
const KernelSet kSet{"portable", gemm_f32, gemm_f64, conv3x3_single_input, conv3x3_winograd};
}  // namespace portable

}  // namespace

std::size_t conv_scratch_floats(int in_channels, int out_channels, int width) {
  if (in_channels == 1) return 4 * std::size_t(width + 2);  // zero-padded input rows
  return std::size_t(kWinogradPoints) * (std::size_t(winograd_block_tiles(in_channels, out_channels, width)) *
                                std::size_t(in_channels + out_channels) + 32);
}

void winograd_weights(const float* onnx_weights, int out_channels, int in_channels, float* transformed) {
  // G of F(6×6, 3×3) at the points 0, ±1, ±2, ±1/2 and ∞ (Lavin & Gray's construction).
  static constexpr double G[8][3] = {{1, 0, 0},
                                     {-2.0 / 9, -2.0 / 9, -2.0 / 9},
                                     {-2.0 / 9, 2.0 / 9, -2.0 / 9},
                                     {1.0 / 90, 1.0 / 45, 2.0 / 45},
                                     {1.0 / 90, -1.0 / 45, 2.0 / 45},
                                     {32.0 / 45, 16.0 / 45, 8.0 / 45},
                                     {32.0 / 45, -16.0 / 45, 8.0 / 45},
                                     {0, 0, 1}};
  for (int k = 0; k < out_channels; ++k) {
    for (int c = 0; c < in_channels; ++c) {
      const float* g = onnx_weights + (std::size_t(k) * in_channels + c) * 9;
      double gg[8][3];  // G·g
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 3; ++j) gg[i][j] = G[i][0] * g[j] + G[i][1] * g[3 + j] + G[i][2] * g[6 + j];
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          transformed[(std::size_t(i * 8 + j) * in_channels + c) * out_channels + k] =
              float(gg[i][0] * G[j][0] + gg[i][1] * G[j][1] + gg[i][2] * G[j][2]);
    }
  }
}

const KernelSet& kernel_set(Simd simd) {
#if defined(__x86_64__)
  const bool avx512 = __builtin_cpu_supports("avx512f");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  const bool avx512 = false, avx2 = false;
#endif
  switch (simd) {
    case Simd::best:
      break;
    case Simd::portable:
      return portable::kSet;
    case Simd::avx2:
      if (!avx2) throw Error(ErrorCategory::internal, "DNSMOS kernels: this CPU lacks AVX2 and FMA");
      break;
    case Simd::avx512:
      if (!avx512) throw Error(ErrorCategory::internal, "DNSMOS kernels: this CPU lacks AVX-512");
      break;
  }
#if defined(__x86_64__)
  if (avx512 && simd != Simd::avx2) return avx512::kSet;
  if (avx2) return avx2::kSet;
#endif
  return portable::kSet;
}

}  // namespace aeval::dnsmos::kernels
