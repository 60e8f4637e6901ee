#include "util/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "aeval/error.hpp"

namespace aeval {

FileLock::FileLock(const std::filesystem::path& path) {
  std::error_code ignored;
  std::filesystem::create_directories(path.parent_path(), ignored);
  fd_ = open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  int taken = fd_ < 0 ? -1 : 0;
  while (fd_ >= 0 && (taken = flock(fd_, LOCK_EX)) != 0 && errno == EINTR) {
  }
  if (taken != 0) {
    const std::string why = std::strerror(errno);
    if (fd_ >= 0) close(fd_);
    throw Error(ErrorCategory::data, path.string() + ": cannot take the lock (" + why + ")");
  }
}

FileLock::~FileLock() { close(fd_); }

bool FileLock::held(const std::filesystem::path& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  int taken;
  while ((taken = flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
  }
  const bool busy = taken != 0 && errno == EWOULDBLOCK;
  close(fd);  // releases it when taken
  return busy;
}

}  // namespace aeval
