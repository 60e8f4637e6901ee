// Parquet files as the `huggingface` dataset class reads them (TableReader:
// schema, then every column of every row as text, as rows become samples),
// through DuckDB. DuckDB itself is not instrumented: this finds what aeval
// does with what DuckDB makes of a hostile file.
#include "aeval/error.hpp"
#include "datasets/table_reader.hpp"
#include "input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const auto path = aeval::fuzz::input_file("split.parquet", data, size);
  try {
    const auto table = aeval::datasets::TableReader::parquet({path});
    std::vector<std::string> expressions;
    for (const auto& column : table.columns())
      expressions.push_back("CAST(to_json(" + aeval::datasets::TableReader::quoted(column.name) + ") AS VARCHAR)");
    if (!expressions.empty()) table.scan(expressions, [](aeval::datasets::TableRow&) {});
  } catch (const aeval::Error&) {
  }
  return 0;
}
