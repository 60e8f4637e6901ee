#pragma once
// Parquet files read through DuckDB's C API (the official libduckdb, see
// scripts/vendor_duckdb.sh): the schema, and rows streamed one data chunk at
// a time, so memory stays flat however large the files are. DuckDB runs
// in memory with extension autoloading and autoinstalling off: Parquet is
// built in, and nothing is ever fetched at run time.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace aeval::datasets {

struct ParquetColumn {
  std::string name;
  std::string type;  // DuckDB's spelling: VARCHAR, BIGINT, STRUCT("bytes" BLOB, path VARCHAR), ...
};

// One row of a scan: a value per selected expression, nullopt for NULL.
using ParquetRow = std::vector<std::optional<std::string>>;

class ParquetTable {
 public:
  // The files are read as one table (the same schema in each). Throws
  // aeval::Error (data) naming the file that is missing, truncated or not Parquet.
  explicit ParquetTable(std::vector<std::filesystem::path> files);
  ~ParquetTable();
  ParquetTable(const ParquetTable&) = delete;
  ParquetTable& operator=(const ParquetTable&) = delete;

  const std::vector<ParquetColumn>& columns() const { return columns_; }
  const ParquetColumn* column(const std::string& name) const;
  std::uint64_t row_count() const;

  // Streams every row in file order. `expressions` are SQL expressions over
  // the columns (`quoted(name)`, `quoted(name) || '.bytes'`, casts...), each of
  // which must give VARCHAR or BLOB; `where`, when not empty, filters rows.
  // `row` is called once per row and may throw to stop the scan.
  void scan(const std::vector<std::string>& expressions, const std::function<void(ParquetRow&)>& row,
            const std::string& where = "") const;

  // A column name as an SQL identifier, and text as an SQL string literal.
  static std::string quoted(const std::string& name);
  static std::string literal(const std::string& text);

 private:
  struct Connection;
  std::string source() const;  // read_parquet([...]) of the files
  void scan_sql(const std::string& sql, const std::function<void(ParquetRow&)>& row) const;

  std::vector<std::filesystem::path> files_;
  std::unique_ptr<Connection> connection_;
  std::vector<ParquetColumn> columns_;
};

// The version of the DuckDB library in use (provenance).
std::string duckdb_version();

}  // namespace aeval::datasets
