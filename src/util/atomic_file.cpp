#include "util/atomic_file.hpp"

#include <unistd.h>

#include <atomic>

#include "aeval/error.hpp"

namespace aeval {

namespace {

// A temporary name of its own per writer: processes and threads writing the same file at once (shards
// building the same cached manifest) each rename a complete file into place, the last one winning, and
// never move one another's half-written file.
std::filesystem::path partial_of(const std::filesystem::path& path) {
  static std::atomic<unsigned> written{0};
  return path.string() + ".partial." + std::to_string(getpid()) + "." + std::to_string(written++);
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)), partial_(partial_of(path_)) {
  if (path_.has_parent_path()) std::filesystem::create_directories(path_.parent_path());
  out_.open(partial_, std::ios::binary);
  if (!out_) throw Error(ErrorCategory::data, partial_.string() + ": cannot write");
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  out_.close();
  std::error_code ignored;
  std::filesystem::remove(partial_, ignored);
}

void AtomicFile::commit() {
  out_.flush();
  if (!out_) throw Error(ErrorCategory::data, partial_.string() + ": cannot write");
  out_.close();
  std::error_code error;
  std::filesystem::rename(partial_, path_, error);
  if (error) throw Error(ErrorCategory::data, path_.string() + ": cannot put the written file in place");
  committed_ = true;
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  AtomicFile file(path);
  file.write(content);
  file.commit();
}

}  // namespace aeval
