#include "util/atomic_file.hpp"

#include <fstream>

#include "aeval/error.hpp"

namespace aeval {

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  const std::filesystem::path partial = path.string() + ".partial";
  {
    std::ofstream out(partial, std::ios::binary);
    out << content;
    out.flush();
    if (!out) throw Error(ErrorCategory::data, partial.string() + ": cannot write");
  }
  std::filesystem::rename(partial, path);
}

}  // namespace aeval
