#pragma once
// Content digests (what caches and provenance key on) and the cache folder.
#include <filesystem>
#include <string>
#include <string_view>

namespace aeval {

std::string sha256_hex(std::string_view bytes);
std::string sha256_of_file(const std::filesystem::path& path);
// Git's id of the file as a blob: SHA-1 of "blob SIZE\0" and the bytes (what the Hub lists for a
// file kept in git rather than LFS).
std::string git_blob_id_of_file(const std::filesystem::path& path);

// $XDG_CACHE_HOME/aeval (or ~/.cache/aeval).
std::filesystem::path cache_dir();

}  // namespace aeval
