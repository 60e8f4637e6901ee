#pragma once
// Where a dataset class's files are: a local `path`, or a `url` with its
// `sha256` fetched through the download cache; an archive (either way) is
// unpacked once into the cache, and `member` names what to read inside it.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "registry/args.hpp"

namespace aeval::datasets {

struct SourceLocation {
  std::filesystem::path path;  // the file or folder to read
  nlohmann::json description;  // path or url and sha256, and the extracted folder: for provenance
};

// The arguments `path`, `url`, `sha256` and `member`; `what` says what `path` names.
std::vector<registry::ArgSpec> source_args(const std::string& what);

// Where an entry's downloads and unpacked archives are kept: dataset_cache_dir()/ENTRY.
std::filesystem::path source_cache_dir(const std::string& entry);
// Where the file at `url` with content `sha256` is kept once downloaded for
// `entry`: in a folder named by its digest, so that an entry pinned to other
// bytes (a new release under the same name) never reads the old file.
std::filesystem::path downloaded_file(const std::string& entry, const std::string& url, const std::string& sha256);
// Fetches that file once (verified against `sha256`); a network error says how to fetch it elsewhere
// (`aeval fetch KIND ENTRY`: the entry is a dataset's, or a prompt's).
std::filesystem::path download_pinned(const std::string& entry, const std::string& url, const std::string& sha256,
                                      const std::string& kind = "dataset");

// The entry's `audio_dir`, where its audio is when it is not beside its list (a
// list downloaded from one place, audio published in another); `beside` (the
// list's folder, or empty for the class's own rule) when not given. For a
// downloaded list `missing` then says how to give it (Dataset::audio_dir_missing).
std::filesystem::path audio_dir_arg(const registry::Args& args, const std::filesystem::path& beside, std::string& missing);

// Downloads and unpacks as needed. Throws aeval::Error: config (naming the
// entry) for a missing or ambiguous source, data for a missing member.
SourceLocation locate_source(const registry::Args& args);

}  // namespace aeval::datasets
