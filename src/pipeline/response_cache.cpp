#include "pipeline/response_cache.hpp"

#include "util/sha256.hpp"
#include "util/sqlite.hpp"

namespace aeval::pipeline {

ResponseCache::ResponseCache(const std::filesystem::path& file) {
  std::filesystem::create_directories(file.parent_path());
  db_ = std::make_unique<detail::Database>(file);
  db_->exec("CREATE TABLE IF NOT EXISTS responses(key TEXT PRIMARY KEY, response TEXT NOT NULL)");
}

ResponseCache::~ResponseCache() = default;

std::optional<models::Response> ResponseCache::get(const std::string& key) const {
  detail::Statement s(*db_, "SELECT response FROM responses WHERE key = ?");
  s.bind(1, key);
  if (!s.step()) return std::nullopt;
  const auto j = nlohmann::json::parse(s.text(0), nullptr, false);
  if (!j.is_object() || !j.contains("text") || !j["text"].is_string()) return std::nullopt;
  models::Response r;
  r.text = j["text"];
  r.logprobs = j.value("logprobs", nlohmann::json());
  return r;
}

void ResponseCache::put(const std::string& key, const models::Response& response) {
  detail::Statement(*db_, "INSERT OR REPLACE INTO responses(key, response) VALUES(?, ?)")
      .bind(1, key)
      .bind(2, nlohmann::json{{"text", response.text}, {"logprobs", response.logprobs}}.dump(
                   -1, ' ', false, nlohmann::json::error_handler_t::replace))
      .step();
}

std::string ResponseCache::key(const nlohmann::json& model_identity, const std::string& sample_id,
                               const nlohmann::json& request_shape, const std::vector<std::string>& audio_sha256) {
  // The sample id is part of it for models that answer by id.
  nlohmann::json material = {{"model", model_identity}, {"sample", sample_id}, {"request", request_shape}};
  if (!audio_sha256.empty()) material["audio_sha256"] = audio_sha256;
  return sha256_hex(material.dump());
}

std::filesystem::path ResponseCache::default_file() { return cache_dir() / "responses.sqlite"; }

}  // namespace aeval::pipeline
