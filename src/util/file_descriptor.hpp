#pragma once
// An open file descriptor, closed when it goes, with positioned reads and writes that any thread may make at once
// (a dataset's spilled rows, a predictions file's rows read again by their place).
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace aeval {

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  ~FileDescriptor();
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  bool is_open() const { return fd_ >= 0; }

  // Up to `n` bytes from `offset` into `out`: all of them but at the file's end; -1 on an error (errno says which).
  long long read_at(std::uint64_t offset, char* out, std::size_t n) const;
  // All of `bytes` at `offset`; false on an error (errno says which).
  bool write_at(std::uint64_t offset, const std::string& bytes) const;

 private:
  int fd_;
};

}  // namespace aeval
