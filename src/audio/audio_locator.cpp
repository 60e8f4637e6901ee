#include "audio/audio_locator.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <map>
#include <mutex>

#include "aeval/error.hpp"
#include "audio/absent_audio.hpp"

namespace aeval::detail {

namespace {

struct ClipReaders {
  std::mutex mutex;
  std::map<std::string, ClipReader> by_extension;
};
ClipReaders& clip_readers() {
  static ClipReaders readers;
  return readers;
}

std::string lowercase(std::string text) {
  for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::optional<double> seconds(const std::string& text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !(value >= 0)) return std::nullopt;
  return value;
}

}  // namespace

AudioLocator parse_audio_locator(const std::filesystem::path& locator) {
  std::error_code error;
  const std::string text = locator.string();
  const auto hash = text.rfind('#');
  if (hash == std::string::npos || std::filesystem::is_regular_file(locator, error)) return {locator, "", {}, {}};
  AudioLocator parsed{text.substr(0, hash), text.substr(hash + 1), {}, {}};
  if (parsed.fragment.rfind("t=", 0) == 0) {  // t=START,END or t=START
    const std::string range = parsed.fragment.substr(2);
    const auto comma = range.find(',');
    parsed.start = seconds(range.substr(0, comma));
    if (comma != std::string::npos) parsed.end = seconds(range.substr(comma + 1));
    if (!parsed.start || (comma != std::string::npos && (!parsed.end || *parsed.end <= *parsed.start)))
      throw Error(ErrorCategory::audio, text + ": the time range must read t=START,END in seconds with START < END");
    return parsed;
  }
  const std::lock_guard lock(clip_readers().mutex);
  if (!clip_readers().by_extension.count(lowercase(parsed.file.extension().string())))
    throw Error(ErrorCategory::audio, text + ": no such file (and '#" + parsed.fragment +
                                          "' is neither a time range t=START,END nor a clip of a Parquet file)");
  return parsed;
}

void register_clip_reader(const std::string& extension, ClipReader reader) {
  const std::lock_guard lock(clip_readers().mutex);
  clip_readers().by_extension[lowercase(extension)] = std::move(reader);
}

AudioBytes read_locator_bytes(const AudioLocator& locator) {
  if (!locator.fragment.empty() && !locator.start) {
    ClipReader reader;
    {
      const std::lock_guard lock(clip_readers().mutex);
      reader = clip_readers().by_extension.at(lowercase(locator.file.extension().string()));
    }
    AudioBytes bytes = reader(locator.file, locator.fragment);
    if (!bytes || bytes->empty())
      throw Error(ErrorCategory::audio, locator.file.string() + "#" + locator.fragment + ": no audio bytes stored");
    return bytes;
  }
  // One open, its size from fstat and one read into a string of that size: runs read every clip
  // a few times (its fingerprint, the model's input, a reference), so each read is kept to a few
  // system calls and no copies.
  const std::string name = locator.file.string();
  struct File {
    int fd;
    ~File() {
      if (fd >= 0) ::close(fd);
    }
  } const file{::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};  // a FIFO must not block the open
  const int fd = file.fd;
  if (fd < 0) {
    const bool absent = errno == ENOENT || errno == ENOTDIR;
    if (const auto reason = absent ? absent_audio_reason(locator.file) : std::nullopt)
      throw Error(ErrorCategory::network, name + ": " + *reason);
    throw Error(ErrorCategory::audio, name + (absent ? ": no such file" : ": cannot read"));
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0) throw Error(ErrorCategory::audio, name + ": cannot read");
  if (!S_ISREG(status.st_mode)) throw Error(ErrorCategory::audio, name + ": not a regular file");
  std::string bytes(static_cast<std::size_t>(status.st_size), '\0');
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(ErrorCategory::audio, name + ": cannot read");
    if (n == 0) break;  // the file shrank since fstat
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  if (bytes.empty()) throw Error(ErrorCategory::audio, name + ": empty file");
  return owned_audio_bytes(std::move(bytes));
}

AudioBytes owned_audio_bytes(std::string bytes) {
  struct Owned {
    std::string bytes;
    std::string_view view;
  };
  auto owned = std::make_shared<Owned>();
  owned->bytes = std::move(bytes);
  owned->view = owned->bytes;
  return AudioBytes(owned, &owned->view);
}

}  // namespace aeval::detail
