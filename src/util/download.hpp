#pragma once
// The one download cache of datasets, model weights and tables: files fetched with
// libcurl, several at once, into "<destination>.partial" first; an
// interrupted download resumes from the bytes already there (HTTP ranges);
// a finished file is checked against its size and SHA-256 (or git blob id, or
// the length the server stated) before it is
// renamed into place, so the cache never holds a partial or wrong file, and
// a file already in place is never fetched again. Processes fetching the
// same folder at once take turns (a lock per folder under cache_dir()/locks).
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aeval {

struct RemoteFile {
  std::string url;
  std::filesystem::path destination;   // where the verified file lives
  std::string sha256;                  // expected digest; empty when the source publishes none
  std::optional<std::uint64_t> size;   // expected size in bytes, when known
  std::string git_blob_id = {};        // or git's blob id (a Hub file kept in git, not LFS)
};

// "1.5 GB", "340 kB", "12 B": sizes as progress lines and `aeval cache` show them.
std::string human_bytes(double bytes);

// HF_HUB_OFFLINE set to 1/ON/YES/TRUE (the Hub's own switch): no download
// goes to the network; only what is cached is used.
bool offline_mode();

// No connection at all (offline, a wrong host): not worth retrying, unlike
// throttling, server errors and dropped connections. `curl_code` is a CURLcode.
bool host_unreachable(int curl_code);

// Seconds until a rate limit's window resets, from the Hub's header
// `RateLimit: "api";r=0;t=SECONDS` (IETF draft RateLimit fields); none when absent.
std::optional<long> rate_limit_reset_seconds(const std::string& header_value);
// Seconds a `Retry-After` header asks to wait (its delay-seconds form); none when it says no number.
// Both are capped at a day: a server's number is never trusted to fit an integer's arithmetic.
std::optional<long> retry_after_seconds(std::string_view header_value);
// What a server asks a client to wait before asking again, from its headers (names lowercased): Retry-After, else
// the RateLimit field's reset; none when it asks nothing. The model client reads it as the downloads do.
std::optional<long> asked_wait_seconds(const std::map<std::string, std::string>& headers);

struct DownloadOptions {
  std::vector<std::string> headers;   // e.g. "Authorization: Bearer …" (never logged or stored)
  int parallel = 4;                   // files in flight at once
  int attempts = 5;                   // per file, for transient failures (429, 5xx, cut connections)
  bool offline = offline_mode();      // only files already in place; a missing one is an error
  bool progress = true;               // a progress line (bytes/s, ETA) on stderr when it is a terminal
  std::string prefetch_hint;          // appended to network errors: how to fetch elsewhere
  std::string denied_hint;            // appended to 401/403: how to get access
};

// Ensures every file is in place and verified. Throws aeval::Error: network
// (naming the URL and the cache folder) when a file cannot be fetched (at
// once for a host that cannot be reached at all), data
// when a file still differs from its size or digest after one fresh retry.
void download_files(const std::vector<RemoteFile>& files, const DownloadOptions& options = {});

// As download_files, but each file stands alone: one that cannot be fetched (an HTTP error, a server error or
// a cut connection through every attempt, a host that cannot be reached, a download wrong twice; offline, one
// not in the cache) lets the others finish. The answer holds, for each file in order, why it is not in place
// ("": it is). A file that cannot be written still throws (data): the others would fail the same way.
std::vector<std::string> download_each(const std::vector<RemoteFile>& files, const DownloadOptions& options = {});

// One file, fetched whole when it is not in place yet: a network error says
// to copy it to `destination` by hand.
void download_verified(const std::string& url, const std::filesystem::path& destination,
                       const std::string& expected_sha256);

}  // namespace aeval
