#pragma once
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace aeval {

// A file written whole or not at all: text goes to a temporary file of its own beside `path`
// ("<path>.partial.PID.N"), which commit() renames into place, so readers (and a run killed mid-write)
// never see a half-written file, and writers racing on one path each put a whole file there. Destroyed
// without commit(), it leaves nothing. Creates missing parent folders. Throws aeval::Error (data).
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::string_view text) { out_.write(text.data(), std::streamsize(text.size())); }
  void commit();

 private:
  std::filesystem::path path_, partial_;
  std::ofstream out_;
  bool committed_ = false;
};

// The whole of `content`, as AtomicFile writes it.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace aeval
