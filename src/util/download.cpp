#include "util/download.hpp"

#include <curl/curl.h>

#include <fstream>
#include <sstream>

#include "util/atomic_file.hpp"
#include "util/sha256.hpp"
#include "aeval/error.hpp"

namespace aeval {


namespace {
size_t append_body(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}
}  // namespace

void download_verified(const std::string& url, const std::filesystem::path& destination,
                       const std::string& expected_sha256) {
  CURL* curl = curl_easy_init();
  if (!curl) throw Error(ErrorCategory::internal, "libcurl initialisation failed");
  std::string body;
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 15L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 120L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  const CURLcode rc = curl_easy_perform(curl);
  curl_easy_cleanup(curl);
  if (rc != CURLE_OK)
    throw Error(ErrorCategory::network, "download of " + url + " failed: " +
                                            (error[0] ? error : curl_easy_strerror(rc)) +
                                            " (offline? copy the file to " + destination.string() + " by hand)");
  const std::string digest = sha256_hex(body);
  if (digest != expected_sha256)
    throw Error(ErrorCategory::data, "download of " + url + " has SHA-256 " + digest + ", expected " + expected_sha256);

  write_file_atomically(destination, body);
}

}  // namespace aeval
