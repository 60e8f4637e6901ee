#pragma once
// NumPy .npy arrays (format versions 1-3, little-endian float16/32/64, C or
// Fortran order) so embeddings from any model can be scored and written back.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace aeval {

struct NpyArray {
  std::vector<std::size_t> shape;
  std::string dtype = "f8";    // "f2", "f4" or "f8": what the file held
  std::vector<double> values;  // row-major; float16/float32 values widen exactly

  std::size_t rows() const { return shape.empty() ? 1 : shape[0]; }
  std::size_t cols() const { return shape.size() < 2 ? 1 : shape[1]; }
};

// Throws aeval::Error (data) naming the file for a bad magic, an unsupported
// dtype, a truncated body, more than 2 dimensions. Values come back row-major.
NpyArray read_npy(const std::filesystem::path& path);
// Writes format 1.0, C order, dtype "<f4" or "<f8".
void write_npy(const std::filesystem::path& path, const NpyArray& array);

}  // namespace aeval
