#include "pipeline/run_store.hpp"

#include <chrono>
#include <fstream>

#include "util/sqlite.hpp"

namespace aeval::pipeline {

using detail::Statement;

RunStore::RunStore(const std::filesystem::path& file) : db_(std::make_unique<detail::Database>(file)) {
  db_->exec("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  db_->exec("CREATE TABLE IF NOT EXISTS samples(position INTEGER PRIMARY KEY, id TEXT NOT NULL, failed INTEGER NOT NULL, "
            "record TEXT NOT NULL, inputs TEXT NOT NULL DEFAULT '')");
  // A store written before samples kept their inputs' fingerprint gets the column, empty.
  Statement has_inputs(*db_, "SELECT COUNT(*) FROM pragma_table_info('samples') WHERE name = 'inputs'");
  if (has_inputs.step() && has_inputs.integer(0) == 0)
    db_->exec("ALTER TABLE samples ADD COLUMN inputs TEXT NOT NULL DEFAULT ''");
  db_->exec("CREATE TABLE IF NOT EXISTS log(seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL)");
}

RunStore::~RunStore() = default;

const std::filesystem::path& RunStore::file() const { return db_->file(); }

void RunStore::set_meta(const std::string& key, const nlohmann::json& value) {
  Statement(*db_, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)").bind(1, key).bind(2, value.dump()).step();
}

std::optional<nlohmann::json> RunStore::meta(const std::string& key) const {
  Statement s(*db_, "SELECT value FROM meta WHERE key = ?");
  s.bind(1, key);
  if (!s.step()) return std::nullopt;
  return nlohmann::json::parse(s.text(0));
}

void RunStore::put_samples(const std::vector<std::pair<std::size_t, StoredSample>>& samples) {
  if (samples.empty()) return;
  db_->exec("BEGIN IMMEDIATE");
  try {
    Statement put(*db_, "INSERT OR REPLACE INTO samples(position, id, failed, record, inputs) VALUES(?, ?, ?, ?, ?)");
    for (const auto& [position, sample] : samples) {
      put.bind(1, static_cast<long long>(position))
          .bind(2, sample.id)
          .bind(3, sample.failed ? 1LL : 0LL)
          .bind(4, sample.record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
          .bind(5, sample.inputs)
          .step();
      put.reset();
    }
    db_->exec("COMMIT");
  } catch (...) {
    db_->exec("ROLLBACK");
    throw;
  }
}

std::map<std::size_t, StoredSample> RunStore::samples() const {
  std::map<std::size_t, StoredSample> out;
  Statement s(*db_, "SELECT position, id, failed, record, inputs FROM samples ORDER BY position");
  while (s.step())
    out[std::size_t(s.integer(0))] =
        StoredSample{s.text(1), nlohmann::json::parse(s.text(3)), s.integer(2) != 0, s.text(4)};
  return out;
}

RunStore::Counts RunStore::counts() const {
  Statement s(*db_, "SELECT COUNT(*), COALESCE(SUM(failed != 0), 0) FROM samples");
  s.step();
  return {std::size_t(s.integer(0)), std::size_t(s.integer(1))};
}

void RunStore::log(const nlohmann::json& event) {
  nlohmann::json e = event;
  e["time"] = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  // Events carry what models wrote (stderr lines, stray output): any bytes, not always UTF-8.
  const std::string line = e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  Statement(*db_, "INSERT INTO log(event) VALUES(?)").bind(1, line).step();
  std::ofstream(db_->file().parent_path() / "run.log", std::ios::app) << line << '\n';
}

}  // namespace aeval::pipeline
