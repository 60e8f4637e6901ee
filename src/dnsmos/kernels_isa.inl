// The kernels of kernels.hpp for one instruction set. kernels.cpp includes this file once per
// set, inside a namespace of its own, after defining AEVAL_DNSMOS_TARGET (the attribute that
// enables the set), AEVAL_DNSMOS_INLINE and the vector traits F (float) and D (double):
// E (element), V (vector), lanes, accumulators (vector registers the products may hold),
// max_vectors (widest panel of a product, in vectors), load, store, set1, zero, fmadd (a·b + c)
// and max. Every function carries the attribute, so intrinsics inline and no code compiled
// for one set is shared with another. No standard-library templates here, for the same reason.

// ---- matrix product: register tiles of MR rows × NV vectors, k innermost (one FMA chain
// per output element, in k order).

// acc = C (accumulate) or 0, then acc += A[:, k]·B[k, :] for k < K in order: a K-blocked
// product is the same chain of FMAs as an unblocked one.
template <class S, int MR, int NV>
AEVAL_DNSMOS_INLINE void gemm_tile(int K, bool accumulate, const typename S::E* A, long lda, const typename S::E* B,
                                   long ldb, typename S::E* C, long ldc) {
  using V = typename S::V;
  V acc[MR][NV];
#pragma GCC unroll 32
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[r][v] = accumulate ? S::load(C + r * ldc + v * S::lanes) : S::zero();
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

// One panel of NV vectors of columns, K in blocks whose slice of B (≤ 16 KiB) stays in L1
// while the rows of A stream past it.
template <class S, int NV>
AEVAL_DNSMOS_INLINE void gemm_panel(const Gemm<typename S::E>& g, int n0) {
  constexpr int MR = S::accumulators / NV;
  constexpr int kBlock = 16384 / int(sizeof(typename S::E)) / (NV * S::lanes);
  for (int k0 = 0; k0 < g.K; k0 += kBlock) {
    const int K = g.K - k0 < kBlock ? g.K - k0 : kBlock;
    const typename S::E* A = g.A + k0;
    const typename S::E* B = g.B + long(k0) * g.ldb + n0;
    int m = 0;
    for (; m + MR <= g.M; m += MR)
      gemm_tile<S, MR, NV>(K, k0 > 0, A + m * g.lda, g.lda, B, g.ldb, g.C + m * g.ldc + n0, g.ldc);
    // The rows left, in tiles of 8, 4, 2 and 1 rows.
    if (MR > 8 && g.M - m >= 8) {
      gemm_tile<S, (MR > 8 ? 8 : 1), NV>(K, k0 > 0, A + m * g.lda, g.lda, B, g.ldb, g.C + m * g.ldc + n0, g.ldc);
      m += 8;
    }
    if (MR > 4 && g.M - m >= 4) {
      gemm_tile<S, (MR > 4 ? 4 : 1), NV>(K, k0 > 0, A + m * g.lda, g.lda, B, g.ldb, g.C + m * g.ldc + n0, g.ldc);
      m += 4;
    }
    if (MR > 2 && g.M - m >= 2) {
      gemm_tile<S, 2, NV>(K, k0 > 0, A + m * g.lda, g.lda, B, g.ldb, g.C + m * g.ldc + n0, g.ldc);
      m += 2;
    }
    if (m < g.M) gemm_tile<S, 1, NV>(K, k0 > 0, A + m * g.lda, g.lda, B, g.ldb, g.C + m * g.ldc + n0, g.ldc);
  }
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

// ---- 3×3 convolutions: rows through the rings (kernels.hpp).

AEVAL_DNSMOS_INLINE const float* input_row(const Conv3x3& c, int y) {
  return c.in + long(c.in_ring ? y % c.in_ring : y) * c.width * c.in_channels;
}

AEVAL_DNSMOS_INLINE float* output_row(const Conv3x3& c, int row, int row_width) {
  return c.out + long(c.out_ring ? row % c.out_ring : row) * row_width * c.out_channels;
}

// ---- one input channel, directly: 9 taps per output vector, the taps' weights held in
// registers along a row. Input rows are copied zero-padded into the scratch first, so no
// tap needs a bounds check.

AEVAL_DNSMOS_INLINE void padded_input_row(const Conv3x3& c, int y, float* row) {
  row[0] = row[c.width + 1] = 0.0f;
  const float* in = y >= 0 && y < c.height ? input_row(c, y) : nullptr;
  for (int x = 0; x < c.width; ++x) row[x + 1] = in ? in[x] : 0.0f;
}

// The pre-activation at column x of the row whose input rows (y − 1, y, y + 1) are r0, r1, r2.
AEVAL_DNSMOS_INLINE F::V single_input_tap_sum(const F::V* w, F::V acc, const float* r0, const float* r1, const float* r2,
                                              int x) {
  acc = F::fmadd(F::set1(r0[x]), w[0], acc);
  acc = F::fmadd(F::set1(r0[x + 1]), w[1], acc);
  acc = F::fmadd(F::set1(r0[x + 2]), w[2], acc);
  acc = F::fmadd(F::set1(r1[x]), w[3], acc);
  acc = F::fmadd(F::set1(r1[x + 1]), w[4], acc);
  acc = F::fmadd(F::set1(r1[x + 2]), w[5], acc);
  acc = F::fmadd(F::set1(r2[x]), w[6], acc);
  acc = F::fmadd(F::set1(r2[x + 1]), w[7], acc);
  return F::fmadd(F::set1(r2[x + 2]), w[8], acc);
}

AEVAL_DNSMOS_TARGET void conv3x3_single_input(const Conv3x3& c) {
  const int K = c.out_channels;
  const int row_end = kTileRows * c.tile_row_end < c.height ? kTileRows * c.tile_row_end : c.height;
  const int out_w = c.pool ? c.width / 2 : c.width;
  const long padded = c.width + 2;
  float* r[4] = {c.scratch, c.scratch + padded, c.scratch + 2 * padded, c.scratch + 3 * padded};
  const int rows_begin = c.pool ? kTileRows / 2 * c.tile_row_begin : kTileRows * c.tile_row_begin;
  const int rows_end = c.pool ? row_end / 2 : row_end;
  for (int o = rows_begin; o < rows_end; ++o) {
    const int y = c.pool ? 2 * o : o;  // first output row of this (pooled) row
    for (int i = 0; i < (c.pool ? 4 : 3); ++i) padded_input_row(c, y - 1 + i, r[i]);
    float* out = output_row(c, o, out_w);
    for (int k = 0; k < K; k += F::lanes) {
      F::V w[9];
      for (int tap = 0; tap < 9; ++tap) w[tap] = F::load(c.weights + tap * K + k);
      const F::V bias = F::load(c.bias + k);
      if (!c.pool) {
        for (int x = 0; x < c.width; ++x)
          F::store(out + long(x) * K + k, F::max(single_input_tap_sum(w, bias, r[0], r[1], r[2], x), F::zero()));
        continue;
      }
      for (int ox = 0; ox < out_w; ++ox) {
        const int x = 2 * ox;
        const F::V top = F::max(single_input_tap_sum(w, bias, r[0], r[1], r[2], x),
                                single_input_tap_sum(w, bias, r[0], r[1], r[2], x + 1));
        const F::V bottom = F::max(single_input_tap_sum(w, bias, r[1], r[2], r[3], x),
                                   single_input_tap_sum(w, bias, r[1], r[2], r[3], x + 1));
        F::store(out + long(ox) * K + k, F::max(F::max(top, bottom), F::zero()));
      }
    }
  }
}

// ---- Winograd F(6×6, 3×3) (Lavin & Gray; points 0, ±1, ±2, ±1/2, ∞): each 6×6 output tile comes
// from an 8×8 input patch d as Aᵀ·[Σ_c (G·g·Gᵀ) ⊙ (Bᵀ·d·B)]·A. The sum over input channels is one
// matrix product per patch point, 64 per block of tiles: 1.78 products per output and channel pair,
// where F(4×4, 3×3) needs 2.25 and the direct convolution 9.

constexpr int kPatch = kTileRows + 2;
constexpr int kPoints = kWinogradPoints;

// Floats between the starts of two points' planes. The extra cache line keeps the planes off one
// cache set: a plane of whole 4 KiB pages would put all the loads or stores of a tile in the same
// set of L1.
AEVAL_DNSMOS_INLINE long plane_stride(int rows, int channels) { return long(rows) * channels + 16; }

// Bᵀ·d along one line of the patch: rows 1–6 of Bᵀ pair up as a ± b of two partial sums.
AEVAL_DNSMOS_INLINE void input_line(const F::V* d, int step, F::V* r, int r_step) {
  const F::V d0 = d[0], d1 = d[step], d2 = d[2 * step], d3 = d[3 * step];
  const F::V d4 = d[4 * step], d5 = d[5 * step], d6 = d[6 * step], d7 = d[7 * step];
  r[0] = d0 - d6 + 5.25f * (d4 - d2);
  const F::V a1 = d1 + d5 - 4.25f * d3, b1 = d2 + d6 - 4.25f * d4;
  r[r_step] = a1 + b1;
  r[2 * r_step] = b1 - a1;
  const F::V a2 = 0.5f * d1 - 2.5f * d3 + 2.0f * d5, b2 = 0.25f * d2 - 1.25f * d4 + d6;
  r[3 * r_step] = a2 + b2;
  r[4 * r_step] = b2 - a2;
  const F::V a3 = 2.0f * d1 - 2.5f * d3 + 0.5f * d5, b3 = 4.0f * d2 - 5.0f * d4 + d6;
  r[5 * r_step] = a3 + b3;
  r[6 * r_step] = b3 - a3;
  r[7 * r_step] = d7 - d1 + 5.25f * (d3 - d5);
}

// Aᵀ·m along one line: the points ±1, ±2 and ±1/2 as sums and differences of their pairs.
AEVAL_DNSMOS_INLINE void output_line(const F::V* m, int step, F::V* r, int r_step) {
  const F::V s12 = m[step] + m[2 * step], d12 = m[step] - m[2 * step];
  const F::V s34 = m[3 * step] + m[4 * step], d34 = m[3 * step] - m[4 * step];
  const F::V s56 = m[5 * step] + m[6 * step], d56 = m[5 * step] - m[6 * step];
  r[0] = m[0] + s12 + s34 + s56;
  r[r_step] = d12 + 2.0f * d34 + 0.5f * d56;
  r[2 * r_step] = s12 + 4.0f * s34 + 0.25f * s56;
  r[3 * r_step] = d12 + 8.0f * d34 + 0.125f * d56;
  r[4 * r_step] = s12 + 16.0f * s34 + 0.0625f * s56;
  r[5 * r_step] = d12 + 32.0f * d34 + 0.03125f * d56 + m[7 * step];
}

// Bᵀ·d·B of tiles t0 … t0 + nt − 1 into V[point][tile][channel].
AEVAL_DNSMOS_INLINE void winograd_input(const Conv3x3& c, int tiles_x, int t0, int nt, float* V) {
  const int C = c.in_channels;
  const long plane = plane_stride(nt, C);
  for (int t = 0; t < nt; ++t) {
    const int y0 = (t0 + t) / tiles_x * kTileRows - 1, x0 = (t0 + t) % tiles_x * kTileRows - 1;
    const float* line[kPatch];
    for (int i = 0; i < kPatch; ++i) line[i] = y0 + i >= 0 && y0 + i < c.height ? input_row(c, y0 + i) : nullptr;
    const bool inside = line[0] && line[kPatch - 1] && x0 >= 0 && x0 + kPatch <= c.width;
    for (int ch = 0; ch < C; ch += F::lanes) {
      // d·B row by row as each row is loaded, then Bᵀ·(d·B) column by column straight into the planes:
      // a few vectors live at a time instead of three patches.
      F::V half[kPoints];
      for (int i = 0; i < kPatch; ++i) {
        F::V d[kPatch];
        for (int j = 0; j < kPatch; ++j) {
          const int x = x0 + j;
          d[j] = inside || (line[i] && x >= 0 && x < c.width) ? F::load(line[i] + long(x) * C + ch) : F::zero();
        }
        input_line(d, 1, half + i * kPatch, 1);
      }
      for (int j = 0; j < kPatch; ++j) {
        F::V v[kPatch];
        input_line(half + j, kPatch, v, 1);
        for (int i = 0; i < kPatch; ++i) F::store(V + (i * kPatch + j) * plane + long(t) * C + ch, v[i]);
      }
    }
  }
}

// Aᵀ·M·A + bias, ReLU, and the 2×2 pooling when asked, from M[point][tile][channel].
AEVAL_DNSMOS_INLINE void winograd_output(const Conv3x3& c, int tiles_x, int t0, int nt, const float* M) {
  constexpr int T = kTileRows;
  const int K = c.out_channels;
  const long plane = plane_stride(nt, K);
  const int pooled_h = c.height / 2, pooled_w = c.width / 2;
  for (int t = 0; t < nt; ++t) {
    const int y0 = (t0 + t) / tiles_x * T, x0 = (t0 + t) % tiles_x * T;
    for (int k = 0; k < K; k += F::lanes) {
      // M·A row by row as each row is loaded, then Aᵀ·(M·A) column by column.
      F::V half[kPatch * T], y[T * T];
      for (int i = 0; i < kPatch; ++i) {
        F::V m[kPatch];
        for (int j = 0; j < kPatch; ++j) m[j] = F::load(M + (i * kPatch + j) * plane + long(t) * K + k);
        output_line(m, 1, half + i * T, 1);
      }
      for (int j = 0; j < T; ++j) output_line(half + j, T, y + j, T);
      const F::V bias = F::load(c.bias + k);
      for (int q = 0; q < T * T; ++q) y[q] = F::max(y[q] + bias, F::zero());
      if (!c.pool) {
        for (int i = 0; i < T && y0 + i < c.height; ++i) {
          float* out = output_row(c, y0 + i, c.width);
          for (int j = 0; j < T && x0 + j < c.width; ++j) F::store(out + long(x0 + j) * K + k, y[i * T + j]);
        }
        continue;
      }
      for (int i = 0; i < T / 2 && y0 / 2 + i < pooled_h; ++i) {
        float* out = output_row(c, y0 / 2 + i, pooled_w);
        for (int j = 0; j < T / 2 && x0 / 2 + j < pooled_w; ++j) {
          const int q = 2 * i * T + 2 * j;
          F::store(out + long(x0 / 2 + j) * K + k, F::max(F::max(y[q], y[q + 1]), F::max(y[q + T], y[q + T + 1])));
        }
      }
    }
  }
}

AEVAL_DNSMOS_TARGET void conv3x3_winograd(const Conv3x3& c) {
  const int tiles_x = (c.width + kTileRows - 1) / kTileRows;
  const int first = c.tile_row_begin * tiles_x, last = c.tile_row_end * tiles_x;
  const int block = winograd_block_tiles(c.in_channels, c.out_channels, c.width);
  float* V = c.scratch;
  float* M = c.scratch + kPoints * plane_stride(block, c.in_channels);
  for (int t0 = first; t0 < last; t0 += block) {
    const int nt = last - t0 < block ? last - t0 : block;
    winograd_input(c, tiles_x, t0, nt, V);
    for (int p = 0; p < kPoints; ++p) {
      Gemm<float> g;
      g.M = nt;
      g.N = c.out_channels;
      g.K = c.in_channels;
      g.A = V + p * plane_stride(nt, c.in_channels);
      g.lda = c.in_channels;
      g.B = c.weights + long(p) * c.in_channels * c.out_channels;
      g.ldb = c.out_channels;
      g.C = M + p * plane_stride(nt, c.out_channels);
      g.ldc = c.out_channels;
      gemm<F>(g);
    }
    winograd_output(c, tiles_x, t0, nt, M);

  }
}

AEVAL_DNSMOS_TARGET void gemm_f32(const Gemm<float>& g) { gemm<F>(g); }
AEVAL_DNSMOS_TARGET void gemm_f64(const Gemm<double>& g) { gemm<D>(g); }
