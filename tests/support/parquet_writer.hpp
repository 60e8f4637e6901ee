#pragma once
// Parquet files for tests, written by DuckDB itself (the library aeval reads
// them with): COPY (select) TO path.
#include <filesystem>
#include <string>

namespace aeval::testing {

// Writes the rows of the SQL `select` to `path` as Parquet, `row_group_size`
// rows per row group. Throws std::runtime_error with DuckDB's message (which
// fails the test that called it). Benchmarks use it too.
void write_parquet(const std::string& select, const std::filesystem::path& path, int row_group_size = 122880);

}  // namespace aeval::testing
