#pragma once
// Parquet files for tests, written by DuckDB itself (the library aeval reads
// them with): COPY (select) TO path.
#include <filesystem>
#include <map>
#include <string>

namespace aeval::testing {

// Writes the rows of the SQL `select` to `path` as Parquet, `row_group_size`
// rows per row group. Throws std::runtime_error with DuckDB's message (which
// fails the test that called it). Benchmarks use it too.
// `metadata`: key-value pairs for the file's footer (what `datasets` keeps under "huggingface").
void write_parquet(const std::string& select, const std::filesystem::path& path, int row_group_size = 122880,
                   const std::map<std::string, std::string>& metadata = {});

}  // namespace aeval::testing
