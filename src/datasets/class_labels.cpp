#include "datasets/class_labels.hpp"

#include <nlohmann/json.hpp>

#include "util/untrusted_json.hpp"

namespace aeval::datasets {

std::map<std::string, std::vector<std::string>> class_label_names(const TableReader& table,
                                                                  const std::filesystem::path& file) {
  std::string metadata;
  // decode(): the BLOB as UTF-8 text (a cast would escape the quotes)
  table.query("SELECT decode(value) FROM parquet_kv_metadata(" + TableReader::literal(file.string()) +
                  ") WHERE key = 'huggingface'::BLOB",
              [&](TableRow& row) { metadata = row[0].value_or(""); });
  return class_labels_in_metadata(metadata);
}

std::map<std::string, std::vector<std::string>> class_labels_in_metadata(const std::string& metadata) {
  std::map<std::string, std::vector<std::string>> labels;
  // Metadata not written by `datasets` (or unreadable) leaves the columns as plain integers.
  nlohmann::json json;
  try {
    json = parse_untrusted_json(metadata, /*allow_exceptions=*/false);
  } catch (const JsonTooDeep&) {
    return labels;
  }
  const auto* info = json.is_object() && json.contains("info") && json["info"].is_object() ? &json["info"] : nullptr;
  if (!info || !info->contains("features") || !(*info)["features"].is_object()) return labels;
  const auto& features = (*info)["features"];
  for (const auto& [column, feature] : features.items()) {
    // Compared as JSON: a `_type` that is not text is simply not a class label.
    if (!feature.is_object() || !feature.contains("_type") || feature["_type"] != "ClassLabel" ||
        !feature.contains("names"))
      continue;
    const auto& names = feature["names"];
    if (!names.is_array()) continue;
    std::vector<std::string> list;
    for (const auto& n : names)
      if (n.is_string()) list.push_back(n.get<std::string>());
    if (list.size() == names.size()) labels[column] = std::move(list);
  }
  return labels;
}

std::string column_value_sql(const std::string& column,
                             const std::map<std::string, std::vector<std::string>>& class_labels) {
  const auto found = class_labels.find(column);
  if (found == class_labels.end()) return TableReader::quoted(column);
  std::string list;
  for (const auto& name : found->second) list += (list.empty() ? "" : ", ") + TableReader::literal(name);
  // DuckDB lists count from 1; a NULL index gives NULL
  return "([" + list + "]::VARCHAR[])[CASE WHEN " + TableReader::quoted(column) + " >= 0 THEN " +
         TableReader::quoted(column) + " + 1 END]";
}

}  // namespace aeval::datasets
