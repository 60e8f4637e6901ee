// UltraEval-Audio's own local datasets (audio_evals/dataset/dataset.py): `JsonlFile`, a JSONL file read as
// pandas.read_json(lines=True) reads it, and `RelativePath`, the same with each value joined to a folder
// when that names a file. Rows are numbered from 0, as UEA's EvalTask numbers them; `col_aliases` copy
// a column under a second name (an alias naming an existing column is UEA's ValueError). Paths are
// relative to UEA's working folder, its root. pandas' typing is kept where a prompt or evaluator sees it:
// a key some rows lack is NaN in them, and a numeric column with a float or a gap is all floats.
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <limits>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "datasets/dataset.hpp"
#include "registry/classes.hpp"

namespace aeval::uea {

namespace {

namespace fs = std::filesystem;
namespace arg = registry::arg;
using Json = nlohmann::ordered_json;

fs::path under(const fs::path& root, const std::string& path) {
  return fs::path(path).is_absolute() ? fs::path(path) : root / path;
}

// The rows of a JSONL file, with pandas' columns: every key of any row, in the order first seen.
std::vector<Json> read_rows(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw Error(ErrorCategory::data, fmt::format("{}: cannot read the JSONL file", file.string()));
  std::vector<Json> rows;
  std::vector<std::string> columns;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Json row = Json::parse(line, nullptr, false);
    if (row.is_discarded() || !row.is_object())
      throw Error(ErrorCategory::data, fmt::format("{}:{}: not a JSON object", file.string(), number));
    for (const auto& [key, value] : row.items())
      if (std::find(columns.begin(), columns.end(), key) == columns.end()) columns.push_back(key);
    rows.push_back(std::move(row));
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const auto& column : columns) {
    bool numeric = true, floats = false;
    for (const auto& row : rows) {
      if (!row.contains(column)) floats = true;
      else if (!row[column].is_number() || row[column].is_boolean()) numeric = false;
      else if (row[column].is_number_float()) floats = true;
    }
    std::vector<Json> reordered;
    for (auto& row : rows) {
      Json value = row.contains(column) ? row[column] : Json(nan);
      if (numeric && floats && value.is_number()) value = value.get<double>();
      row.erase(column);
      reordered.push_back(std::move(value));
    }
    for (std::size_t k = 0; k < rows.size(); ++k) rows[k][column] = std::move(reordered[k]);
  }
  return rows;
}

datasets::Dataset load(const registry::Args& args) {
  const fs::path root = args.path("uea_root");
  const fs::path file = under(root, args.text("f_name"));
  std::vector<Json> rows = read_rows(file);
  std::string prefix = args.text("file_path_prefix");
  if (args.given("file_path_prefix") && !prefix.ends_with("/")) prefix += "/";
  const YAML::Node aliases = args.given("col_aliases") ? args.node("col_aliases") : YAML::Node();
  const std::string ref_col = args.text("text_column");
  datasets::Dataset d;
  d.name = args.entry().name;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    Json& row = rows[k];
    if (args.given("file_path_prefix"))  // RelativePath: a value joined to the prefix that names a file becomes that
      for (auto& [key, value] : row.items()) {
        const std::string joined = (fs::path(prefix) / text::python_str(value)).string();
        if (fs::is_regular_file(under(root, joined))) value = joined;
      }
    if (aliases.IsMap())
      for (const auto& alias : aliases) {
        const std::string from = alias.first.Scalar(), to = alias.second.Scalar();
        if (row.contains(to))
          throw Error(ErrorCategory::data, fmt::format("{}: Column alias {} already exists in the dataframe (as "
                                                       "UltraEval-Audio's JsonlFile refuses it)",
                                                       args.entry().where(), to));
        if (!row.contains(from))
          throw Error(ErrorCategory::data, fmt::format("{}: col_aliases names the column '{}', which {} lacks",
                                                       args.entry().where(), from, file.string()));
        row[to] = row[from];
      }
    pipeline::Sample sample;
    sample.id = std::to_string(k);
    // WavPath is relative to UEA's working folder; aeval's prompts and models see the file where it lies.
    if (row.contains("WavPath") && row["WavPath"].is_string()) {
      const fs::path audio = under(root, row["WavPath"].get<std::string>());
      row["WavPath"] = audio.lexically_normal().string();
      sample.audio = row["WavPath"].get<std::string>();
    }
    if (row.contains(ref_col)) sample.reference = text::python_str(row[ref_col]);
    sample.fields = nlohmann::json(row);
    d.samples.push_back(std::move(sample));
  }
  d.description = {{"class", "uea_jsonl"}, {"file", file.string()}, {"samples", d.samples.size()}};
  return d;
}

// UEA's arguments as written, with the root its relative paths are read from.
std::optional<YAML::Node> uea_jsonl(const YAML::Node& uea_args, const fs::path& uea_root) {
  YAML::Node args = YAML::Clone(uea_args);
  args.remove("default_task");  // what UEA's main.py runs when no task is named: read from UEA's entry
  if (args["ref_col"]) {
    args["text_column"] = args["ref_col"];  // the name --dataset_ref_col sets, as for Hub datasets
    args.remove("ref_col");
  }
  args["uea_root"] = fs::absolute(uea_root).lexically_normal().string();
  return args;
}

const datasets::DatasetClasses::Registration kUeaJsonlClass{
    {registry::Kind::dataset, "uea_jsonl",
     "UltraEval-Audio's JsonlFile and RelativePath: a JSONL file as pandas reads it, rows numbered from 0",
     datasets::with_catalog_args(
         {arg::required_text("f_name", "the JSONL file, relative to uea_root"),
          arg::required_path("uea_root", "the UltraEval-Audio tree: its working folder, which relative paths start from"),
          arg::text("text_column", "", "the column holding the reference (UEA's ref_col)"),
          arg::text("file_path_prefix", "", "RelativePath: a folder each value is joined to when that names a file"),
          arg::map("col_aliases", "a column copied under a second name: {column: alias}", false)}),
     {},
     {{"audio_evals.dataset.dataset.JsonlFile", uea_jsonl}, {"audio_evals.dataset.dataset.RelativePath", uea_jsonl}}},
    load};

}  // namespace

}  // namespace aeval::uea
