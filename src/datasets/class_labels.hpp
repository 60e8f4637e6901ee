#pragma once
// Hub datasets store a `ClassLabel` column as integers; the label names live
// in the Parquet file's `huggingface` key-value metadata, which the `datasets`
// library writes with every file it pushes:
//   {"info": {"features": {COLUMN: {"_type": "ClassLabel", "names": [...]}, ...}}}
// aeval reads a class-label column as its names, as `datasets` shows it.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "datasets/table_reader.hpp"

namespace aeval::datasets {

// The names of each top-level ClassLabel column of the file (none without the metadata).
std::map<std::string, std::vector<std::string>> class_label_names(const TableReader& table,
                                                                  const std::filesystem::path& file);

// The same, read from the metadata's text. Whatever is not `datasets`' shape (not JSON, other types, a
// name that is not text) leaves its column a plain integer. Untrusted input: fuzz/class_labels.cpp.
std::map<std::string, std::vector<std::string>> class_labels_in_metadata(const std::string& metadata);

// The SQL for a column, through its names when it is a class label: label i is
// names[i]; -1 (no label) and values out of range are NULL.
std::string column_value_sql(const std::string& column,
                             const std::map<std::string, std::vector<std::string>>& class_labels);

}  // namespace aeval::datasets
