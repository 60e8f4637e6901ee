#include "datasets/hub_client.hpp"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "aeval/error.hpp"
#include "util/base64.hpp"
#include "util/download.hpp"
#include "util/untrusted_json.hpp"

namespace aeval::datasets {

namespace {

size_t append(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

struct Reply {
  long status = 0;
  std::string body, link, revision, transport_error;
  bool unreachable = false;  // no connection at all: offline, a wrong endpoint
  long retry_after = 0;
};

size_t read_header(char* data, size_t size, size_t count, void* user) {
  auto& reply = *static_cast<Reply*>(user);
  std::string line(data, size * count);
  const auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n')) value.pop_back();
    const auto start = value.find_first_not_of(' ');
    value = start == std::string::npos ? "" : value.substr(start);
    if (name == "link") reply.link = value;
    if (name == "x-revision") reply.revision = value;
    if (name == "retry-after") reply.retry_after = retry_after_seconds(value).value_or(0);
    if (name == "ratelimit" && reply.retry_after == 0) reply.retry_after = rate_limit_reset_seconds(value).value_or(0);
  }
  return size * count;
}

Reply http_get(const std::string& url, const std::vector<std::string>& headers) {
  Reply reply;
  CURL* curl = curl_easy_init();
  if (!curl) throw Error(ErrorCategory::internal, "libcurl: cannot start");
  curl_slist* list = nullptr;
  for (const auto& h : headers) list = curl_slist_append(list, h.c_str());
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 20L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 120L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, read_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &reply);
  const CURLcode rc = curl_easy_perform(curl);
  if (rc != CURLE_OK) reply.transport_error = error[0] ? error : curl_easy_strerror(rc);
  reply.unreachable = host_unreachable(rc);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply.status);
  curl_slist_free_all(list);
  curl_easy_cleanup(curl);
  return reply;
}

// The target of `rel="next"` in an HTTP Link header (the Hub pages long listings).
std::string next_link(const std::string& link) {
  const auto rel = link.find("rel=\"next\"");
  if (rel == std::string::npos) return "";
  const auto open = link.rfind('<', rel), close = link.find('>', open);
  return open == std::string::npos || close == std::string::npos ? "" : link.substr(open + 1, close - open - 1);
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string percent_decoded(const std::string& encoded) {
  std::string decoded;
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] == '%' && i + 2 < encoded.size() && std::isxdigit(static_cast<unsigned char>(encoded[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(encoded[i + 2]))) {
      decoded += char(std::stoi(encoded.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      decoded += encoded[i];
    }
  }
  return decoded;
}

// Takes "user:password@" out of an endpoint and returns it percent-decoded.
std::string take_credentials(std::string& endpoint) {
  const auto scheme = endpoint.find("://");
  if (scheme == std::string::npos) return "";
  const auto host = scheme + 3;
  const auto at = endpoint.substr(host, endpoint.find('/', host) - host).rfind('@');
  if (at == std::string::npos) return "";
  const std::string encoded = endpoint.substr(host, at);
  endpoint.erase(host, at + 1);
  return percent_decoded(encoded);
}

// Surrounding whitespace is not part of a token (a file written by `echo` ends in a newline).
std::string trimmed(std::string text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// The token as the Hub's own clients find it: the variable, then (for
// HF_TOKEN) the older HUGGING_FACE_HUB_TOKEN and the file `huggingface-cli
// login` writes: $HF_TOKEN_PATH, or $HF_HOME/token ($HF_HOME defaults to
// $XDG_CACHE_HOME/huggingface, or ~/.cache/huggingface).
std::string find_token(const std::string& token_env) {
  std::string token = trimmed(environment(token_env.c_str()));
  if (!token.empty() || token_env != "HF_TOKEN") return token;
  token = trimmed(environment("HUGGING_FACE_HUB_TOKEN"));
  if (!token.empty()) return token;
  std::filesystem::path file = environment("HF_TOKEN_PATH");
  if (file.empty()) {
    std::filesystem::path home = environment("HF_HOME");
    if (home.empty()) {
      const std::string xdg = environment("XDG_CACHE_HOME"), user = environment("HOME");
      home = !xdg.empty() ? std::filesystem::path(xdg) / "huggingface"
                          : std::filesystem::path(user.empty() ? "/tmp" : user) / ".cache" / "huggingface";
    }
    file = home / "token";
  }
  std::ifstream in(file);
  return in ? trimmed(std::string(std::istreambuf_iterator<char>(in), {})) : "";
}

}  // namespace

std::string url_encode(const std::string& text, bool keep_slashes) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '.' || c == '_' || c == '~' || c == '-' || (keep_slashes && c == '/'))
      out += char(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

HubClient::HubClient(const std::string& token_env)
    : endpoint_(environment("HF_ENDPOINT")), token_(find_token(token_env)), token_env_(token_env),
      offline_(offline_mode()) {
  if (endpoint_.empty()) endpoint_ = "https://huggingface.co";
  while (endpoint_.size() > 1 && endpoint_.back() == '/') endpoint_.pop_back();
  credentials_ = take_credentials(endpoint_);
}

std::vector<std::string> HubClient::headers() const {
  if (!token_.empty()) return {"Authorization: Bearer " + token_};
  if (!credentials_.empty()) return {"Authorization: Basic " + util::base64(credentials_)};
  return {};
}

std::string HubClient::access_hint(const std::string& repo) const {
  // Without a token the Hub answers 401 for a repository it does not have, too.
  return fmt::format(
      "{}: accept its terms at {}/datasets/{} while logged in, create a read token at {}/settings/tokens and put it "
      "in ${}{}",
      token_.empty() ? fmt::format("the dataset {} does not exist (check its name) or is gated or private", repo)
                     : fmt::format("the dataset {} is gated or private", repo),
      endpoint_, repo, endpoint_, token_env_, token_.empty() ? " (it is not set)" : " (the token set there has no access)");
}

nlohmann::json HubClient::get_json(const std::string& url, const std::string& repo, std::string* next_page,
                                   std::string* revision) const {
  if (offline_) throw Error(ErrorCategory::network, "offline (HF_HUB_OFFLINE is set): cannot ask " + url);
  constexpr int kAttempts = 5;
  for (int attempt = 1;; ++attempt) {
    const Reply reply = http_get(url, headers());
    // Throttling, server errors and dropped connections pass; a host that cannot be reached at all does not.
    const bool transient =
        (!reply.transport_error.empty() && !reply.unreachable) || reply.status == 429 || reply.status >= 500;
    if (transient && attempt < kAttempts) {
      // The Hub's rate-limit windows last up to 5 minutes; it says how long is left.
      const long wait = reply.retry_after > 0 ? std::min(reply.retry_after + 1, 300L) : (1L << (attempt - 1));
      std::this_thread::sleep_for(std::chrono::seconds(wait));
      continue;
    }
    if (!reply.transport_error.empty())
      throw Error(ErrorCategory::network, fmt::format("cannot reach {}: {}", url, reply.transport_error));
    if (reply.status == 401 || reply.status == 403)
      throw Error(ErrorCategory::network, fmt::format("{}: HTTP {}: {}", url, reply.status, access_hint(repo)));
    if (reply.status == 404)
      throw Error(ErrorCategory::network,
                  fmt::format("{}: HTTP 404: no dataset {} with that revision at {}", url, repo, endpoint_));
    if (reply.status != 200)
      throw Error(ErrorCategory::network, fmt::format("{}: HTTP {} after {} attempt(s)", url, reply.status, attempt));
    if (next_page) *next_page = next_link(reply.link);
    if (revision) *revision = reply.revision;
    try {
      return parse_untrusted_json(reply.body);
    } catch (const JsonTooDeep& e) {
      throw Error(ErrorCategory::network, fmt::format("{}: the answer is {}", url, e.what()));
    } catch (const nlohmann::json::exception&) {
      throw Error(ErrorCategory::network, fmt::format("{}: the answer is not JSON (a proxy page?): {}", url,
                                                      reply.body.substr(0, 80)));
    }
  }
}

bool safe_repository_path(const std::string& path) {
  if (path.empty() || path.front() == '/') return false;
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = path.find('/', start);
    const std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.empty() || part == "." || part == "..") return false;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return std::none_of(path.begin(), path.end(),
                      [](char c) { return c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

bool is_commit_id(const std::string& text) {
  return text.size() == 40 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

nlohmann::json HubClient::dataset_info(const std::string& repo, const std::string& revision) const {
  const std::string url =
      fmt::format("{}/api/datasets/{}/revision/{}", endpoint_, url_encode(repo, true), url_encode(revision, false));
  nlohmann::json info = get_json(url, repo);
  if (!info.is_object() || !info.contains("sha") || !info["sha"].is_string())
    throw Error(ErrorCategory::network, url + ": the answer names no commit (sha)");
  if (!is_commit_id(info["sha"].get<std::string>()))
    throw Error(ErrorCategory::data, fmt::format("{}: the commit it names ('{}') is not 40 hex digits; refused, since "
                                                 "it would name a folder of the cache",
                                                 url, info["sha"].get<std::string>().substr(0, 80)));
  return info;
}

std::vector<HubFile> HubClient::list_files(const std::string& repo, const std::string& revision,
                                           const std::string& folder) const {
  std::string url = fmt::format("{}/api/datasets/{}/tree/{}{}?recursive=true", endpoint_, url_encode(repo, true),
                                url_encode(revision, false), folder.empty() ? "" : "/" + url_encode(folder, true));
  std::vector<HubFile> files;
  while (!url.empty()) {
    std::string next;
    for (auto& file : hub_listing_files(get_json(url, repo, &next), url)) files.push_back(std::move(file));
    url = next;
  }
  return files;
}

std::vector<HubFile> hub_listing_files(const nlohmann::json& page, const std::string& url) {
  if (!page.is_array()) throw Error(ErrorCategory::network, url + ": the file listing is not a JSON array");
  const auto malformed = [&](const std::string& what) {
    return Error(ErrorCategory::data, fmt::format("{}: a malformed file listing ({})", url, what));
  };
  // A field of the given JSON type, or `fallback` when absent; another type is malformed.
  const auto text = [&](const nlohmann::json& object, const char* key) -> std::string {
    if (!object.contains(key) || object[key].is_null()) return "";
    if (!object[key].is_string()) throw malformed(fmt::format("'{}' is not text", key));
    return object[key].get<std::string>();
  };
  const auto size = [&](const nlohmann::json& object, std::uint64_t fallback) -> std::uint64_t {
    if (!object.contains("size") || object["size"].is_null()) return fallback;
    if (!object["size"].is_number_unsigned()) throw malformed("'size' is not a byte count");
    return object["size"].get<std::uint64_t>();
  };
  std::vector<HubFile> files;
  for (const auto& entry : page) {
    if (!entry.is_object() || !entry.contains("type") || entry["type"] != "file") continue;
    HubFile file;
    file.path = text(entry, "path");
    file.size = size(entry, 0);
    if (entry.contains("lfs") && entry["lfs"].is_object()) {
      file.sha256 = text(entry["lfs"], "oid");
      file.size = size(entry["lfs"], file.size);
    } else if (const std::string oid = text(entry, "oid"); is_commit_id(oid)) {
      file.git_blob_id = oid;  // 40 hex digits, as a commit id
    }
    if (file.path.empty()) continue;
    if (!safe_repository_path(file.path))
      throw Error(ErrorCategory::data, fmt::format("{}: the listing names '{}', a path outside the repository; "
                                                   "refused before anything is written",
                                                   url, file.path.substr(0, 200)));
    files.push_back(std::move(file));
  }
  return files;
}

ParquetExport HubClient::parquet_export(const std::string& repo) const {
  std::string viewer = endpoint_;
  if (const auto scheme = viewer.find("://"); scheme != std::string::npos) viewer.insert(scheme + 3, "datasets-server.");
  const std::string url = fmt::format("{}/parquet?dataset={}", viewer, url_encode(repo, true));
  std::string revision;
  const nlohmann::json answer = get_json(url, repo, nullptr, &revision);
  return parquet_export_of(answer, revision, url);
}

ParquetExport parquet_export_of(const nlohmann::json& answer, const std::string& revision, const std::string& url) {
  const auto malformed = [&](const std::string& what) {
    return Error(ErrorCategory::data, fmt::format("{}: a malformed answer ({})", url, what));
  };
  if (!answer.is_object() || !answer.contains("parquet_files") || !answer["parquet_files"].is_array())
    throw malformed("no list of parquet_files");
  ParquetExport exported{revision, ParquetExport::Incomplete::no, {}};
  // `datasets` reads a conversion only when partial is false and pending and failed are present and empty.
  const auto empty = [&](const char* key) {
    if (!answer.contains(key)) return false;
    const nlohmann::json& v = answer[key];
    return v == false || (v.is_array() && v.empty());
  };
  using Incomplete = ParquetExport::Incomplete;
  if (answer.contains("partial") && answer["partial"] == true) exported.incomplete = Incomplete::partial;
  else if (!answer.contains("partial") || answer["partial"] != false) exported.incomplete = Incomplete::unknown_state;
  else if (!empty("pending")) exported.incomplete = Incomplete::pending;
  else if (!empty("failed")) exported.incomplete = Incomplete::failed;
  const std::string branch = "/resolve/refs%2Fconvert%2Fparquet/";
  for (const auto& entry : answer["parquet_files"]) {
    if (!entry.is_object()) throw malformed("a file that is not an object");
    for (const char* key : {"config", "split", "url"})
      if (!entry.contains(key) || !entry[key].is_string()) throw malformed(fmt::format("a file without a text '{}'", key));
    const std::string file_url = entry["url"].get<std::string>();
    const auto at = file_url.find(branch);
    if (at == std::string::npos) throw malformed("a file outside refs/convert/parquet: " + file_url.substr(0, 200));
    ExportedParquetFile file{entry["config"].get<std::string>(), entry["split"].get<std::string>(),
                             percent_decoded(file_url.substr(at + branch.size()))};
    if (!safe_repository_path(file.path))
      throw Error(ErrorCategory::data, fmt::format("{}: the answer names '{}', a path outside the repository; "
                                                   "refused before anything is written",
                                                   url, file.path.substr(0, 200)));
    exported.files.push_back(std::move(file));
  }
  return exported;
}

std::string HubClient::file_url(const std::string& repo, const std::string& revision, const std::string& path) const {
  return fmt::format("{}/datasets/{}/resolve/{}/{}", endpoint_, url_encode(repo, true), url_encode(revision, false),
                     url_encode(path, true));
}

}  // namespace aeval::datasets
