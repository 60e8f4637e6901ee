#include "util/sqlite.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstring>

#include "aeval/error.hpp"

namespace aeval::detail {

namespace {

// A file URI for SQLite: every byte but unreserved ones and '/' percent-encoded.
std::string file_uri(const std::filesystem::path& file) {
  std::string uri = "file:";
  for (const unsigned char c : file.string())
    uri += std::isalnum(c) || std::strchr("/-._~", c) ? std::string(1, char(c)) : fmt::format("%{:02X}", c);
  return uri;
}

}  // namespace

Database::Database(const std::filesystem::path& file, Access access) : file_(file) {
  std::string name = file.string();
  int mode = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (access == Access::read_only) {
    mode = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    // Reading a WAL database creates its -wal and -shm files unless it is opened as immutable; with no
    // -wal file no writer has it open, so it is read as immutable and nothing is created next to it.
    // (A writer that starts meanwhile may make that one read fail or see the store as it was.)
    std::error_code error;
    name = file_uri(file) + (std::filesystem::exists(name + "-wal", error) ? "" : "?immutable=1");
  }
  if (sqlite3_open_v2(name.c_str(), &db_, mode | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw Error(ErrorCategory::data, fmt::format("{}: cannot open the database: {}", file.string(), message));
  }
  sqlite3_busy_timeout(db_, 10000);
  if (access == Access::read_only) return;
  try {
    exec("PRAGMA journal_mode=WAL");
    // NORMAL in WAL mode survives any process death; only a power cut can lose the last commits.
    exec("PRAGMA synchronous=NORMAL");
  } catch (...) {  // a constructor that throws runs no destructor: close here (a store another process is creating)
    sqlite3_close(db_);
    throw;
  }
}

Database::~Database() { sqlite3_close(db_); }

void Database::exec(const std::string& sql) const {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    fail(fmt::format("{} ({})", text, sql));
  }
}

void Database::fail(const std::string& what) const {
  throw Error(ErrorCategory::data, fmt::format("{}: database error: {}", file_.string(), what));
}

Statement::Statement(const Database& db, const char* sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql, -1, &stmt_, nullptr) != SQLITE_OK) db.fail(sqlite3_errmsg(db.handle()));
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int index, const std::string& text) {
  sqlite3_bind_text(stmt_, index, text.data(), int(text.size()), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::bind_blob(int index, const std::string& bytes) {
  sqlite3_bind_blob(stmt_, index, bytes.data(), int(bytes.size()), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::bind(int index, long long value) {
  sqlite3_bind_int64(stmt_, index, value);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) db_.fail(sqlite3_errmsg(db_.handle()));
  return false;
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string Statement::text(int column) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  return p ? std::string(p, std::size_t(sqlite3_column_bytes(stmt_, column))) : std::string();
}

std::string Statement::blob(int column) const {
  const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, column));
  return p ? std::string(p, std::size_t(sqlite3_column_bytes(stmt_, column))) : std::string();
}

long long Statement::integer(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }

bool Statement::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

}  // namespace aeval::detail
