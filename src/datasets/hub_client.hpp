#pragma once
// The part of the Hugging Face Hub's HTTP API that datasets need: resolve a
// revision to its commit, list a commit's files (with the size and SHA-256
// the Hub stores for each), and the address a file downloads from. Honours
// HF_ENDPOINT (mirrors), HF_TOKEN or a configured variable (gated datasets;
// the token only ever goes into an Authorization header) and HF_HUB_OFFLINE.
// A mirror behind HTTP Basic auth may be written https://user:password@host:
// those credentials too go into the header only, never into a URL that a
// message or a log could show.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aeval::datasets {

struct HubFile {
  std::string path;    // in the repository
  std::uint64_t size = 0;
  std::string sha256;  // of the content, from the Hub's LFS record ("" for a file kept in git)
  std::string git_blob_id;  // a file kept in git: its blob id, which the Hub lists as "oid"
};

// Whether a path a Hub lists stays inside the repository's folder once joined to it: relative,
// no empty, "." or ".." component, no backslash or control character. Remote names are
// untrusted: a listing or revision that fails this is refused before anything is written.
bool safe_repository_path(const std::string& path);
// A commit id as the Hub writes it: 40 lowercase hex digits.
bool is_commit_id(const std::string& text);
// The files of one page of the Hub's tree listing (a JSON array; folders and other entries are skipped).
// Throws aeval::Error naming `url`: (network) for a page that is not an array, (data) for an entry whose
// fields have the wrong types or whose path leaves the repository. Untrusted input: fuzz/hub_listing.cpp.
std::vector<HubFile> hub_listing_files(const nlohmann::json& page, const std::string& url);

// One file of the Hub's automatic Parquet conversion, as its dataset viewer lists it.
struct ExportedParquetFile {
  std::string config, split;
  std::string path;  // in the conversion's branch, refs/convert/parquet
};

// The dataset viewer's account of the conversion (`/parquet?dataset=R`): the commit of main it is made
// from (its X-Revision header, "" when absent), why it is not whole (no when it is), and its files in
// the viewer's order.
struct ParquetExport {
  enum class Incomplete { no, partial, pending, failed, unknown_state };
  std::string revision;
  Incomplete incomplete = Incomplete::no;
  std::vector<ExportedParquetFile> files;
};

// Reads the viewer's JSON answer. Throws aeval::Error (data) naming `url` for a malformed answer or a file
// whose path leaves the repository. Untrusted input: fuzz/hub_listing.cpp.
ParquetExport parquet_export_of(const nlohmann::json& answer, const std::string& revision, const std::string& url);

class HubClient {
 public:
  // Reads HF_ENDPOINT (default https://huggingface.co), the token from the
  // environment variable `token_env` (default HF_TOKEN), and HF_HUB_OFFLINE.
  explicit HubClient(const std::string& token_env = "HF_TOKEN");

  const std::string& endpoint() const { return endpoint_; }  // without credentials
  bool offline() const { return offline_; }

  // The revision's metadata (`sha` is its commit; `cardData.configs` its
  // declared configs). Throws aeval::Error (network) naming the URL:
  // gated/private (401/403) with how to get access, 404, or unreachable;
  // (data) when the commit it names is not a commit id.
  nlohmann::json dataset_info(const std::string& repo, const std::string& revision) const;

  // Every file under `folder` ("" for all) at `revision`, in the Hub's order. Throws aeval::Error
  // (data) when the listing names a path outside the repository.
  std::vector<HubFile> list_files(const std::string& repo, const std::string& revision, const std::string& folder) const;

  // What the Hub's dataset viewer (host datasets-server.HOST of the endpoint, as `datasets` derives it)
  // says of the dataset's Parquet conversion. Throws aeval::Error (network) naming the URL.
  ParquetExport parquet_export(const std::string& repo) const;

  // Where a file downloads from.
  std::string file_url(const std::string& repo, const std::string& revision, const std::string& path) const;

  // The headers a download needs (the token, or else the endpoint's credentials).
  std::vector<std::string> headers() const;

  // What a 401/403 means for `repo` and what to do about it.
  std::string access_hint(const std::string& repo) const;

 private:
  // The JSON a GET answers; the next page's URL (Link header) and the X-Revision header when asked for.
  nlohmann::json get_json(const std::string& url, const std::string& repo, std::string* next_page = nullptr,
                          std::string* revision = nullptr) const;

  std::string endpoint_, credentials_, token_, token_env_;
  bool offline_ = false;
};

// A path or revision as it goes into a URL: each character outside
// [A-Za-z0-9._~-] percent-encoded ('/' too, unless `keep_slashes`).
std::string url_encode(const std::string& text, bool keep_slashes);

}  // namespace aeval::datasets
