#include "run/run_store.hpp"

#include <chrono>
#include <fstream>

#include <fmt/format.h>

#include "aeval/error.hpp"
#include "util/sqlite.hpp"

namespace aeval::pipeline {

std::filesystem::path session_lock_file(const std::filesystem::path& run_dir) { return run_dir / ".session.lock"; }

using detail::Statement;

namespace {

// The JSON path of a score's value in a record; the name is quoted, so any name is one key.
std::string score_path(const std::string& score) {
  nlohmann::json quoted = score;
  return "$.scores." + quoted.dump() + ".value";
}

StoredSample stored(const Statement& s, int first) {
  return StoredSample{s.text(first), nlohmann::json::parse(s.text(first + 2)), s.integer(first + 1) != 0,
                      s.text(first + 3)};
}

}  // namespace

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

RunStore::RunStore(std::unique_ptr<detail::Database> db) : db_(std::move(db)) {}

RunStore RunStore::read_only(const std::filesystem::path& file) {
  if (!std::filesystem::is_regular_file(file))
    throw Error(ErrorCategory::data, fmt::format("{}: no run store (run.sqlite) here", file.string()));
  return RunStore(std::make_unique<detail::Database>(file, detail::Database::Access::read_only));
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

std::map<std::size_t, RunStore::State> RunStore::states() const {
  std::map<std::size_t, State> out;
  Statement s(*db_, "SELECT position, id, failed, inputs FROM samples ORDER BY position");
  while (s.step()) out[std::size_t(s.integer(0))] = State{s.text(1), s.integer(2) != 0, s.text(3)};
  return out;
}

void RunStore::each_sample(
    const std::function<void(std::size_t, StoredSample, const std::string& text)>& visit) const {
  Statement s(*db_, "SELECT position, id, failed, record, inputs FROM samples ORDER BY position");
  while (s.step()) {
    const std::string text = s.text(3);
    visit(std::size_t(s.integer(0)), StoredSample{s.text(1), nlohmann::json::parse(text), s.integer(2) != 0, s.text(4)},
          text);
  }
}

RunStore::Counts RunStore::counts() const {
  Statement s(*db_, "SELECT COUNT(*), COALESCE(SUM(failed != 0), 0) FROM samples");
  s.step();
  return {std::size_t(s.integer(0)), std::size_t(s.integer(1))};
}

RunStore::Page RunStore::page(const Query& q) const {
  // Filters are bound parameters (?1 … ?3), so any text is safe in them.
  std::string where = "WHERE 1";
  if (q.failed_only) where += " AND failed != 0";
  if (!q.contains.empty()) where += " AND (instr(id, ?1) > 0 OR instr(COALESCE(json_extract(record, '$.prediction'), ''), ?1) > 0)";
  if (!q.field.empty()) where += " AND CAST(json_extract(record, ?2) AS TEXT) = ?3";
  const auto bind = [&](Statement& s) {
    if (!q.contains.empty()) s.bind(1, q.contains);
    if (!q.field.empty()) {
      nlohmann::json quoted = q.field;
      s.bind(2, "$.fields." + quoted.dump()).bind(3, q.field_value);
    }
  };
  Page page;
  Statement count(*db_, ("SELECT COUNT(*) FROM samples " + where).c_str());
  bind(count);
  if (count.step()) page.total = std::size_t(count.integer(0));
  // Samples without the score sort last either way; ties keep dataset order.
  const std::string order = q.sort_score.empty()
                                ? "position"
                                : std::string("json_extract(record, ?4) IS NULL, json_extract(record, ?4) ") +
                                      (q.descending ? "DESC" : "ASC") + ", position";
  Statement s(*db_, ("SELECT position, id, failed, record, inputs FROM samples " + where + " ORDER BY " + order +
                     " LIMIT ?5 OFFSET ?6")
                        .c_str());
  bind(s);
  if (!q.sort_score.empty()) s.bind(4, score_path(q.sort_score));
  s.bind(5, static_cast<long long>(q.limit)).bind(6, static_cast<long long>(q.offset));
  while (s.step()) page.samples.emplace_back(std::size_t(s.integer(0)), stored(s, 1));
  return page;
}

std::optional<StoredSample> RunStore::sample_at(std::size_t position) const {
  Statement s(*db_, "SELECT id, failed, record, inputs FROM samples WHERE position = ?");
  s.bind(1, static_cast<long long>(position));
  if (!s.step()) return std::nullopt;
  return stored(s, 0);
}

std::vector<std::pair<std::string, std::optional<double>>> RunStore::score_values(const std::string& score) const {
  std::vector<std::pair<std::string, std::optional<double>>> out;
  Statement s(*db_, "SELECT id, json_extract(record, ?) FROM samples ORDER BY position");
  s.bind(1, score_path(score));
  while (s.step()) out.emplace_back(s.text(0), s.is_null(1) ? std::nullopt : std::optional<double>(s.real(1)));
  return out;
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
