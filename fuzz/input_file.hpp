#pragma once
// For parsers that read files: the fuzz input written to one path in this
// process's own temporary folder (removed at exit), rewritten per input.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace aeval::fuzz {

// The process's scratch folder under $TMPDIR (or /tmp).
inline const std::filesystem::path& scratch_dir() {
  struct Dir {
    std::filesystem::path path;
    Dir() {
      path = std::filesystem::temp_directory_path() / ("aeval-fuzz-" + std::to_string(getpid()));
      std::filesystem::create_directories(path);
    }
    ~Dir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Dir dir;
  return dir.path;
}

inline void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));
}

// Writes the input to scratch_dir()/name and returns that path.
inline std::filesystem::path input_file(const std::string& name, const uint8_t* data, std::size_t size) {
  const auto path = scratch_dir() / name;
  write_file(path, std::string_view(reinterpret_cast<const char*>(data), size));
  return path;
}

}  // namespace aeval::fuzz
