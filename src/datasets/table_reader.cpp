#include "datasets/table_reader.hpp"

#include <duckdb.h>
#include <fmt/format.h>

#include <memory>
#include <mutex>

#include "aeval/error.hpp"

namespace aeval::datasets {

namespace {

struct Statement {
  duckdb_prepared_statement statement = nullptr;
  ~Statement() { duckdb_destroy_prepare(&statement); }
};
struct Pending {
  duckdb_pending_result pending = nullptr;
  ~Pending() { duckdb_destroy_pending(&pending); }
};
struct Result {
  duckdb_result result{};
  ~Result() { duckdb_destroy_result(&result); }
};

struct Database {
  duckdb_database database = nullptr;
  ~Database() { duckdb_close(&database); }
};

// One database serves every table of the process, each through a connection of its own: starting one
// builds DuckDB's catalog of functions, milliseconds a table would pay again. It is never closed: it holds
// nothing to write back, and tearing its catalog down at exit took as long again.
std::shared_ptr<Database> shared_database() {
  static std::mutex mutex;
  static auto& shared = *new std::shared_ptr<Database>;
  const std::lock_guard lock(mutex);
  if (shared) return shared;
  duckdb_config config = nullptr;
  if (duckdb_create_config(&config) == DuckDBError) throw Error(ErrorCategory::internal, "DuckDB: cannot create a configuration");
  // Nothing is fetched at run time: Parquet is built into the library.
  duckdb_set_config(config, "autoload_known_extensions", "false");
  duckdb_set_config(config, "autoinstall_known_extensions", "false");
  // A scan runs on the thread that asks for it, alone: samples are decoded in parallel by the runner's workers
  // already, and a scan per thread multiplies the buffers DuckDB holds (measured in bench/README.md).
  duckdb_set_config(config, "threads", "1");
  auto database = std::make_shared<Database>();
  char* error = nullptr;
  const duckdb_state opened = duckdb_open_ext(nullptr, &database->database, config, &error);
  duckdb_destroy_config(&config);
  if (opened == DuckDBError) {
    const std::string message = error ? error : "unknown error";
    duckdb_free(error);
    throw Error(ErrorCategory::internal, "DuckDB: cannot start: " + message);
  }
  // Audio is read a window of rows at a time, each a query of the same file: its footer is parsed once. (A
  // setting of the Parquet reader: the configuration above does not know it yet, a connection can set it.)
  duckdb_connection connection = nullptr;
  Result set;
  const bool configured = duckdb_connect(database->database, &connection) != DuckDBError &&
                          duckdb_query(connection, "SET GLOBAL parquet_metadata_cache = true", &set.result) != DuckDBError;
  duckdb_disconnect(&connection);
  if (!configured) throw Error(ErrorCategory::internal, "DuckDB: cannot cache Parquet footers");
  return shared = database;
}

}  // namespace

struct TableReader::Connection {
  std::shared_ptr<Database> database = shared_database();  // outlives the connection
  duckdb_connection connection = nullptr;
  ~Connection() {
    if (connection) duckdb_disconnect(&connection);
  }
};

TableReader TableReader::parquet(std::vector<std::filesystem::path> files) {
  if (files.empty()) throw Error(ErrorCategory::config, "a Parquet table needs at least one file");
  std::string list;
  for (const auto& file : files) list += (list.empty() ? "" : ", ") + literal(file.string());
  return TableReader(std::move(files), "read_parquet([" + list + "])", "Parquet");
}

TableReader TableReader::delimited(const std::filesystem::path& file, char delimiter,
                                   const std::vector<std::string>& names) {
  std::string options = fmt::format(
      "delim = {}, header = {}, all_varchar = true, quote = '', escape = '', null_padding = false, "
      "strict_mode = true",
      literal(std::string(1, delimiter)), names.empty() ? "true" : "false");
  if (!names.empty()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + literal(n);
    options += ", names = [" + list + "]";
  }
  return TableReader({file}, "read_csv(" + literal(file.string()) + ", " + options + ")", "a delimited list");
}

TableReader TableReader::csv(const std::filesystem::path& file) {
  return TableReader({file},
                     "read_csv(" + literal(file.string()) +
                         ", delim = ',', header = true, all_varchar = true, quote = '\"', escape = '\"', "
                         "null_padding = false, strict_mode = true)",
                     "CSV");
}

TableReader::TableReader(std::vector<std::filesystem::path> files, std::string source, std::string format)
    : files_(std::move(files)), source_(std::move(source)), format_(std::move(format)),
      connection_(std::make_unique<Connection>()) {
  for (const auto& file : files_) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error))
      throw Error(ErrorCategory::data, file.string() + ": no such file");
  }
  if (duckdb_connect(connection_->database->database, &connection_->connection) == DuckDBError)
    throw Error(ErrorCategory::internal, "DuckDB: cannot connect");
  query("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM " + source_ + ")",
           [&](TableRow& row) { columns_.push_back({row[0].value_or(""), row[1].value_or("")}); });
}

TableReader::~TableReader() = default;
TableReader::TableReader(TableReader&&) noexcept = default;

const TableColumn* TableReader::column(const std::string& name) const {
  for (const auto& c : columns_)
    if (c.name == name) return &c;
  return nullptr;
}

std::size_t TableReader::column_index(const std::string& name, const std::string& argument) const {
  for (std::size_t i = 0; i < columns_.size(); ++i)
    if (columns_[i].name == name) return i;
  std::string names;
  for (const auto& c : columns_) names += (names.empty() ? "" : ", ") + c.name;
  throw Error(ErrorCategory::data, fmt::format("{}: no column '{}'{}; its columns are: {}", files_.front().string(), name,
                                               argument.empty() ? "" : " (" + argument + ")", names));
}

std::uint64_t TableReader::row_count() const {
  std::uint64_t count = 0;
  query("SELECT CAST(count(*) AS VARCHAR) FROM " + source(),
           [&](TableRow& row) { count = std::stoull(row[0].value_or("0")); });
  return count;
}

void TableReader::scan(const std::vector<std::string>& expressions, const std::function<void(TableRow&)>& row,
                        const std::string& where) const {
  std::string sql = "SELECT ";
  for (std::size_t i = 0; i < expressions.size(); ++i) sql += (i ? ", " : "") + expressions[i];
  sql += " FROM " + source();
  if (!where.empty()) sql += " WHERE " + where;
  query(sql, row);
}

std::uint64_t TableReader::rows_per_read() { return duckdb_vector_size(); }

std::string TableReader::quoted(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string TableReader::literal(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

void TableReader::query(const std::string& sql, const std::function<void(TableRow&)>& row) const {
  TableRow values;
  query_views(sql, [&](const TableRowView& view) {
    values.resize(view.values.size());
    for (std::size_t c = 0; c < values.size(); ++c)
      if (view.values[c])
        values[c].emplace(*view.values[c]);
      else
        values[c].reset();
    row(values);
  });
}

void TableReader::query_views(const std::string& sql, const std::function<void(const TableRowView&)>& row) const {
  const auto fail = [&](const char* message) {
    // DuckDB's first line says what is wrong; the lines after it quote aeval's own SQL.
    std::string first_line = message ? message : "unknown error";
    first_line = first_line.substr(0, first_line.find('\n'));
    throw Error(ErrorCategory::data,
                fmt::format("cannot read {} ({}): {}", format_,
                            files_.size() == 1 ? files_[0].string() : fmt::format("{} files", files_.size()), first_line));
  };
  Statement statement;
  if (duckdb_prepare(connection_->connection, sql.c_str(), &statement.statement) == DuckDBError)
    fail(duckdb_prepare_error(statement.statement));
  Pending pending;
  if (duckdb_pending_prepared_streaming(statement.statement, &pending.pending) == DuckDBError)
    fail(duckdb_pending_error(pending.pending));
  Result result;
  if (duckdb_execute_pending(pending.pending, &result.result) == DuckDBError) fail(duckdb_result_error(&result.result));
  const idx_t width = duckdb_column_count(&result.result);
  for (idx_t c = 0; c < width; ++c) {
    duckdb_logical_type type = duckdb_column_logical_type(&result.result, c);
    const duckdb_type id = duckdb_get_type_id(type);
    duckdb_destroy_logical_type(&type);
    if (id != DUCKDB_TYPE_VARCHAR && id != DUCKDB_TYPE_BLOB)
      throw Error(ErrorCategory::internal, fmt::format("Parquet scan: column {} of `{}` is neither text nor bytes", c, sql));
  }
  TableRowView view{std::vector<std::optional<std::string_view>>(width), nullptr};
  while (true) {
    // The chunk owns its values (and the pages they point into): it lives while a view of it is held.
    std::shared_ptr<duckdb_data_chunk> chunk(new duckdb_data_chunk(duckdb_fetch_chunk(result.result)),
                                             [](duckdb_data_chunk* c) {
                                               duckdb_destroy_data_chunk(c);
                                               delete c;
                                             });
    if (!*chunk) break;
    const idx_t size = duckdb_data_chunk_get_size(*chunk);
    if (size == 0) break;
    std::vector<duckdb_string_t*> data(width);
    std::vector<uint64_t*> validity(width);
    for (idx_t c = 0; c < width; ++c) {
      duckdb_vector vector = duckdb_data_chunk_get_vector(*chunk, c);
      data[c] = static_cast<duckdb_string_t*>(duckdb_vector_get_data(vector));
      validity[c] = duckdb_vector_get_validity(vector);
    }
    view.chunk = chunk;
    for (idx_t r = 0; r < size; ++r) {
      for (idx_t c = 0; c < width; ++c) {
        if (validity[c] && !duckdb_validity_row_is_valid(validity[c], r)) {
          view.values[c].reset();
        } else {
          duckdb_string_t& value = data[c][r];
          view.values[c].emplace(duckdb_string_t_data(&value), duckdb_string_t_length(value));
        }
      }
      row(view);
    }
  }
  if (const char* error = duckdb_result_error(&result.result)) fail(error);
}

std::string duckdb_version() { return duckdb_library_version(); }

}  // namespace aeval::datasets
