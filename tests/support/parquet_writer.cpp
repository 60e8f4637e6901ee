#include "support/parquet_writer.hpp"

#include <duckdb.h>

#include <stdexcept>

#include "datasets/table_reader.hpp"

namespace aeval::testing {

void write_parquet(const std::string& select, const std::filesystem::path& path, int row_group_size,
                   const std::map<std::string, std::string>& metadata) {
  duckdb_database database = nullptr;
  duckdb_connection connection = nullptr;
  if (duckdb_open(nullptr, &database) == DuckDBError || duckdb_connect(database, &connection) == DuckDBError)
    throw std::runtime_error("DuckDB did not start");
  duckdb_result result;
  std::string kv;
  for (const auto& [key, value] : metadata)
    kv += (kv.empty() ? "" : ", ") + datasets::TableReader::quoted(key) + ": " + datasets::TableReader::literal(value);
  const std::string sql = "COPY (" + select + ") TO " + datasets::TableReader::literal(path.string()) +
                          " (FORMAT parquet, ROW_GROUP_SIZE " + std::to_string(row_group_size) +
                          (kv.empty() ? "" : ", KV_METADATA {" + kv + "}") + ")";
  const bool failed = duckdb_query(connection, sql.c_str(), &result) == DuckDBError;
  const std::string error = failed && duckdb_result_error(&result) ? duckdb_result_error(&result) : "";
  duckdb_destroy_result(&result);
  duckdb_disconnect(&connection);
  duckdb_close(&database);
  if (failed) throw std::runtime_error("writing " + path.string() + ": " + error);
}

}  // namespace aeval::testing
