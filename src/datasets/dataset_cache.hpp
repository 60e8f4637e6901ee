#pragma once
// What the cache holds, and which registry datasets use it: each entry's
// source and whether its files are cached (`aeval list datasets`), and what
// takes space, and what nothing uses any more (`aeval cache`). Reads the cache
// only: never the network.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "registry/registry.hpp"

namespace aeval::datasets {

struct DatasetCacheState {
  std::string source;       // where its files come from, in a few words
  std::string state;        // cached, partly cached, not cached, local, missing
  std::uint64_t bytes = 0;  // of its files on disk
};
DatasetCacheState dataset_cache_state(const registry::Registry& registry, const std::string& name);

struct CacheItem {
  std::string what;  // e.g. "hub openslr/librispeech_asr@71cacbfb7e23", "files of dataset NAME", "response cache"
  std::vector<std::filesystem::path> paths;
  std::uint64_t bytes = 0;
  std::vector<std::string> used_by;  // registry datasets that read it
  bool prunable = false;             // dataset files that no registry entry reads
};

// Everything under cache_dir(), largest first within each kind: datasets'
// files (Hub snapshots grouped by the entries that read them; each entry's
// downloads and unpacked archives), then what runs keep (response cache,
// Python environments, tables).
std::vector<CacheItem> survey_cache(const registry::Registry& registry);

// Removes the items' paths; returns the bytes freed.
std::uint64_t remove_cache_items(const std::vector<CacheItem>& items);

}  // namespace aeval::datasets
