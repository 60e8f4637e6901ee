#include "pipeline/response_cache.hpp"

#include <bit>
#include <cstring>

#include "util/sha256.hpp"
#include "util/sqlite.hpp"

namespace aeval::pipeline {

ResponseCache::ResponseCache(const std::filesystem::path& file) {
  std::filesystem::create_directories(file.parent_path());
  db_ = std::make_unique<detail::Database>(file);
  db_->exec("CREATE TABLE IF NOT EXISTS responses(key TEXT PRIMARY KEY, response TEXT NOT NULL)");
  // Embeddings beside their response: the values as little-endian float64, the shape in the response.
  db_->exec("CREATE TABLE IF NOT EXISTS embeddings(key TEXT PRIMARY KEY, data BLOB NOT NULL)");
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
  r.scores = j.value("scores", nlohmann::json());
  if (j.contains("embedding")) {
    detail::Statement e(*db_, "SELECT data FROM embeddings WHERE key = ?");
    e.bind(1, key);
    if (!e.step()) return std::nullopt;  // half a response: ask the model again
    const std::string data = e.blob(0);
    NpyArray array;
    array.shape = j["embedding"].value("shape", std::vector<std::size_t>{});
    array.dtype = j["embedding"].value("dtype", "f8");
    std::size_t count = 1;
    for (std::size_t n : array.shape) count *= n;
    if (data.size() != count * sizeof(double)) return std::nullopt;
    array.values.resize(count);
    std::memcpy(array.values.data(), data.data(), data.size());
    r.embedding = std::move(array);
  }
  return r;
}

void ResponseCache::put(const std::string& key, const models::Response& response) {
  nlohmann::json stored{{"text", response.text}, {"logprobs", response.logprobs}};
  if (!response.scores.is_null()) stored["scores"] = response.scores;
  if (response.embedding) {
    static_assert(std::endian::native == std::endian::little, "embeddings are stored little-endian");
    stored["embedding"] = {{"shape", response.embedding->shape}, {"dtype", response.embedding->dtype}};
    const auto& values = response.embedding->values;
    // The embedding first: a response whose embedding is missing reads as absent.
    detail::Statement(*db_, "INSERT OR REPLACE INTO embeddings(key, data) VALUES(?, ?)")
        .bind(1, key)
        .bind_blob(2, std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double)))
        .step();
  }
  detail::Statement(*db_, "INSERT OR REPLACE INTO responses(key, response) VALUES(?, ?)")
      .bind(1, key)
      .bind(2, stored.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
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
