// The `huggingface` key-value metadata of a Hub Parquet file, where `datasets`
// keeps the names of a ClassLabel column, and the SQL that reads the column
// through them: run in DuckDB on labels -1..N, label i must read as names[i]
// and -1 or one out of range as NULL, whatever the names and the column's name
// hold (quotes, brackets, any text: the SQL's quoting is what is tested).
#include <cstdlib>
#include <optional>
#include <string>

#include "aeval/error.hpp"
#include "datasets/class_labels.hpp"
#include "input_file.hpp"
#include "support/parquet_writer.hpp"

namespace {

const aeval::datasets::TableReader& any_table() {
  static const aeval::datasets::TableReader table = [] {
    const auto file = aeval::fuzz::scratch_dir() / "one.parquet";
    aeval::testing::write_parquet("SELECT 1 AS x", file);
    return aeval::datasets::TableReader::parquet({file});
  }();
  return table;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string metadata(reinterpret_cast<const char*>(data), size);
  const auto labels = aeval::datasets::class_labels_in_metadata(metadata);
  using aeval::datasets::TableReader;
  for (const auto& [column, names] : labels) {
    if (column.find('\0') != std::string::npos) continue;  // not a name a Parquet column can have
    const long count = long(names.size());
    std::vector<std::optional<std::string>> read;
    try {
      any_table().query("SELECT " + aeval::datasets::column_value_sql(column, labels) + " FROM (SELECT i AS " +
                            TableReader::quoted(column) + ", i AS " + TableReader::quoted(column + "_") +
                            " FROM range(-1, " + std::to_string(count + 2) + ") AS t(i)) ORDER BY " +
                            TableReader::quoted(column + "_"),
                        [&](aeval::datasets::TableRow& row) { read.push_back(row[0]); });
    } catch (const aeval::Error&) {
      // DuckDB refuses some (an empty column name, a NUL in a name): an error, never a misread label.
      continue;
    }
    if (read.size() != std::size_t(count + 3)) std::abort();
    for (long i = -1; i <= count + 1; ++i) {
      const auto& value = read[std::size_t(i + 1)];
      if (i < 0 || i >= count ? value.has_value() : value != names[std::size_t(i)]) std::abort();
    }
    if (names.size() > 64) break;  // enough for one input
  }
  return 0;
}
