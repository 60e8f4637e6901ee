#include "util/file_descriptor.hpp"

#include <unistd.h>

#include <cerrno>

namespace aeval {

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

long long FileDescriptor::read_at(std::uint64_t offset, char* out, std::size_t n) const {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t got = ::pread(fd_, out + done, n - done, off_t(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return -1;
    if (got == 0) break;  // the file's end
    done += std::size_t(got);
  }
  return static_cast<long long>(done);
}

bool FileDescriptor::write_at(std::uint64_t offset, const std::string& bytes) const {
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t put = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, off_t(offset + done));
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    done += std::size_t(put);
  }
  return true;
}

}  // namespace aeval
