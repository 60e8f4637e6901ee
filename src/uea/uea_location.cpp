#include "uea/uea_location.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <vector>

#include "aeval/error.hpp"
#include "util/atomic_file.hpp"
#include "datasets/archive_extract.hpp"
#include "util/download.hpp"
#include "util/file_lock.hpp"
#include "util/sha256.hpp"

namespace aeval::uea {

namespace fs = std::filesystem;

std::string pinned_tarball_url() {
  if (const char* url = std::getenv("AEVAL_UEA_URL"); url && *url) return url;
  return std::string("https://codeload.github.com/OpenBMB/UltraEval-Audio/tar.gz/") + kPinnedCommit;
}

fs::path pinned_cache_dir() { return cache_dir() / "uea" / std::string(kPinnedCommit).substr(0, 7); }

std::string registry_digest(const fs::path& registry_dir) {
  std::vector<std::string> files;
  for (const auto& f : fs::recursive_directory_iterator(registry_dir))
    if (f.is_regular_file()) files.push_back("registry/" + f.path().lexically_relative(registry_dir).generic_string());
  std::sort(files.begin(), files.end());  // byte order, as LC_ALL=C sort
  std::string listing;
  for (const auto& name : files)
    listing += sha256_of_file(registry_dir / fs::path(name).lexically_relative("registry")) + "  " + name + "\n";
  return sha256_hex(listing);
}

namespace {

// GitHub's tarball holds one top folder, "UltraEval-Audio-<commit>/". aeval keeps the registry,
// the framework's Python with everything its model classes start or read (audio_evals/lib/: the
// @isolated scripts, their requirements, vendored model code, text normalizers' data) and the
// licence; the rest of the repository (docs, assets at its root) stays out, and so do the symbolic
// links between vendored trees (seven at the pinned commit, in examples UEA never runs).
bool wanted(std::string member, bool symbolic_link) {
  if (symbolic_link) return false;
  if (member.starts_with("./")) member.erase(0, 2);
  const std::size_t slash = member.find('/');
  if (slash == std::string::npos) return false;
  const std::string inside = member.substr(slash + 1);
  return inside.empty() || inside == "LICENSE" || inside.starts_with("registry/") || inside.starts_with("audio_evals/");
}

// The one folder the tarball unpacked into, if it holds a registry.
fs::path checkout_in(const fs::path& unpacked) {
  std::error_code error;
  for (const auto& f : fs::directory_iterator(unpacked, error))
    if (f.is_directory() && fs::is_directory(f.path() / "registry")) return f.path();
  return {};
}

// Why `checkout`'s audio_evals/ is not the pinned commit's ("" when it is): a file that is not one of its listed
// files (uea_pinned_files.txt: git's blob id and path of each), or whose content differs. A listed file may be
// absent: GitHub's tarball holds them all, and UEA's code fails where it imports one that is not there.
std::string audio_evals_difference(const fs::path& checkout) {
  std::ifstream in(AEVAL_UEA_PINNED_FILES);
  if (!in) throw Error(ErrorCategory::internal, std::string("cannot read ") + AEVAL_UEA_PINNED_FILES);
  std::map<std::string, std::string> pinned;  // path -> blob id
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') pinned[line.substr(line.find("  ") + 2)] = line.substr(0, line.find("  "));
  for (const auto& f : fs::recursive_directory_iterator(checkout / "audio_evals")) {
    if (!f.is_regular_file()) continue;
    const std::string name = f.path().lexically_relative(checkout).generic_string();
    const auto listed = pinned.find(name);
    if (listed == pinned.end()) return name + " is not among its files";
    if (const std::string id = git_blob_id_of_file(f.path()); id != listed->second)
      return fmt::format("{} differs (git blob {}, expected {})", name, id, listed->second);
  }
  return "";
}

}  // namespace

fs::path fetch_pinned_uea() {
  const fs::path dir = pinned_cache_dir(), tarball = dir / "UltraEval-Audio.tar.gz", unpacked = dir / "unpacked";
  const std::string url = pinned_tarball_url();
  fs::create_directories(dir);
  FileLock lock(dir / ".lock");
  // What this aeval unpacks (wanted()); a cache unpacked by an aeval that kept less is unpacked again.
  const fs::path layout = unpacked / ".aeval-layout-4";
  if (const fs::path found = checkout_in(unpacked);
      !found.empty() && fs::exists(layout) && registry_digest(found / "registry") == kPinnedRegistryDigest)
    return found;
  DownloadOptions options;
  options.parallel = 1;
  try {
    if (!fs::exists(tarball)) download_files({{url, tarball, "", std::nullopt}}, options);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::network) throw;
    throw Error(ErrorCategory::network,
                fmt::format("cannot download UltraEval-Audio {} from {} into {} ({}); run `aeval fetch uea` where there "
                            "is network and copy that folder here, or point AEVAL_UEA_DIR (or `aeval uea`'s --uea-dir) at "
                            "a checkout of that commit",
                            std::string(kPinnedCommit).substr(0, 7), url, dir.string(), e.what()));
  }
  std::error_code ignored;
  fs::remove_all(unpacked, ignored);
  datasets::extract_archive(tarball, unpacked, "", wanted);
  const fs::path found = checkout_in(unpacked);
  const std::string digest = found.empty() ? "no registry/ folder" : registry_digest(found / "registry");
  std::string difference;
  if (digest != kPinnedRegistryDigest)
    difference = fmt::format("its registry's content digest is {}, expected {}", digest, kPinnedRegistryDigest);
  else
    difference = audio_evals_difference(found);
  if (!difference.empty()) {
    fs::remove_all(unpacked, ignored);
    fs::remove(tarball, ignored);
    throw Error(ErrorCategory::data, fmt::format("{}: the UltraEval-Audio downloaded is not commit {} ({}); it was discarded",
                                                 url, std::string(kPinnedCommit).substr(0, 7), difference));
  }
  write_file_atomically(layout, "registry, audio_evals\n");
  return found;
}

fs::path uea_root(const fs::path& given) {
  if (!given.empty()) return given;
  if (const char* dir = std::getenv("AEVAL_UEA_DIR"); dir && *dir) return dir;
  return fetch_pinned_uea();
}

}  // namespace aeval::uea
