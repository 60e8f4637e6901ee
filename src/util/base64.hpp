#pragma once
// Standard base64 (RFC 4648, with padding): audio in JSON requests, and
// credentials in an HTTP Basic Authorization header.
#include <string>

namespace aeval::util {

std::string base64(const std::string& bytes);

}  // namespace aeval::util
