#include "util/sha256.hpp"

#include <openssl/evp.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <vector>

#include "aeval/error.hpp"

namespace aeval {

namespace {

std::string hex(const unsigned char* digest, unsigned int length) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += digits[digest[i] >> 4];
    out += digits[digest[i] & 15];
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
  return hex(digest, length);
}

namespace {

// The digest of `prefix` followed by the file's bytes, read in blocks: dataset files run to gigabytes.
std::string digest_of_file(const std::filesystem::path& path, const EVP_MD* kind, const std::string& prefix) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCategory::data, path.string() + ": cannot read");
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(context.get(), kind, nullptr);
  EVP_DigestUpdate(context.get(), prefix.data(), prefix.size());
  std::vector<char> block(1 << 20);
  while (in) {
    in.read(block.data(), std::streamsize(block.size()));
    EVP_DigestUpdate(context.get(), block.data(), std::size_t(in.gcount()));
  }
  if (in.bad()) throw Error(ErrorCategory::data, path.string() + ": read error");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(context.get(), digest, &length);
  return hex(digest, length);
}

}  // namespace

std::string sha256_of_file(const std::filesystem::path& path) { return digest_of_file(path, EVP_sha256(), ""); }

std::string git_blob_id_of_file(const std::filesystem::path& path) {
  const auto size = std::filesystem::file_size(path);
  return digest_of_file(path, EVP_sha1(), "blob " + std::to_string(size) + std::string(1, '\0'));
}

std::filesystem::path cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "aeval";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : "/tmp") / ".cache" / "aeval";
}

}  // namespace aeval
