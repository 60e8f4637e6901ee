#pragma once
// Where aeval finds UltraEval-Audio's registry: a checkout named by --uea-dir or
// $AEVAL_UEA_DIR, else the pinned commit, downloaded once like a dataset (GitHub's
// tarball of that commit, $AEVAL_UEA_URL for a mirror), unpacked into the cache and
// checked by content: the digest of its registry files must be the pinned one, and each
// file of its audio_evals/ the commit's own (git's blob ids in uea_pinned_files.txt).
#include <filesystem>
#include <string>

namespace aeval::uea {

inline constexpr const char* kPinnedCommit = "9b69da645d53cbc90b30179339a1dce7f0117b42";
// sha256 of `find registry -type f | LC_ALL=C sort | xargs sha256sum` at that commit.
inline constexpr const char* kPinnedRegistryDigest = "abb0fa5ab9715c0fcdfd0feba47ce01b5993e09f31ef0f6fabea6dbf428b2eac";

// The tarball's address: $AEVAL_UEA_URL, else codeload.github.com's tarball of kPinnedCommit.
std::string pinned_tarball_url();
// cache_dir()/uea/<commit>: the tarball and what is unpacked from it.
std::filesystem::path pinned_cache_dir();

// The digest above for any registry folder (its files as sha256sum lists them, sorted by path).
std::string registry_digest(const std::filesystem::path& registry_dir);

// The pinned checkout in the cache, downloaded, unpacked and verified when it is not
// there yet (registry/, audio_evals/ without its vendored lib/, LICENSE). Throws
// aeval::Error: network with one line naming the URL, the cache folder and what to do
// when it cannot be downloaded; data when the content differs from the pinned commit's.
std::filesystem::path fetch_pinned_uea();

// The UEA folder to use: `given` (--uea-dir) when not empty, else $AEVAL_UEA_DIR, else
// the pinned download.
std::filesystem::path uea_root(const std::filesystem::path& given);

}  // namespace aeval::uea
