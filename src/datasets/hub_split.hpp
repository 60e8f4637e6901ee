#pragma once
// One split of a Hub dataset as Parquet files in the local cache: resolved
// through the Hub's API once per commit, downloaded once, verified.
//
// Cache layout, under dataset_cache_dir()/hub/OWNER--NAME/:
//   refs/REVISION                    the commit a branch or tag last resolved to
//   snapshots/COMMIT/PATH            the repository's files at that commit
//   snapshots/COMMIT/.aeval/CONFIG/SPLIT.json   which files make the split
// A pinned commit, or any revision with HF_HUB_OFFLINE set, starts from the
// cache with no network at all.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "registry/args.hpp"

namespace aeval::datasets {

struct HubSplitRequest {
  // split "": every split of the config, one after the other, as `datasets` loads a config when no
  // split is named (only where the order is known: the README declares it, or there is one split).
  std::string repo, config = "default", split = "test", revision = "main", token_env = "HF_TOKEN";
  std::string prefetch_hint;  // how to fill the cache elsewhere (names the registry entry)
};

struct HubSplit {
  std::string commit;                          // of the repository
  std::string source;                          // "repository" or "parquet conversion"
  std::string source_commit;                   // the commit the files come from (the conversion branch's)
  std::vector<std::filesystem::path> files;    // local, in split order
  std::vector<std::string> repository_paths;   // the same files in the repository
};

// Throws aeval::Error: network (unreachable, gated, offline without a cache)
// and data (no such config or split: names the ones there are).
HubSplit fetch_hub_split(const HubSplitRequest& request);

// Files of the repository that a split's rows name by path (audio kept apart from the Parquet files, which
// hold only its path: `datasets`' Audio feature without bytes), relative to the repository's root, fetched
// at `commit` into the same snapshot and verified against the Hub's listing; local paths in the order given,
// empty for a path the listing does not hold (one outside the repository never is). Throws aeval::Error (network).
// With `unfetched`, a listed file that cannot be downloaded fails alone instead: its local path is given all the
// same, and (*unfetched)[k] says why ("" for the others).
std::vector<std::filesystem::path> fetch_hub_repository_files(const HubSplitRequest& request, const std::string& commit,
                                                              const std::vector<std::string>& paths,
                                                              std::vector<std::string>* unfetched = nullptr);

// The Hub splits an entry of a dataset class reads, as the class declares them in its own file
// (`huggingface`: its one split; `audiocapbench`: its four sources), so that `aeval list datasets`,
// `aeval cache` and `aeval fetch dataset --all` know them without naming classes. None for a class that
// declares nothing.
using HubSplitsOf = std::function<std::vector<HubSplitRequest>(const registry::Args& args)>;
struct HubSplitsDeclaration {
  HubSplitsDeclaration(const std::string& class_id, HubSplitsOf splits);
};
std::vector<HubSplitRequest> hub_splits_read(const registry::Args& args);

// The cache folder of one repository.
std::filesystem::path hub_cache_dir(const std::string& repo);

// What the cache holds of a split, looked up without any network: the commit
// the revision last resolved to, the split's file list, and its files (the
// audio files its rows name too) with the sizes they must have. Empty when the
// revision or the list is not cached.
struct CachedHubSplit {
  std::string commit;
  std::filesystem::path file_list;  // snapshots/COMMIT/.aeval/CONFIG/SPLIT.json
  std::filesystem::path audio_list;  // SPLIT.audio.json beside it, when its rows name audio files ("": none)
  std::vector<std::pair<std::filesystem::path, std::uint64_t>> files;  // size 0: not published
};
std::optional<CachedHubSplit> cached_hub_split(const HubSplitRequest& request);

}  // namespace aeval::datasets
