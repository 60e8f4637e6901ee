// The .npy reader (embeddings written by any model, reference statistics).
// Beyond not crashing, an array it returns must hold exactly the values its
// shape promises: callers index rows() x cols() without checking.
#include <cstdlib>

#include "aeval/error.hpp"
#include "aeval/npy.hpp"
#include "input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const auto path = aeval::fuzz::input_file("input.npy", data, size);
  try {
    const aeval::NpyArray array = aeval::read_npy(path);
    std::size_t count = 1;
    for (const std::size_t n : array.shape)
      if (__builtin_mul_overflow(count, n, &count)) std::abort();
    if (count != array.values.size() || array.rows() * array.cols() != count) std::abort();
  } catch (const aeval::Error&) {
  }
  return 0;
}
