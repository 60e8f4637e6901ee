#include "util/download.hpp"

#include <curl/curl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "aeval/error.hpp"
#include "util/file_lock.hpp"
#include "util/sha256.hpp"

namespace aeval {

namespace {

using Clock = std::chrono::steady_clock;

std::filesystem::path partial_of(const std::filesystem::path& destination) {
  return destination.string() + ".partial";
}

std::uint64_t size_or_zero(const std::filesystem::path& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  return error ? 0 : size;
}

// One file on its way: the easy handle, the partial file it appends to, and
// what it has cost so far.
struct Transfer {
  const RemoteFile* file = nullptr;
  CURL* curl = nullptr;
  std::FILE* out = nullptr;
  std::uint64_t resumed_from = 0;   // bytes already in the partial file when this attempt began
  std::uint64_t received = 0;       // bytes written by this attempt
  std::uint64_t on_disk = 0;        // the partial file's size between attempts
  bool restarted = false;           // the server ignored the range: the partial file was emptied
  int attempts = 0;
  bool fresh_retry_used = false;    // a wrong file is discarded and fetched again once
  long retry_after = 0;             // seconds the server asked to wait (429/503)
  // What the last response's headers said of the file's length: its
  // Content-Length, the total of its Content-Range, or a chunked body (whose
  // end libcurl checks itself).
  std::optional<std::uint64_t> content_length, range_total;
  bool chunked = false;
  char error[CURL_ERROR_SIZE] = {0};
};

size_t write_body(char* data, size_t size, size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  long status = 0;
  curl_easy_getinfo(t.curl, CURLINFO_RESPONSE_CODE, &status);
  if (status >= 300) return size * count;  // an error page: not part of the file
  if (status == 200 && t.resumed_from > 0 && !t.restarted) {
    // The server sent the whole file instead of the range asked for.
    if (std::fflush(t.out) != 0 || ftruncate(fileno(t.out), 0) != 0) return 0;
    std::rewind(t.out);
    t.resumed_from = 0;
    t.restarted = true;
  }
  const size_t written = std::fwrite(data, 1, size * count, t.out);
  t.received += written;
  return written;
}

std::optional<std::uint64_t> decimal(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

size_t read_header(char* data, size_t size, size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  std::string line(data, size * count);
  for (char& c : line) c = char(std::tolower(static_cast<unsigned char>(c)));
  const auto value = [&](std::string_view name) -> std::optional<std::string_view> {
    if (!line.starts_with(name)) return std::nullopt;
    return std::string_view(line).substr(name.size());
  };
  if (line.starts_with("http/")) {  // a new response (after a redirect, say): forget the last one's
    t.content_length.reset();
    t.range_total.reset();
    t.chunked = false;
  } else if (const auto v = value("retry-after:")) {
    t.retry_after = retry_after_seconds(*v).value_or(0);
  } else if (const auto v = value("ratelimit:"); v && t.retry_after == 0) {
    t.retry_after = rate_limit_reset_seconds(std::string(*v)).value_or(0);
  } else if (const auto v = value("content-length:")) {
    t.content_length = decimal(*v);
  } else if (const auto v = value("content-range:")) {  // bytes FIRST-LAST/TOTAL, or bytes */TOTAL
    const auto slash = v->find('/');
    if (slash != std::string_view::npos) t.range_total = decimal(v->substr(slash + 1));
  } else if (const auto v = value("transfer-encoding:")) {
    t.chunked = v->find("chunked") != std::string_view::npos;
  }
  return size * count;
}

// Where the files that cannot be fetched go: null, the first ends every download (thrown); else each fails
// alone, its message kept here.
using Failures = std::map<const RemoteFile*, std::string>;

class Downloads {
 public:
  Downloads(const DownloadOptions& options, Failures* failures)
      : options_(options), failures_(failures), multi_(curl_multi_init()) {
    if (!multi_) throw Error(ErrorCategory::internal, "libcurl: cannot start");
    for (const auto& header : options_.headers) headers_ = curl_slist_append(headers_, header.c_str());
    show_progress_ = options_.progress && isatty(STDERR_FILENO);
  }
  ~Downloads() {
    for (auto& t : active_) close(*t);
    curl_multi_cleanup(multi_);
    curl_slist_free_all(headers_);
  }

  void run(const std::vector<const RemoteFile*>& files) {
    for (const auto* f : files) {
      auto t = std::make_unique<Transfer>();
      t->file = f;
      total_bytes_ += f->size.value_or(0);
      t->on_disk = size_or_zero(partial_of(f->destination));
      waiting_.push_back({Clock::now(), std::move(t)});
    }
    started_ = Clock::now();
    first_done_ = bytes_done();
    while (!waiting_.empty() || !active_.empty()) {
      start_ready();
      int running = 0;
      curl_multi_perform(multi_, &running);
      while (CURLMsg* message = curl_multi_info_read(multi_, &running)) {
        if (message->msg != CURLMSG_DONE) continue;
        finish(message->easy_handle, message->data.result);
      }
      progress(false);
      if (!active_.empty()) curl_multi_poll(multi_, nullptr, 0, 200, nullptr);
      else if (!waiting_.empty()) std::this_thread::sleep_until(std::min(waiting_.front().first, Clock::now() + std::chrono::milliseconds(200)));
    }
    progress(true);
  }

 private:
  void start_ready() {
    for (auto it = waiting_.begin(); it != waiting_.end() && int(active_.size()) < std::max(1, options_.parallel);) {
      if (it->first > Clock::now()) {
        ++it;
        continue;
      }
      std::unique_ptr<Transfer> t = std::move(it->second);
      it = waiting_.erase(it);
      begin(*t);
      active_.push_back(std::move(t));
    }
  }

  void begin(Transfer& t) {
    const auto partial = partial_of(t.file->destination);
    std::filesystem::create_directories(t.file->destination.parent_path());
    t.out = std::fopen(partial.c_str(), "ab");
    if (!t.out) throw Error(ErrorCategory::data, "cannot write " + partial.string());
    t.resumed_from = size_or_zero(partial);
    t.received = 0;
    t.restarted = false;
    t.retry_after = 0;
    t.error[0] = 0;
    ++t.attempts;
    t.curl = curl_easy_init();
    curl_easy_setopt(t.curl, CURLOPT_URL, t.file->url.c_str());
    curl_easy_setopt(t.curl, CURLOPT_FOLLOWLOCATION, 1L);
    // Redirects to a storage host (the Hub's CDN) must not carry the token.
    curl_easy_setopt(t.curl, CURLOPT_UNRESTRICTED_AUTH, 0L);
    curl_easy_setopt(t.curl, CURLOPT_HTTPHEADER, headers_);
    curl_easy_setopt(t.curl, CURLOPT_CONNECTTIMEOUT, 20L);
    // A stalled connection (under 1 kB/s for 60 s) is cut and resumed.
    curl_easy_setopt(t.curl, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    curl_easy_setopt(t.curl, CURLOPT_LOW_SPEED_TIME, 60L);
    curl_easy_setopt(t.curl, CURLOPT_ERRORBUFFER, t.error);
    curl_easy_setopt(t.curl, CURLOPT_WRITEFUNCTION, write_body);
    curl_easy_setopt(t.curl, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(t.curl, CURLOPT_HEADERFUNCTION, read_header);
    curl_easy_setopt(t.curl, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(t.curl, CURLOPT_PRIVATE, &t);
    if (t.resumed_from > 0) curl_easy_setopt(t.curl, CURLOPT_RESUME_FROM_LARGE, curl_off_t(t.resumed_from));
    curl_multi_add_handle(multi_, t.curl);
  }

  void close(Transfer& t) {
    if (t.curl) {
      curl_multi_remove_handle(multi_, t.curl);
      curl_easy_cleanup(t.curl);
      t.curl = nullptr;
    }
    if (t.out) std::fclose(t.out), t.out = nullptr;
  }

  std::string where(const Transfer& t) const {
    return fmt::format("{} (cache folder {})", t.file->url, t.file->destination.parent_path().string());
  }

  void fail(const Transfer& t, const Error& error) {
    if (!failures_) throw error;
    (*failures_)[t.file] = error.what();
  }

  void finish(CURL* curl, CURLcode result) {
    Transfer* raw = nullptr;
    curl_easy_getinfo(curl, CURLINFO_PRIVATE, &raw);
    auto it = std::find_if(active_.begin(), active_.end(), [&](const auto& t) { return t.get() == raw; });
    std::unique_ptr<Transfer> t = std::move(*it);
    active_.erase(it);
    long status = 0, redirects = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(curl, CURLINFO_REDIRECT_COUNT, &redirects);
    const std::string transport = result == CURLE_OK ? "" : (t->error[0] ? t->error : curl_easy_strerror(result));
    const bool write_failed = result == CURLE_WRITE_ERROR;
    close(*t);
    const auto partial = partial_of(t->file->destination);
    t->on_disk = size_or_zero(partial);

    if (write_failed) throw Error(ErrorCategory::data, "cannot write " + partial.string() + " (disk full?)");
    // A server that ignores ranges answers a resumed download with the whole file, which libcurl
    // refuses (CURLE_RANGE_ERROR) before any byte arrives: start the file again from its first byte.
    if (result == CURLE_RANGE_ERROR && t->resumed_from > 0) {
      std::error_code ignored;
      std::filesystem::remove(partial, ignored);
      t->on_disk = 0;
      waiting_.push_back({Clock::now(), std::move(t)});
      return;
    }
    // The signed link of the storage host a download was redirected to expires (the Hub's CDN
    // answers 403): asking the address again gives a fresh one.
    const bool expired_link = status == 403 && redirects > 0;
    if ((status == 401 || status == 403) && !expired_link)
      return fail(*t, Error(ErrorCategory::network,
                            fmt::format("{}: HTTP {}: access denied{}", where(*t), status,
                                        options_.denied_hint.empty() ? "" : ". " + options_.denied_hint)));
    if (status == 404) return fail(*t, Error(ErrorCategory::network, fmt::format("{}: HTTP 404: no such file", where(*t))));
    const bool transient =
        !transport.empty() || expired_link || status == 408 || status == 429 || status >= 500 || status == 0;
    if (transient) {
      if (t->attempts >= options_.attempts || host_unreachable(result))
        return fail(*t, Error(ErrorCategory::network,
                              fmt::format("cannot download {}: {} after {} attempt(s){}", where(*t),
                                          !transport.empty() ? transport
                                          : expired_link ? "HTTP 403 from the storage host it was sent to (expired links)"
                                                         : fmt::format("HTTP {}", status),
                                          t->attempts,
                                          options_.prefetch_hint.empty() ? "" : ". " + options_.prefetch_hint)));
      // What the server asked for (capped at five minutes, the Hub's longest rate-limit
      // window); at once after a cut connection that delivered bytes or for a fresh link; else
      // an exponential back-off.
      const long wait = t->retry_after > 0                 ? std::min(t->retry_after, 300L)
                        : t->received > 0 || expired_link  ? 0
                                                           : (1L << std::min(t->attempts - 1, 5));
      waiting_.push_back({Clock::now() + std::chrono::seconds(wait), std::move(t)});
      return;
    }
    if (status == 416) {  // the range starts at the end: the partial file may be whole already
    } else if (status >= 300) {
      return fail(*t, Error(ErrorCategory::network, fmt::format("{}: HTTP {}", where(*t), status)));
    }
    verify(std::move(t), status);
  }

  // The whole file's length as the server stated it.
  static std::optional<std::uint64_t> stated_length(const Transfer& t, long status) {
    if (t.range_total) return t.range_total;
    if (t.content_length && status == 206) return t.resumed_from + *t.content_length;
    if (t.content_length && status == 200) return t.content_length;
    return std::nullopt;
  }

  void verify(std::unique_ptr<Transfer> t, long status) {
    const auto partial = partial_of(t->file->destination);
    const std::uint64_t size = size_or_zero(partial);
    // Without a size or digest from the source, the server's own length is the check: a
    // connection cut early must never become a valid file in the cache.
    const std::optional<std::uint64_t> expected = t->file->size ? t->file->size : stated_length(*t, status);
    if (!expected && t->file->sha256.empty() && t->file->git_blob_id.empty() && !t->chunked) {
      std::filesystem::remove(partial);
      return fail(*t, Error(ErrorCategory::data,
                            fmt::format("{}: the server stated no length (no Content-Length, Content-Range or chunked "
                                        "body), so a cut connection cannot be told from the end of the file; not cached",
                                        where(*t))));
    }
    std::string problem;
    if (expected && size != *expected) {
      problem = fmt::format("{} bytes where {} were expected", size, *expected);
    } else if (!t->file->sha256.empty()) {
      const std::string digest = sha256_of_file(partial);
      if (digest != t->file->sha256) problem = fmt::format("SHA-256 {} where {} was expected", digest, t->file->sha256);
    } else if (!t->file->git_blob_id.empty()) {
      const std::string id = git_blob_id_of_file(partial);
      if (id != t->file->git_blob_id) problem = fmt::format("git blob id {} where {} was expected", id, t->file->git_blob_id);
    }
    if (problem.empty()) {
      std::filesystem::rename(partial, t->file->destination);
      finished_bytes_ += size;
      return;
    }
    std::filesystem::remove(partial);
    t->on_disk = 0;
    if (t->fresh_retry_used)
      return fail(*t, Error(ErrorCategory::data,
                            fmt::format("{}: the download is wrong twice: {}; it was discarded", where(*t), problem)));
    t->fresh_retry_used = true;
    waiting_.push_back({Clock::now(), std::move(t)});
  }

  void progress(bool last) {
    if (!show_progress_) return;
    const auto now = Clock::now();
    if (!last && now - shown_ < std::chrono::milliseconds(500)) return;
    shown_ = now;
    const double done = double(bytes_done());
    const double seconds = std::chrono::duration<double>(now - started_).count();
    const double rate = seconds > 0 ? std::max(0.0, done - double(first_done_)) / seconds : 0;
    // The total: sizes known beforehand, and the lengths servers stated for the others.
    double total = double(total_bytes_);
    bool every_length_known = true;
    for (const auto& t : active_)
      if (!t->file->size) {
        if (const auto length = t->range_total ? t->range_total : t->content_length)
          total += double(*length);
        else
          every_length_known = false;
      }
    for (const auto& [when, t] : waiting_) every_length_known = every_length_known && t->file->size.has_value();
    std::string line = fmt::format("downloading {} file(s): {}", files_left(), human_bytes(done));
    if (total > 0) line += fmt::format(" / {}{}", every_length_known ? "" : "at least ", human_bytes(total));
    line += fmt::format(", {}/s", human_bytes(rate));
    if (every_length_known && total > 0 && rate > 0 && done < total)
      line += fmt::format(", ETA {:.0f} s", (total - done) / rate);
    std::fprintf(stderr, "\r%-78s%s", line.c_str(), last ? "\n" : "");
    std::fflush(stderr);
  }

  std::size_t files_left() const { return waiting_.size() + active_.size(); }

  // Bytes verified, plus those in partial files.
  std::uint64_t bytes_done() const {
    std::uint64_t done = finished_bytes_;
    for (const auto& t : active_) done += t->resumed_from + t->received;
    for (const auto& [when, t] : waiting_) done += t->on_disk;
    return done;
  }

  const DownloadOptions& options_;
  Failures* failures_;
  CURLM* multi_;
  curl_slist* headers_ = nullptr;
  std::deque<std::pair<Clock::time_point, std::unique_ptr<Transfer>>> waiting_;
  std::vector<std::unique_ptr<Transfer>> active_;
  std::uint64_t total_bytes_ = 0, finished_bytes_ = 0, first_done_ = 0;
  bool show_progress_ = false;
  Clock::time_point started_, shown_;
};

}  // namespace

std::optional<long> retry_after_seconds(std::string_view header_value) {
  constexpr std::uint64_t kDay = 86400;
  const auto seconds = decimal(header_value);
  if (!seconds) return std::nullopt;
  return long(std::min(*seconds, kDay));
}

std::optional<long> rate_limit_reset_seconds(const std::string& header_value) {
  for (std::size_t at = header_value.find(';'); at != std::string::npos; at = header_value.find(';', at + 1)) {
    std::size_t key = at + 1;
    while (key < header_value.size() && header_value[key] == ' ') ++key;
    if (header_value.compare(key, 2, "t=") != 0) continue;
    if (const auto seconds = retry_after_seconds(std::string_view(header_value).substr(key + 2))) return seconds;
  }
  return std::nullopt;
}

std::optional<long> asked_wait_seconds(const std::map<std::string, std::string>& headers) {
  if (const auto it = headers.find("retry-after"); it != headers.end())
    if (const auto seconds = retry_after_seconds(it->second)) return seconds;
  if (const auto it = headers.find("ratelimit"); it != headers.end()) return rate_limit_reset_seconds(it->second);
  return std::nullopt;
}

bool host_unreachable(int curl_code) {
  return curl_code == CURLE_COULDNT_CONNECT || curl_code == CURLE_COULDNT_RESOLVE_HOST ||
         curl_code == CURLE_COULDNT_RESOLVE_PROXY;
}

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int unit = 0;
  while (bytes >= 1000 && unit < 4) bytes /= 1000, ++unit;
  return unit ? fmt::format("{:.1f} {}", bytes, units[unit]) : fmt::format("{:.0f} {}", bytes, units[unit]);
}

bool offline_mode() {
  const char* value = std::getenv("HF_HUB_OFFLINE");
  if (!value) return false;
  std::string v = value;
  for (char& c : v) c = char(std::toupper(static_cast<unsigned char>(c)));
  return v == "1" || v == "ON" || v == "YES" || v == "TRUE";
}

namespace {

std::vector<const RemoteFile*> not_in_place(const std::vector<RemoteFile>& files) {
  std::vector<const RemoteFile*> missing;
  for (const auto& file : files) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(file.destination, error)) missing.push_back(&file);
  }
  return missing;
}

// Fetches the files that are not in place (`missing` of them, so far).
void fetch_missing(const std::vector<RemoteFile>& files, std::vector<const RemoteFile*> missing,
                   const DownloadOptions& options, Failures* failures) {
  // Processes fetching the same files at once (shards of one run starting together) would append to
  // one .partial file: each folder of destinations is downloaded by one process at a time, and the
  // others, once let in, find its files in place. Locks are taken in one order, so none waits in a circle.
  std::set<std::filesystem::path> folders;
  for (const RemoteFile* file : missing) folders.insert(file->destination.parent_path());
  std::vector<std::unique_ptr<FileLock>> locks;
  for (const auto& folder : folders)
    locks.push_back(std::make_unique<FileLock>(cache_dir() / "locks" / (sha256_hex(folder.string()).substr(0, 24) + ".lock")));
  missing = not_in_place(files);
  if (!missing.empty()) Downloads(options, failures).run(missing);
}

}  // namespace

void download_files(const std::vector<RemoteFile>& files, const DownloadOptions& options) {
  const std::vector<const RemoteFile*> missing = not_in_place(files);
  if (missing.empty()) return;
  if (options.offline)
    throw Error(ErrorCategory::network,
                fmt::format("offline (HF_HUB_OFFLINE) and {} file(s) are not in the cache, e.g. {} (expected at {}){}",
                            missing.size(), missing[0]->url, missing[0]->destination.string(),
                            options.prefetch_hint.empty() ? "" : ". " + options.prefetch_hint));
  fetch_missing(files, missing, options, nullptr);
}

std::vector<std::string> download_each(const std::vector<RemoteFile>& files, const DownloadOptions& options) {
  const std::vector<const RemoteFile*> missing = not_in_place(files);
  Failures failures;
  if (options.offline) {
    for (const RemoteFile* file : missing)
      failures[file] = fmt::format("offline (HF_HUB_OFFLINE is set) and {} is not in the cache (expected at {}){}",
                                   file->url, file->destination.string(),
                                   options.prefetch_hint.empty() ? "" : ". " + options.prefetch_hint);
  } else if (!missing.empty()) {
    fetch_missing(files, missing, options, &failures);
  }
  std::vector<std::string> why(files.size());
  for (std::size_t k = 0; k < files.size(); ++k)
    if (const auto failed = failures.find(&files[k]); failed != failures.end()) why[k] = failed->second;
  return why;
}

void download_verified(const std::string& url, const std::filesystem::path& destination,
                       const std::string& expected_sha256) {
  DownloadOptions options;
  options.progress = false;
  options.prefetch_hint = "offline? copy the file to " + destination.string() + " by hand";
  download_files({{url, destination, expected_sha256, std::nullopt}}, options);
}

}  // namespace aeval
