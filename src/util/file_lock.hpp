#pragma once
// An exclusive advisory lock (flock) on a file, created if missing and held
// for the object's life: one holder at a time among the processes of a
// machine, and of a cluster where the filesystem passes flock on (NFSv4,
// Lustre, BeeGFS). Waits for the holder to let go.
#include <filesystem>

namespace aeval {

class FileLock {
 public:
  explicit FileLock(const std::filesystem::path& path);
  ~FileLock();
  // Whether another holder has the lock on `path` now (false when the file is missing or unlocked).
  static bool held(const std::filesystem::path& path);

  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace aeval
