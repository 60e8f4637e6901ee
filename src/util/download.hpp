#pragma once
// Download-and-cache for data aeval does not ship (spelling tables, model
// files): fetch to a temporary file, verify the SHA-256, then rename into
// place so a cache never holds a partial file.
#include <filesystem>
#include <string>

#include "util/sha256.hpp"

namespace aeval {

// Throws aeval::Error (network) naming the URL when the download fails, e.g.
// offline, and (data) when the digest differs.
void download_verified(const std::string& url, const std::filesystem::path& destination,
                       const std::string& expected_sha256);

}  // namespace aeval
