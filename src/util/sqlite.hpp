#pragma once
// A thin RAII layer over SQLite for aeval's stores (run store, response
// cache): WAL mode, a busy timeout for concurrent processes, and errors that
// name the database file. Readers that must never write (aeval view) open
// a store read-only.
#include <sqlite3.h>

#include <filesystem>
#include <string>

namespace aeval::detail {

class Database {
 public:
  enum class Access { read_write, read_only };
  // read_write creates the file and sets WAL mode; read_only neither creates nor changes anything.
  explicit Database(const std::filesystem::path& file, Access access = Access::read_write);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void exec(const std::string& sql) const;
  [[noreturn]] void fail(const std::string& what) const;
  sqlite3* handle() const { return db_; }
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
};

class Statement {
 public:
  Statement(const Database& db, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, const std::string& text);
  Statement& bind(int index, long long value);
  Statement& bind_blob(int index, const std::string& bytes);
  bool step();  // true while rows come
  void reset();  // ready to run again, with new bindings
  std::string text(int column) const;
  std::string blob(int column) const;
  long long integer(int column) const;
  double real(int column) const;
  bool is_null(int column) const;

 private:
  const Database& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace aeval::detail
