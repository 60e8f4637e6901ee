#include "util/base64.hpp"

#include <openssl/evp.h>

namespace aeval::util {

std::string base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::optional<std::string> unbase64(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return std::string();
  const std::string body = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  if (body.size() % 4 != 0 || body.size() > 0x7fffffff) return std::nullopt;
  std::string out(body.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(body.data()), static_cast<int>(body.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the padding as zero bytes: drop them.
  std::size_t padding = 0;
  for (std::size_t k = body.size(); k > 0 && body[k - 1] == '=' && padding < 2; --k) ++padding;
  out.resize(static_cast<std::size_t>(n) - padding);
  return out;
}

}  // namespace aeval::util
