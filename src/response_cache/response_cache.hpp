#pragma once
// Model responses keyed by a content hash of (model identity, sample id,
// rendered request, audio bytes), spoken answers with their audio (kept once
// by content, checked by its SHA-256 when read back), in $XDG_CACHE_HOME/aeval/responses.sqlite
// ($AEVAL_RESPONSE_CACHE names another file), so a re-run or a rescore never
// pays twice for the same inference. Safe for several aeval processes of one
// machine at once (SQLite WAL); processes on several machines write caches of
// their own, imported afterwards (the shards of `aeval submit slurm`).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aeval/models/model.hpp"

namespace aeval::detail {
class Database;
}

namespace aeval::pipeline {

class ResponseCache {
 public:
  explicit ResponseCache(const std::filesystem::path& file);
  ~ResponseCache();

  std::optional<models::Response> get(const std::string& key) const;
  void put(const std::string& key, const models::Response& response);
  // Adds the responses of another cache file that this one lacks, in one
  // transaction; returns how many. Throws aeval::Error (data) naming a file
  // that is not a response cache.
  std::size_t import(const std::filesystem::path& other);

  // sha256 over what the model is given: identity, sample id, request shape
  // and the sha256 of each audio input's bytes (never its path, so the same
  // file reached by another spelling, or copied elsewhere, is a hit).
  static std::string key(const nlohmann::json& model_identity, const std::string& sample_id,
                         const nlohmann::json& request_shape, const std::vector<std::string>& audio_sha256);
  static std::filesystem::path default_file();

 private:
  std::unique_ptr<detail::Database> db_;
};

}  // namespace aeval::pipeline
