#include "datasets/archive_extract.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "aeval/error.hpp"
#include "util/atomic_file.hpp"
#include "util/sha256.hpp"

namespace aeval::datasets {

namespace fs = std::filesystem;

namespace {

// Inside the destination, so that it moves into place with the contents it describes.
constexpr const char* kMarker = ".aeval-archive.json";

struct ArchiveStamp {
  std::string sha256;
  std::uintmax_t size = 0;
  long long mtime = 0;  // nanoseconds since the clock's epoch
};

ArchiveStamp stat_archive(const fs::path& archive) {
  std::error_code error;
  ArchiveStamp stamp;
  stamp.size = fs::file_size(archive, error);
  if (error)
    throw Error(ErrorCategory::data, "archive " + archive.string() + ": cannot read it (" + error.message() + ")");
  const auto mtime = fs::last_write_time(archive, error);
  if (error)
    throw Error(ErrorCategory::data, "archive " + archive.string() + ": cannot read it (" + error.message() + ")");
  stamp.mtime = mtime.time_since_epoch().count();
  return stamp;
}

std::optional<ArchiveStamp> read_marker(const fs::path& destination) {
  std::ifstream in(destination / kMarker);
  if (!in) return std::nullopt;
  const auto json = nlohmann::json::parse(in, nullptr, false);
  if (!json.is_object() || !json.value("sha256", nlohmann::json()).is_string()) return std::nullopt;
  return ArchiveStamp{json["sha256"], json.value("size", std::uintmax_t{0}), json.value("mtime", 0LL)};
}

void write_marker(const fs::path& destination, const ArchiveStamp& stamp) {
  write_file_atomically(destination / kMarker,
                        nlohmann::json{{"sha256", stamp.sha256}, {"size", stamp.size}, {"mtime", stamp.mtime}}.dump());
}

// Whether `destination` already holds this archive's contents. Without a known
// digest, an unchanged size and modification time stand for an unchanged
// archive, so a cached dataset starts without hashing gigabytes.
bool already_extracted(const fs::path& destination, ArchiveStamp& stamp, const fs::path& archive) {
  const auto marker = read_marker(destination);
  if (!stamp.sha256.empty()) return marker && marker->sha256 == stamp.sha256;
  if (marker && marker->size == stamp.size && marker->mtime == stamp.mtime) {
    stamp.sha256 = marker->sha256;
    return true;
  }
  stamp.sha256 = sha256_of_file(archive);
  if (!marker || marker->sha256 != stamp.sha256) return false;
  write_marker(destination, stamp);  // touched but identical: remember its new time
  return true;
}

// The relative path an entry may be written to, or an error naming why not.
fs::path safe_entry_path(const std::string& name, const std::string& where) {
  if (name.empty()) throw Error(ErrorCategory::data, where + ": an entry has no name");
  if (name.front() == '/') throw Error(ErrorCategory::data, where + ": refusing the absolute path '" + name + "'");
  fs::path relative;
  for (const auto& part : fs::path(name)) {
    if (part == "..")
      throw Error(ErrorCategory::data, where + ": refusing entry '" + name + "', whose '..' leads out of the folder");
    if (part.empty() || part == ".") continue;
    relative /= part;
  }
  return relative;
}

std::string entry_kind_refused(archive_entry* entry) {
  if (archive_entry_hardlink(entry)) return "a hard link";
  switch (archive_entry_filetype(entry)) {
    case AE_IFREG:
    case AE_IFDIR:
      return "";
    case AE_IFLNK:
      return "a symbolic link";
    case AE_IFIFO:
      return "a FIFO";
    case AE_IFCHR:
    case AE_IFBLK:
      return "a device";
    case AE_IFSOCK:
      return "a socket";
    default:
      return "an entry of unknown type";
  }
}

using ArchiveHandle = std::unique_ptr<archive, decltype(&archive_read_free)>;

// libarchive's reason for its last error; it may have none (a null string: fuzz/findings/archive).
std::string reason(archive* a) {
  const char* why = archive_error_string(a);
  return why ? why : "no reason given";
}

ArchiveHandle open_archive(const fs::path& path) {
  ArchiveHandle a(archive_read_new(), &archive_read_free);
  if (!a) throw Error(ErrorCategory::internal, "libarchive: cannot allocate a reader");
  archive_read_support_format_tar(a.get());
  archive_read_support_format_zip(a.get());
  // Compression filters by name: never archive_read_support_filter_all, which may run external programs.
  archive_read_support_filter_gzip(a.get());
  archive_read_support_filter_bzip2(a.get());
  archive_read_support_filter_xz(a.get());
  archive_read_support_filter_zstd(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK)
    throw Error(ErrorCategory::data, "archive " + path.string() + ": cannot open it as a tar or zip archive (" +
                                         reason(a.get()) + ")");
  return a;
}

void write_entry_data(archive* a, const fs::path& file, const std::string& where) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(ErrorCategory::data, where + ": cannot create " + file.string());
  std::array<char, 1 << 16> buffer;
  for (;;) {
    const la_ssize_t n = archive_read_data(a, buffer.data(), buffer.size());
    if (n == 0) break;
    if (n < 0) throw Error(ErrorCategory::data, where + ": corrupt or truncated (" + reason(a) + ")");
    out.write(buffer.data(), n);
  }
  if (!out.flush()) throw Error(ErrorCategory::data, where + ": cannot write " + file.string());
}

void extract_entries(const fs::path& archive_path, const fs::path& folder, const MemberFilter& keep) {
  const ArchiveHandle handle = open_archive(archive_path);
  archive* a = handle.get();
  const std::string label = "archive " + archive_path.string();
  archive_entry* entry = nullptr;
  for (;;) {
    const int status = archive_read_next_header(a, &entry);
    if (status == ARCHIVE_EOF) break;
    if (status < ARCHIVE_WARN)
      throw Error(ErrorCategory::data, label + ": corrupt or truncated (" + reason(a) + ")");
    const char* raw_name = archive_entry_pathname(entry);
    const std::string name = raw_name ? raw_name : "";
    const std::string where = label + ", entry '" + name + "'";
    if (keep && !keep(name, archive_entry_filetype(entry) == AE_IFLNK)) continue;
    if (const std::string refused = entry_kind_refused(entry); !refused.empty())
      throw Error(ErrorCategory::data, where + ": refusing " + refused + " (archives may hold only files and folders)");
    const fs::path relative = safe_entry_path(name, label);
    if (relative.empty()) continue;  // "./" itself
    const fs::path target = folder / relative;
    std::error_code error;
    if (archive_entry_filetype(entry) == AE_IFDIR) {
      fs::create_directories(target, error);
      if (error) throw Error(ErrorCategory::data, where + ": cannot create the folder (" + error.message() + ")");
      continue;
    }
    fs::create_directories(target.parent_path(), error);
    if (error) throw Error(ErrorCategory::data, where + ": cannot create its folder (" + error.message() + ")");
    write_entry_data(a, target, where);
  }
}

// "<destination>.partial-<host>:" begins this host's temporary folders (':' is
// never in a host name); a cache shared between machines has others' too.
std::string partial_prefix(const fs::path& destination) {
  std::array<char, 256> host{};
  gethostname(host.data(), host.size() - 1);
  return destination.filename().string() + ".partial-" + host.data() + ":";
}

// A temporary folder of this host whose process no longer runs was left by a killed extraction.
void remove_abandoned_partials(const fs::path& destination) {
  const std::string prefix = partial_prefix(destination);
  std::error_code error;
  for (const auto& sibling : fs::directory_iterator(destination.parent_path(), error)) {
    const std::string name = sibling.path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && kill(pid_t(pid), 0) != 0 && errno == ESRCH) fs::remove_all(sibling.path(), error);
  }
}

fs::path partial_folder(const fs::path& destination) {
  static std::atomic<unsigned> counter{0};
  return destination.parent_path() /
         (partial_prefix(destination) + std::to_string(getpid()) + "-" + std::to_string(counter++));
}

}  // namespace

bool is_archive(const fs::path& path) {
  const std::string name = path.filename().string();
  for (const char* suffix : {".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar.zst", ".zip"}) {
    const std::string s = suffix;
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) return true;
  }
  return false;
}

fs::path extract_archive(const fs::path& archive, const fs::path& destination, const std::string& known_sha256,
                         const MemberFilter& keep) {
  ArchiveStamp stamp = stat_archive(archive);
  stamp.sha256 = known_sha256;
  std::transform(stamp.sha256.begin(), stamp.sha256.end(), stamp.sha256.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });  // as sha256_of_file writes it
  if (already_extracted(destination, stamp, archive)) return destination;

  const fs::path partial = partial_folder(destination);
  std::error_code error, ignored;
  if (fs::create_directories(partial, error); error)
    throw Error(ErrorCategory::data,
                "archive " + archive.string() + ": cannot create " + partial.string() + " (" + error.message() + ")");
  remove_abandoned_partials(destination);
  try {
    extract_entries(archive, partial, keep);
    write_marker(partial, stamp);
  } catch (...) {
    fs::remove_all(partial, ignored);
    throw;
  }
  // Another process may have finished the same archive first; its result is as good as ours.
  if (const auto marker = read_marker(destination); marker && marker->sha256 == stamp.sha256) {
    fs::remove_all(partial, ignored);
    return destination;
  }
  fs::remove_all(destination, ignored);  // a previous archive's contents
  fs::rename(partial, destination, error);
  if (error) {
    fs::remove_all(partial, ignored);
    if (const auto marker = read_marker(destination); marker && marker->sha256 == stamp.sha256) return destination;
    throw Error(ErrorCategory::data, "archive " + archive.string() + ": cannot move the extracted files to " +
                                         destination.string() + " (" + error.message() + ")");
  }
  return destination;
}

}  // namespace aeval::datasets
