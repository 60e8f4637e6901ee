// The Hub's tree listing (a JSON array from a Hub, a mirror named by
// HF_ENDPOINT, or anyone on a plain-http path), its dataset viewer's list of
// Parquet conversion files, and the paths they name: every path accepted
// stays inside the folder it is joined to, and a malformed answer is an
// aeval::Error, never another exception.
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "aeval/error.hpp"
#include "datasets/hub_client.hpp"

namespace {

// Joined to a cache folder and normalized, `path` is still below it.
bool stays_inside(const std::string& path) {
  const std::filesystem::path root = "/cache/snapshots/0123456789abcdef0123456789abcdef01234567";
  const std::filesystem::path joined = (root / path).lexically_normal();
  const std::filesystem::path inside = joined.lexically_relative(root);
  return !inside.empty() && *inside.begin() != ".." && *inside.begin() != ".";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // The bytes as one path, as a listing or a manifest of cached files could name it.
  if (aeval::datasets::safe_repository_path(text) && !stays_inside(text)) std::abort();
  const auto page = nlohmann::json::parse(text, nullptr, false);
  if (page.is_discarded()) return 0;
  try {
    for (const auto& file : aeval::datasets::hub_listing_files(page, "https://hub.test/api/datasets/a/b/tree/main"))
      if (file.path.empty() || !stays_inside(file.path)) std::abort();
  } catch (const aeval::Error&) {
  }
  try {
    const auto exported = aeval::datasets::parquet_export_of(page, "", "https://datasets-server.hub.test/parquet");
    for (const auto& file : exported.files)
      if (!stays_inside(file.path)) std::abort();
  } catch (const aeval::Error&) {
  }
  return 0;
}
