// UltraEval-Audio's own local datasets (audio_evals/dataset/dataset.py): `JsonlFile`, a JSONL file read as
// pandas.read_json(lines=True) reads it, and `RelativePath`, the same with each value joined to a folder
// when that names a file. Rows are numbered from 0, as UEA's EvalTask numbers them; `col_aliases` copy
// a column under a second name (an alias naming an existing column is UEA's ValueError). Paths are
// relative to UEA's working folder, its root. pandas' typing is kept, as prompts and evaluators see it
// (read_rows below).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <regex>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "datasets/dataset.hpp"
#include "registry/classes.hpp"
#include "util/untrusted_json.hpp"

namespace aeval::uea {

namespace {

namespace fs = std::filesystem;
namespace arg = registry::arg;
using Json = nlohmann::ordered_json;

fs::path under(const fs::path& root, const std::string& path) {
  return fs::path(path).is_absolute() ? fs::path(path) : root / path;
}

// Python's float() of a string: surrounding whitespace, underscores between digits, inf and nan allowed.
std::optional<double> python_float_of(const std::string& text) {
  static const std::regex number(R"([+-]?(?:(?:\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?)");
  static const std::regex special(R"([+-]?(?:inf|infinity|nan))", std::regex::icase);
  const auto first = text.find_first_not_of(" \t\n\r\f\v"), last = text.find_last_not_of(" \t\n\r\f\v");
  if (first == std::string::npos) return std::nullopt;
  std::string t = text.substr(first, last - first + 1);
  if (std::regex_match(t, special)) {
    const bool negative = t[0] == '-';
    const bool nan = t.find_first_of("nN") != std::string::npos && t.find_first_of("fF") == std::string::npos;
    return nan ? std::numeric_limits<double>::quiet_NaN() : negative ? -HUGE_VAL : HUGE_VAL;
  }
  if (!std::regex_match(t, number)) return std::nullopt;
  t.erase(std::remove(t.begin(), t.end(), '_'), t.end());
  return std::strtod(t.c_str(), nullptr);
}

// One column as pandas.read_json(lines=True) types it (pandas 1.5's frame parser): the dtype the rows give it
// (int64 when every row has an integer, float64 when numbers or nulls, bool when every row a boolean, else
// objects with NaN where a row lacks the key), then `_try_convert_data`: objects become floats when every one
// converts as float() converts it, and floats become integers when every one is a whole number. (Columns named
// like dates, which pandas also tries as timestamps, are not: the one difference, docs/uea.md.)
void type_column(std::vector<Json*>& cells) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // A number pandas holds as int64 or float64 (an integer past int64 makes the column uint64 or objects).
  const auto fits = [](const Json* cell) {
    return cell->is_number() &&
           !(cell->is_number_unsigned() && cell->get<std::uint64_t>() > std::uint64_t(INT64_MAX));
  };
  bool ints = true, bools = true;
  for (const Json* cell : cells) {
    ints = ints && cell && cell->is_number_integer() && fits(cell);
    bools = bools && cell && cell->is_boolean();
  }
  if (ints || bools) return;
  std::vector<double> floats;
  bool converts = true;
  for (const Json* cell : cells) {
    if (!converts) break;
    if (!cell || cell->is_null()) floats.push_back(nan);
    else if (cell->is_boolean()) floats.push_back(cell->get<bool>() ? 1 : 0);
    else if (fits(cell)) floats.push_back(cell->get<double>());
    else if (const auto f = cell->is_string() ? python_float_of(cell->get<std::string>()) : std::nullopt) floats.push_back(*f);
    else converts = false;
  }
  if (!converts) return;  // objects, as the rows hold them
  const bool whole = std::all_of(floats.begin(), floats.end(), [](double f) {
    return std::isfinite(f) && f == std::trunc(f) && std::abs(f) < 9.2e18;
  });
  for (std::size_t k = 0; k < cells.size(); ++k)
    if (cells[k]) *cells[k] = whole ? Json(static_cast<std::int64_t>(floats[k])) : Json(floats[k]);
}

// The rows of a JSONL file with pandas' columns (every key of any row, in the order first seen) and types.
std::vector<Json> read_rows(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw Error(ErrorCategory::data, fmt::format("{}: cannot read the JSONL file", file.string()));
  std::vector<Json> rows;
  std::vector<std::string> columns;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Json row;
    try {
      row = parse_untrusted_json<Json>(line, /*allow_exceptions=*/false);
    } catch (const JsonTooDeep& e) {
      throw Error(ErrorCategory::data, fmt::format("{}:{}: {}", file.string(), number, e.what()));
    }
    if (row.is_discarded() || !row.is_object())
      throw Error(ErrorCategory::data, fmt::format("{}:{}: not a JSON object", file.string(), number));
    for (const auto& [key, value] : row.items())
      if (std::find(columns.begin(), columns.end(), key) == columns.end()) columns.push_back(key);
    rows.push_back(std::move(row));
  }
  // Every row gets every column, in the frame's order; a missing one is NaN.
  std::vector<Json> framed(rows.size(), Json::object());
  for (const auto& column : columns) {
    std::vector<Json*> cells;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      framed[k][column] = rows[k].contains(column) ? rows[k][column] : Json(std::numeric_limits<double>::quiet_NaN());
      cells.push_back(rows[k].contains(column) ? &framed[k][column] : nullptr);
    }
    type_column(cells);
  }
  return framed;
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
