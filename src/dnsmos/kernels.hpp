#pragma once
// The arithmetic of the DNSMOS networks and of the P.808 features: matrix products, 3×3
// convolutions (Winograd F(6×6, 3×3) where the input has channels, direct where it has one)
// with ReLU and optional 2×2 max pooling fused. One implementation (kernels_isa.inl) is
// compiled for AVX-512, for AVX2 + FMA and for portable vectors, and the best one the CPU
// runs is chosen at run time, so the project needs no -march flag. Activations are HWC:
// row (time) major, then column (frequency), channels contiguous.
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

#include "dnsmos/dnsmos.hpp"

namespace aeval::dnsmos::kernels {

// C[m·ldc + n] = Σ_k A[m·lda + k]·B[k·ldb + n] for m < M, n < N. N must be a multiple of 16
// (float) or 8 (double), the widest vector; rows of A may overlap (frames of one signal).
template <class T>
struct Gemm {
  int M = 0, N = 0, K = 0;
  const T* A = nullptr;
  long lda = 0;
  const T* B = nullptr;
  long ldb = 0;
  T* C = nullptr;
  long ldc = 0;
};

// out = ReLU(conv3×3(in, pad 1) + bias), then 2×2 max pooling (floor) when `pool`, for the
// output rows of tile rows [tile_row_begin, tile_row_end) (kTileRows rows each, before pooling).
// in: height × width × in_channels; out: height × width × out_channels, or height/2 × width/2 ×
// out_channels pooled. With a ring, a buffer holds only that many rows, row y at y % ring, so
// layers can run a few rows apart without their whole outputs. out_channels: a multiple of 16.
struct Conv3x3 {
  const float* in = nullptr;
  int height = 0, width = 0, in_channels = 0, out_channels = 0;
  // single_input: [9][out_channels] (tap-major); winograd: winograd_weights' layout.
  const float* weights = nullptr;
  const float* bias = nullptr;
  bool pool = false;
  float* out = nullptr;
  int tile_row_begin = 0, tile_row_end = 0;
  int in_ring = 0, out_ring = 0;  // 0: the buffer holds every row
  float* scratch = nullptr;       // conv_scratch_floats(in_channels, out_channels, width) floats
};
// The rows (and columns) of one Winograd output tile; the direct convolution works in rows of tiles too.
constexpr int kTileRows = 6;
// Points of a Winograd tile: its input patch of (kTileRows + 2)² values.
constexpr int kWinogradPoints = (kTileRows + 2) * (kTileRows + 2);
inline int tile_rows(int height) { return (height + kTileRows - 1) / kTileRows; }

// Winograd transforms a block of tiles at a time, which bounds the scratch (it stays in cache).
std::size_t conv_scratch_floats(int in_channels, int out_channels, int width);
// U = G·g·Gᵀ of each ONNX kernel g = weights[k][c] ([out][in][3][3]), computed in double and
// stored as float in the layout the kernels read: [kWinogradPoints][in_channels][out_channels].
void winograd_weights(const float* onnx_weights, int out_channels, int in_channels, float* transformed);

struct KernelSet {
  const char* name;
  void (*gemm_f32)(const Gemm<float>&);
  void (*gemm_f64)(const Gemm<double>&);
  void (*conv3x3_single_input)(const Conv3x3&);  // in_channels == 1
  void (*conv3x3_winograd)(const Conv3x3&);      // in_channels a multiple of 16
};

// The kernels for `simd` (Simd::best: the widest the CPU runs); aeval::Error (internal) when
// the CPU lacks the instruction set asked for.
const KernelSet& kernel_set(Simd simd);

// 64-byte aligned storage for activations and scratch, kept between windows.
template <class T>
class AlignedBuffer {
 public:
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  // Grows to at least n elements; contents are unspecified after growing.
  T* reserve(std::size_t n) {
    if (n > size_) {
      const std::size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
      void* p = std::aligned_alloc(64, bytes);
      if (!p) throw std::bad_alloc();
      data_.reset(static_cast<T*>(p));
      size_ = n;
    }
    return data_.get();
  }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T[], Free> data_;
  std::size_t size_ = 0;
};

}  // namespace aeval::dnsmos::kernels
