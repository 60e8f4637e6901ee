#pragma once
// Tables on disk (Parquet files; CSV/TSV lists) read through DuckDB's C API
// (the official libduckdb, see scripts/vendor_duckdb.sh): the schema, and
// rows streamed one data chunk at a time, so memory stays flat however large
// the files are. DuckDB runs in memory with extension autoloading and
// autoinstalling off: Parquet and CSV are built in, and nothing is ever
// fetched at run time.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aeval::datasets {

struct TableColumn {
  std::string name;
  std::string type;  // DuckDB's spelling: VARCHAR, BIGINT, STRUCT("bytes" BLOB, path VARCHAR), ...
};

// One row of a scan: a value per selected expression, nullopt for NULL.
using TableRow = std::vector<std::optional<std::string>>;
// The same as views into the data chunk that holds them, which `chunk` keeps alive for whoever keeps it.
struct TableRowView {
  std::vector<std::optional<std::string_view>> values;
  std::shared_ptr<const void> chunk;
};

class TableReader {
 public:
  // Parquet files read as one table (the same schema in each). Throws
  // aeval::Error (data) naming the file that is missing, truncated or not Parquet.
  static TableReader parquet(std::vector<std::filesystem::path> files);
  // A delimited text file with a header line, every value read as text,
  // quotes not special (Common Voice's TSV lists quote nothing).
  // `names`: the file has no header line, and these name its columns.
  static TableReader delimited(const std::filesystem::path& file, char delimiter,
                               const std::vector<std::string>& names = {});
  // A CSV file as RFC 4180 writes it: a header line, fields in double quotes
  // where they hold commas, quotes or line breaks; every value read as text.
  static TableReader csv(const std::filesystem::path& file);
  TableReader(TableReader&&) noexcept;
  ~TableReader();
  TableReader(const TableReader&) = delete;
  TableReader& operator=(const TableReader&) = delete;

  const std::vector<TableColumn>& columns() const { return columns_; }
  const TableColumn* column(const std::string& name) const;
  // The position of a column an entry names (`argument`: the entry's argument that names it); a name
  // that is not there is an error (data) naming the file and listing the columns that are.
  std::size_t column_index(const std::string& name, const std::string& argument = "") const;
  std::uint64_t row_count() const;

  // Streams every row in file order. `expressions` are SQL expressions over
  // the columns (`quoted(name)`, `quoted(name) || '.bytes'`, casts...), each of
  // which must give VARCHAR or BLOB; `where`, when not empty, filters rows.
  // `row` is called once per row and may throw to stop the scan.
  void scan(const std::vector<std::string>& expressions, const std::function<void(TableRow&)>& row,
            const std::string& where = "") const;

  // Runs any SQL (over read_parquet(...) and the like: `source()`), streaming
  // its rows; every result column must be VARCHAR or BLOB.
  void query(const std::string& sql, const std::function<void(TableRow&)>& row) const;
  // The same without copying a value: for bytes kept after the scan (audio stored in the file).
  void query_views(const std::string& sql, const std::function<void(const TableRowView&)>& row) const;

  // How many rows DuckDB reads of a column at a time (its vector size, 2,048), whatever a filter asks for.
  static std::uint64_t rows_per_read();

  // read_parquet([...]) or read_csv(...) of the files.
  const std::string& source() const { return source_; }

  // A column name as an SQL identifier, and text as an SQL string literal.
  static std::string quoted(const std::string& name);
  static std::string literal(const std::string& text);

 private:
  struct Connection;
  TableReader(std::vector<std::filesystem::path> files, std::string source, std::string format);


  std::vector<std::filesystem::path> files_;
  std::string source_, format_;
  std::unique_ptr<Connection> connection_;
  std::vector<TableColumn> columns_;
};

// The version of the DuckDB library in use (provenance).
std::string duckdb_version();

}  // namespace aeval::datasets
