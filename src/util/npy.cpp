#include "aeval/npy.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "util/atomic_file.hpp"
#include "aeval/error.hpp"

namespace aeval {

namespace {

double half_to_double(uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  double v;
  if (exponent == 0) {
    v = std::ldexp(double(mantissa), -24);
  } else if (exponent == 31) {
    v = mantissa ? std::nan("") : INFINITY;
  } else {
    v = std::ldexp(double(mantissa + 1024), exponent - 25);
  }
  return sign ? -v : v;
}

}  // namespace

NpyArray read_npy(const std::filesystem::path& path) {
  static_assert(std::endian::native == std::endian::little, "aeval's .npy reader assumes a little-endian host");
  const std::string where = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCategory::data, where + ": cannot open");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    throw Error(ErrorCategory::data, where + ": not a .npy file");
  const int major = static_cast<unsigned char>(bytes[6]);
  std::size_t header_length, offset;
  if (major == 1) {
    header_length = static_cast<unsigned char>(bytes[8]) | (std::size_t(static_cast<unsigned char>(bytes[9])) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw Error(ErrorCategory::data, where + ": truncated .npy header");
    header_length = 0;
    for (int i = 3; i >= 0; --i) header_length = (header_length << 8) | static_cast<unsigned char>(bytes[8 + i]);
    offset = 12;
  } else {
    throw Error(ErrorCategory::data, where + ": unsupported .npy version " + std::to_string(major));
  }
  if (offset + header_length > bytes.size()) throw Error(ErrorCategory::data, where + ": truncated .npy header");
  const std::string header = bytes.substr(offset, header_length);

  // The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
  const auto value_after = [&](const std::string& key) -> std::string {
    const auto at = header.find("'" + key + "'");
    if (at == std::string::npos) throw Error(ErrorCategory::data, where + ": .npy header has no " + key);
    const auto colon = header.find(':', at);
    return colon == std::string::npos ? "" : header.substr(colon + 1);
  };
  const std::string descr_text = value_after("descr");
  const auto quote = descr_text.find('\'');
  const auto close = descr_text.find('\'', quote + 1);
  const std::string descr = quote == std::string::npos || close == std::string::npos
                                ? ""
                                : descr_text.substr(quote + 1, close - quote - 1);  // e.g. "<f4"
  if (descr.size() < 3) throw Error(ErrorCategory::data, where + ": .npy header has a malformed dtype");
  if (descr[0] == '>') throw Error(ErrorCategory::data, where + ": big-endian .npy arrays are not supported");
  const std::string kind = descr.substr(1, 1), size = descr.substr(2);
  if (kind != "f" || (size != "2" && size != "4" && size != "8"))
    throw Error(ErrorCategory::data, where + ": dtype " + descr + " is not float16/float32/float64");
  const std::string order = value_after("fortran_order");
  const auto order_start = order.find_first_not_of(' ');
  const bool fortran_order = order_start != std::string::npos && order.compare(order_start, 4, "True") == 0;
  const std::string shape_text = value_after("shape");
  const auto open = shape_text.find('('), end_paren = shape_text.find(')');
  if (open == std::string::npos || end_paren == std::string::npos)
    throw Error(ErrorCategory::data, where + ": .npy header has a malformed shape");

  NpyArray array;
  array.dtype = "f" + size;
  std::size_t count = 1;
  std::size_t digits_start = std::string::npos;
  for (std::size_t i = open + 1; i <= end_paren; ++i) {
    const bool digit = shape_text[i] >= '0' && shape_text[i] <= '9';
    if (digit && digits_start == std::string::npos) digits_start = i;
    if (!digit && digits_start != std::string::npos) {
      std::size_t dimension = 0;
      const auto parsed = std::from_chars(shape_text.data() + digits_start, shape_text.data() + i, dimension);
      if (parsed.ec != std::errc() || (dimension != 0 && count > SIZE_MAX / dimension))
        throw Error(ErrorCategory::data, where + ": .npy shape " + shape_text.substr(open, end_paren - open + 1) +
                                             " has more values than any file can hold");
      array.shape.push_back(dimension);
      count *= dimension;
      digits_start = std::string::npos;
    }
  }
  if (array.shape.size() > 2) throw Error(ErrorCategory::data, where + ": arrays of more than 2 dimensions are not supported");

  const std::size_t width = std::stoul(size);
  const std::size_t body = offset + header_length;
  if ((bytes.size() - body) / width < count)
    throw Error(ErrorCategory::data, where + ": truncated .npy body (" + std::to_string(bytes.size() - body) +
                                         " bytes for " + std::to_string(count) + " values)");
  array.values.resize(count);
  const char* p = bytes.data() + body;
  for (std::size_t i = 0; i < count; ++i, p += width) {
    if (width == 8) {
      double v;
      std::memcpy(&v, p, 8);
      array.values[i] = v;
    } else if (width == 4) {
      float v;
      std::memcpy(&v, p, 4);
      array.values[i] = v;
    } else {
      uint16_t v;
      std::memcpy(&v, p, 2);
      array.values[i] = half_to_double(v);
    }
  }
  // Column-major on disk: transpose to row-major (an empty array has nothing to move, however many rows it names).
  if (fortran_order && array.shape.size() == 2 && count > 0) {
    const std::size_t rows = array.shape[0], cols = array.shape[1];
    std::vector<double> row_major(count);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) row_major[r * cols + c] = array.values[c * rows + r];
    array.values.swap(row_major);
  }
  return array;
}

void write_npy(const std::filesystem::path& path, const NpyArray& array) {
  if (array.dtype != "f4" && array.dtype != "f8")
    throw Error(ErrorCategory::data, path.string() + ": can only write float32 or float64 arrays");
  std::string shape = "(";
  for (std::size_t i = 0; i < array.shape.size(); ++i) shape += std::to_string(array.shape[i]) + ", ";
  if (array.shape.size() > 1) shape.resize(shape.size() - 1), shape.back() = ')';
  else if (array.shape.size() == 1) shape.resize(shape.size() - 1), shape += ")";
  else shape += ")";
  std::string header = "{'descr': '<" + array.dtype + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so the data starts on a 64-byte boundary, ending in a newline.
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(header.size() & 0xFF);
  out += char((header.size() >> 8) & 0xFF);
  out += header;
  for (double v : array.values) {
    if (array.dtype == "f8") {
      out.append(reinterpret_cast<const char*>(&v), 8);
    } else {
      const float f = float(v);
      out.append(reinterpret_cast<const char*>(&f), 4);
    }
  }
  write_file_atomically(path, out);
}

}  // namespace aeval
