// The kernels of kernels.hpp for one instruction set. kernels.cpp includes this file once per
// set, inside a namespace of its own, after defining AEVAL_DNSMOS_TARGET (the attribute that
// enables the set), AEVAL_DNSMOS_INLINE and the vector traits F (float) and D (double):
// E (element), V (vector), lanes, accumulators (vector registers the products may hold),
// max_vectors (widest panel of a product, in vectors), load, store, set1, zero, fmadd (a·b + c)
// and max. Every function carries the attribute, so intrinsics inline and no code compiled
// for one set is shared with another. No standard-library templates here, for the same reason.

// ---- matrix product: register tiles of MR rows × NV vectors, k innermost (one FMA chain
// per output element, in k order).

template <class S, int MR, int NV>
AEVAL_DNSMOS_INLINE void gemm_tile(int K, const typename S::E* A, long lda, const typename S::E* B, long ldb,
                                   typename S::E* C, long ldc) {
  using V = typename S::V;
  V acc[MR][NV];
#pragma GCC unroll 32
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[r][v] = S::zero();
  for (int k = 0; k < K; ++k) {
    V b[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) b[v] = S::load(B + k * ldb + v * S::lanes);
#pragma GCC unroll 32
    for (int r = 0; r < MR; ++r) {
      const V a = S::set1(A[r * lda + k]);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[r][v] = S::fmadd(a, b[v], acc[r][v]);
    }
  }
#pragma GCC unroll 32
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) S::store(C + r * ldc + v * S::lanes, acc[r][v]);
}

template <class S, int NV>
AEVAL_DNSMOS_INLINE void gemm_panel(const Gemm<typename S::E>& g, int n0) {
  constexpr int MR = S::accumulators / NV;
  int m = 0;
  for (; m + MR <= g.M; m += MR)
    gemm_tile<S, MR, NV>(g.K, g.A + m * g.lda, g.lda, g.B + n0, g.ldb, g.C + m * g.ldc + n0, g.ldc);
  for (; m < g.M; ++m) gemm_tile<S, 1, NV>(g.K, g.A + m * g.lda, g.lda, g.B + n0, g.ldb, g.C + m * g.ldc + n0, g.ldc);
}

template <class S>
AEVAL_DNSMOS_INLINE void gemm(const Gemm<typename S::E>& g) {
  for (int n0 = 0; n0 < g.N;) {
    const int vectors = (g.N - n0) / S::lanes;
    if constexpr (S::max_vectors >= 4) {
      if (vectors >= 4) {
        gemm_panel<S, 4>(g, n0);
        n0 += 4 * S::lanes;
        continue;
      }
    }
    if (vectors >= 2) {
      gemm_panel<S, 2>(g, n0);
      n0 += 2 * S::lanes;
    } else {
      gemm_panel<S, 1>(g, n0);
      n0 += S::lanes;
    }
  }
}

// ---- 3×3 convolution of a one-channel image, directly: 9 taps per output vector.

AEVAL_DNSMOS_INLINE void single_input_taps(const Conv3x3& c, int y, int x, float* taps) {
  for (int dy = 0; dy < 3; ++dy) {
    for (int dx = 0; dx < 3; ++dx) {
      const int yy = y + dy - 1, xx = x + dx - 1;
      const bool inside = yy >= 0 && yy < c.height && xx >= 0 && xx < c.width;
      taps[dy * 3 + dx] = inside ? c.in[long(yy) * c.width + xx] : 0.0f;
    }
  }
}

AEVAL_DNSMOS_INLINE F::V single_input_pixel(const Conv3x3& c, const float* taps, int k) {
  F::V acc = F::load(c.bias + k);
  for (int tap = 0; tap < 9; ++tap) acc = F::fmadd(F::set1(taps[tap]), F::load(c.weights + tap * c.out_channels + k), acc);
  return F::max(acc, F::zero());
}

AEVAL_DNSMOS_TARGET void conv3x3_single_input(const Conv3x3& c) {
  const int K = c.out_channels;
  const int out_h = c.pool ? c.height / 2 : c.height, out_w = c.pool ? c.width / 2 : c.width;
  float taps[4][9];
  for (int oy = 0; oy < out_h; ++oy) {
    for (int ox = 0; ox < out_w; ++ox) {
      float* out = c.out + (long(oy) * out_w + ox) * K;
      if (!c.pool) {
        single_input_taps(c, oy, ox, taps[0]);
        for (int k = 0; k < K; k += F::lanes) F::store(out + k, single_input_pixel(c, taps[0], k));
        continue;
      }
      for (int q = 0; q < 4; ++q) single_input_taps(c, 2 * oy + q / 2, 2 * ox + q % 2, taps[q]);
      for (int k = 0; k < K; k += F::lanes) {
        const F::V top = F::max(single_input_pixel(c, taps[0], k), single_input_pixel(c, taps[1], k));
        const F::V bottom = F::max(single_input_pixel(c, taps[2], k), single_input_pixel(c, taps[3], k));
        F::store(out + k, F::max(top, bottom));
      }
    }
  }
}

// ---- 3×3 convolution by Winograd F(4×4, 3×3) (Lavin & Gray, points 0, ±1, ±2): each 4×4
// output tile comes from a 6×6 input patch d as Aᵀ·[Σ_c (G·g·Gᵀ) ⊙ (Bᵀ·d·B)]·A. The sum over
// input channels is one matrix product per patch point (36 per block of tiles).

constexpr int kPoints = 36;

AEVAL_DNSMOS_INLINE void input_line(const F::V* d, int step, F::V* r, int r_step) {
  const F::V d0 = d[0], d1 = d[step], d2 = d[2 * step], d3 = d[3 * step], d4 = d[4 * step], d5 = d[5 * step];
  r[0] = 4.0f * d0 - 5.0f * d2 + d4;
  r[r_step] = d3 + d4 - 4.0f * (d1 + d2);
  r[2 * r_step] = d4 - d3 + 4.0f * (d1 - d2);
  r[3 * r_step] = d4 - d2 + 2.0f * (d3 - d1);
  r[4 * r_step] = d4 - d2 - 2.0f * (d3 - d1);
  r[5 * r_step] = 4.0f * d1 - 5.0f * d3 + d5;
}

AEVAL_DNSMOS_INLINE void output_line(const F::V* m, int step, F::V* r, int r_step) {
  const F::V sum12 = m[step] + m[2 * step], diff12 = m[step] - m[2 * step];
  const F::V sum34 = m[3 * step] + m[4 * step], diff34 = m[3 * step] - m[4 * step];
  r[0] = m[0] + sum12 + sum34;
  r[r_step] = diff12 + 2.0f * diff34;
  r[2 * r_step] = sum12 + 4.0f * sum34;
  r[3 * r_step] = diff12 + 8.0f * diff34 + m[5 * step];
}

// Bᵀ·d·B of tiles t0 … t0 + nt − 1 into V[point][tile][channel].
AEVAL_DNSMOS_INLINE void winograd_input(const Conv3x3& c, int tiles_x, int t0, int nt, float* V) {
  const int C = c.in_channels;
  const long plane = long(nt) * C;
  for (int t = 0; t < nt; ++t) {
    const int y0 = (t0 + t) / tiles_x * 4 - 1, x0 = (t0 + t) % tiles_x * 4 - 1;
    for (int ch = 0; ch < C; ch += F::lanes) {
      F::V d[kPoints], half[kPoints], v[kPoints];
      for (int i = 0; i < 6; ++i) {
        const int y = y0 + i;
        for (int j = 0; j < 6; ++j) {
          const int x = x0 + j;
          const bool inside = y >= 0 && y < c.height && x >= 0 && x < c.width;
          d[i * 6 + j] = inside ? F::load(c.in + (long(y) * c.width + x) * C + ch) : F::zero();
        }
      }
      for (int j = 0; j < 6; ++j) input_line(d + j, 6, half + j, 6);
      for (int i = 0; i < 6; ++i) input_line(half + i * 6, 1, v + i * 6, 1);
      for (int p = 0; p < kPoints; ++p) F::store(V + p * plane + long(t) * C + ch, v[p]);
    }
  }
}

// Aᵀ·M·A + bias, ReLU, and the 2×2 pooling when asked, from M[point][tile][channel].
AEVAL_DNSMOS_INLINE void winograd_output(const Conv3x3& c, int tiles_x, int t0, int nt, const float* M) {
  const int K = c.out_channels;
  const long plane = long(nt) * K;
  const int pooled_h = c.height / 2, pooled_w = c.width / 2;
  for (int t = 0; t < nt; ++t) {
    const int y0 = (t0 + t) / tiles_x * 4, x0 = (t0 + t) % tiles_x * 4;
    for (int k = 0; k < K; k += F::lanes) {
      F::V m[kPoints], half[24], y[16];
      for (int p = 0; p < kPoints; ++p) m[p] = F::load(M + p * plane + long(t) * K + k);
      for (int j = 0; j < 6; ++j) output_line(m + j, 6, half + j, 6);
      for (int i = 0; i < 4; ++i) output_line(half + i * 6, 1, y + i * 4, 1);
      const F::V bias = F::load(c.bias + k);
      for (int q = 0; q < 16; ++q) y[q] = F::max(y[q] + bias, F::zero());
      if (!c.pool) {
        for (int i = 0; i < 4 && y0 + i < c.height; ++i)
          for (int j = 0; j < 4 && x0 + j < c.width; ++j)
            F::store(c.out + (long(y0 + i) * c.width + x0 + j) * K + k, y[i * 4 + j]);
        continue;
      }
      for (int i = 0; i < 2 && y0 / 2 + i < pooled_h; ++i) {
        for (int j = 0; j < 2 && x0 / 2 + j < pooled_w; ++j) {
          const int q = 2 * i * 4 + 2 * j;
          const F::V pooled = F::max(F::max(y[q], y[q + 1]), F::max(y[q + 4], y[q + 5]));
          F::store(c.out + (long(y0 / 2 + i) * pooled_w + x0 / 2 + j) * K + k, pooled);
        }
      }
    }
  }
}

AEVAL_DNSMOS_TARGET void conv3x3_winograd(const Conv3x3& c) {
  const int tiles_x = (c.width + 3) / 4, tiles = (c.height + 3) / 4 * tiles_x;
  const int block = winograd_block_tiles(c.in_channels, c.out_channels);
  float* V = c.scratch;
  float* M = c.scratch + long(kPoints) * block * c.in_channels;
  for (int t0 = 0; t0 < tiles; t0 += block) {
    const int nt = tiles - t0 < block ? tiles - t0 : block;
    winograd_input(c, tiles_x, t0, nt, V);
    for (int p = 0; p < kPoints; ++p) {
      Gemm<float> g;
      g.M = nt;
      g.N = c.out_channels;
      g.K = c.in_channels;
      g.A = V + long(p) * nt * c.in_channels;
      g.lda = c.in_channels;
      g.B = c.weights + long(p) * c.in_channels * c.out_channels;
      g.ldb = c.out_channels;
      g.C = M + long(p) * nt * c.out_channels;
      g.ldc = c.out_channels;
      gemm<F>(g);
    }
    winograd_output(c, tiles_x, t0, nt, M);
  }
}

AEVAL_DNSMOS_TARGET void gemm_f32(const Gemm<float>& g) { gemm<F>(g); }
AEVAL_DNSMOS_TARGET void gemm_f64(const Gemm<double>& g) { gemm<D>(g); }
