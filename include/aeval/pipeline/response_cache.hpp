#pragma once
// Model responses keyed by a content hash of (model identity, rendered
// request, audio bytes), in $XDG_CACHE_HOME/aeval/responses.sqlite, so a
// re-run or a rescore never pays twice for the same inference. Safe for
// several aeval processes at once (SQLite WAL).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

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

  // sha256 over the model identity, the request shape and each audio file's bytes.
  static std::string key(const nlohmann::json& model_identity, const nlohmann::json& request_shape,
                         const std::vector<std::filesystem::path>& audio);
  static std::filesystem::path default_file();

 private:
  std::unique_ptr<detail::Database> db_;
};

}  // namespace aeval::pipeline
