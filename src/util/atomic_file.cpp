#include "util/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>

#include "aeval/error.hpp"

namespace aeval {

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  // A temporary name of its own per writer: processes and threads writing the same file at once
  // (shards building the same cached manifest) each rename a complete file into place, the last
  // one winning, and never move one another's half-written file.
  static std::atomic<unsigned> written{0};
  const std::filesystem::path partial =
      path.string() + ".partial." + std::to_string(getpid()) + "." + std::to_string(written++);
  {
    std::ofstream out(partial, std::ios::binary);
    out << content;
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(partial, ignored);
      throw Error(ErrorCategory::data, partial.string() + ": cannot write");
    }
  }
  std::error_code error;
  std::filesystem::rename(partial, path, error);
  if (error) {
    std::filesystem::remove(partial, error);
    throw Error(ErrorCategory::data, path.string() + ": cannot put the written file in place");
  }
}

}  // namespace aeval
