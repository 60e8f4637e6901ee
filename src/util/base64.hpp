#pragma once
// Standard base64 (RFC 4648, with padding), by OpenSSL: audio in JSON requests
// and answers, and credentials in an HTTP Basic Authorization header.
#include <optional>
#include <string>

namespace aeval::util {

std::string base64(const std::string& bytes);
// The bytes `text` encodes (whitespace around it ignored); nullopt when it is
// not base64.
std::optional<std::string> unbase64(const std::string& text);

}  // namespace aeval::util
