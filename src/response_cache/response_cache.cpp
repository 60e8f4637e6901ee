#include "response_cache/response_cache.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstdlib>
#include <cstring>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "util/sha256.hpp"
#include "util/sqlite.hpp"

namespace aeval::pipeline {

ResponseCache::ResponseCache(const std::filesystem::path& file) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  db_ = std::make_unique<detail::Database>(file);
  db_->exec("CREATE TABLE IF NOT EXISTS responses(key TEXT PRIMARY KEY, response TEXT NOT NULL)");
  // Embeddings beside their response: the values as little-endian float64, the shape in the response.
  db_->exec("CREATE TABLE IF NOT EXISTS embeddings(key TEXT PRIMARY KEY, data BLOB NOT NULL)");
  // Spoken answers by content: a float32 WAV under its SHA-256, which the response names.
  db_->exec("CREATE TABLE IF NOT EXISTS audio(sha256 TEXT PRIMARY KEY, wav BLOB NOT NULL)");
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
  if (j.contains("audio")) {
    const std::string digest = j["audio"].is_string() ? j["audio"].get<std::string>() : "";
    detail::Statement a(*db_, "SELECT wav FROM audio WHERE sha256 = ?");
    a.bind(1, digest);
    if (!a.step()) return std::nullopt;
    const std::string wav = a.blob(0);
    if (sha256_hex(wav) != digest) return std::nullopt;  // damaged: ask the model again
    try {
      r.audio = decode_audio_bytes(wav, "the cached answer " + digest);
    } catch (const Error&) {
      return std::nullopt;
    }
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
  if (response.audio) {  // the audio first too, stored once however many answers say it
    const std::string wav = encode_wav(*response.audio, WavEncoding::float32);
    stored["audio"] = sha256_hex(wav);
    detail::Statement(*db_, "INSERT OR IGNORE INTO audio(sha256, wav) VALUES(?, ?)")
        .bind(1, stored["audio"].get<std::string>())
        .bind_blob(2, wav)
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

std::size_t ResponseCache::import(const std::filesystem::path& other) {
  if (!std::filesystem::is_regular_file(other))
    throw Error(ErrorCategory::data, fmt::format("{}: no such response cache", other.string()));
  const auto refuse = [&] {
    return Error(ErrorCategory::data, fmt::format("{}: not an aeval response cache", other.string()));
  };
  try {
    detail::Statement(*db_, "ATTACH DATABASE ? AS other").bind(1, other.string()).step();
  } catch (const Error&) {  // not a database at all
    throw refuse();
  }
  struct Detach {
    const detail::Database& db;
    ~Detach() {
      try {
        db.exec("DETACH DATABASE other");
      } catch (const Error&) {  // left attached until the cache closes: harmless
      }
    }
  } detach{*db_};
  {
    detail::Statement tables(*db_, "SELECT count(*) FROM other.sqlite_master WHERE type = 'table' AND name IN "
                                   "('responses', 'embeddings')");
    std::size_t found = 0;
    try {
      found = tables.step() ? std::size_t(tables.integer(0)) : 0;
    } catch (const Error&) {  // not a database at all
    }
    if (found != 2) throw refuse();
  }
  bool has_audio = false;  // caches from before spoken answers have no audio table
  {
    detail::Statement audio(*db_, "SELECT count(*) FROM other.sqlite_master WHERE type = 'table' AND name = 'audio'");
    has_audio = audio.step() && audio.integer(0) == 1;
  }
  db_->exec("BEGIN IMMEDIATE");
  try {
    // Embeddings and audio first, as put() does: a response never lands without them.
    db_->exec("INSERT OR IGNORE INTO embeddings(key, data) SELECT key, data FROM other.embeddings");
    if (has_audio) db_->exec("INSERT OR IGNORE INTO audio(sha256, wav) SELECT sha256, wav FROM other.audio");
    db_->exec("INSERT OR IGNORE INTO responses(key, response) SELECT key, response FROM other.responses");
    const auto added = std::size_t(sqlite3_changes(db_->handle()));
    db_->exec("COMMIT");
    return added;
  } catch (...) {
    db_->exec("ROLLBACK");
    throw;
  }
}

std::filesystem::path ResponseCache::default_file() {
  if (const char* file = std::getenv("AEVAL_RESPONSE_CACHE"); file && *file) return file;
  return cache_dir() / "responses.sqlite";
}

}  // namespace aeval::pipeline
