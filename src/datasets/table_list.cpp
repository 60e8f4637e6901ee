// The `table` dataset class: a TSV or CSV list with a header line (or named
// `columns`), one sample per row (Common Voice's test.tsv with `path` and
// `sentence`, FLEURS' headerless TSVs), read through
// DuckDB's CSV reader with every value as text. Audio names are relative to
// `audio_dir`, itself relative to the list's folder.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "datasets/dataset_source.hpp"
#include "util/repeated_ids.hpp"
#include "datasets/table_reader.hpp"
#include "registry/args.hpp"

namespace aeval::datasets {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using pipeline::Sample;

namespace {

namespace fs = std::filesystem;

struct TableConfig {
  std::string delimiter;  // empty: from the extension
  std::string id_column;  // empty: the audio file name's stem
  std::string audio_column = "path";
  std::string text_column = "sentence";  // empty: rows have no reference
  std::string audio_dir;                 // empty: the list's folder
  std::vector<std::string> columns;      // given: no header line, these are the columns (FLEURS)
  std::optional<int> limit;
};

char delimiter_of(const fs::path& file, const std::string& written, const Args& args) {
  if (written == "\\t" || written == "tab") return '\t';
  if (written.size() == 1) return written[0];
  if (!written.empty()) args.fail("delimiter must be one character (or \\t), not '" + written + "'");
  const std::string extension = file.extension().string();
  if (extension == ".tsv") return '\t';
  if (extension == ".csv") return ',';
  args.fail(file.string() + " ends in neither .tsv nor .csv; give the delimiter");
}

std::vector<Sample> read_table_list(const fs::path& file, char delimiter, const TableConfig& config) {
  const TableReader table = TableReader::delimited(file, delimiter, config.columns);
  const std::size_t audio = table.column_index(config.audio_column, "audio_column");
  const std::optional<std::size_t> id =
      config.id_column.empty() ? std::nullopt : std::optional(table.column_index(config.id_column, "id_column"));
  const std::optional<std::size_t> text =
      config.text_column.empty() ? std::nullopt
                                 : std::optional(table.column_index(config.text_column, "text_column"));
  const fs::path audio_dir = file.parent_path() / config.audio_dir;  // an absolute audio_dir replaces the folder
  const auto resolve = [&](const std::string& name) {
    const fs::path p = name;
    return p.is_relative() ? audio_dir / p : p;
  };
  std::vector<std::string> expressions;
  for (const auto& column : table.columns()) expressions.push_back(TableReader::quoted(column.name));

  std::vector<Sample> samples;
  RepeatedIds ids;  // placed by row number
  std::size_t number = 0;
  table.scan(expressions, [&](TableRow& row) {
    ++number;
    if (config.limit && samples.size() >= std::size_t(*config.limit)) return;
    const std::string where = fmt::format("{}: row {}", file.string(), number);
    if (!row[audio] || row[audio]->empty())
      throw Error(ErrorCategory::data, where + ": no audio in column '" + config.audio_column + "'");
    Sample sample;
    sample.audio = resolve(*row[audio]);
    sample.id = id ? row[*id].value_or("") : fs::path(*row[audio]).stem().string();
    if (sample.id.empty()) throw Error(ErrorCategory::data, where + ": empty id");
    ids.add(sample.id, number);
    if (text) sample.reference = row[*text].value_or("");  // DuckDB reads an empty field as NULL
    sample.fields = nlohmann::json::object();
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i == audio || i == id || i == text) continue;
      const std::string& name = table.columns()[i].name;
      if (!row[i]) {
        sample.fields[name] = nullptr;
      } else {
        // Every *audio* field is an audio path, as in a JSONL manifest.
        sample.fields[name] = name.find("audio") != std::string::npos ? resolve(*row[i]).string() : *row[i];
      }
    }
    samples.push_back(std::move(sample));
  });
  // Rows are numbered from 1, every one a sample up to the limit.
  if (const auto repeat = ids.first_repeat([&samples](std::uint64_t row) { return samples[row - 1].id; }))
    throw Error(ErrorCategory::data, fmt::format("{}: row {}: duplicate id '{}' (first in row {})", file.string(),
                                                 repeat->again, repeat->id, repeat->first));
  return samples;
}

const TableConfig kTableDefaults;
const DatasetClasses::Registration kTableClass{
    {Kind::dataset, "table", "A TSV or CSV list with a header line (or named columns), one sample per row (Common Voice's test.tsv)",
     [] {
       auto args = source_args("the list");
       args.insert(args.end(),
                   {arg::text("delimiter", kTableDefaults.delimiter, "one character, or \\t (default: from .tsv/.csv)"),
                    arg::text("id_column", kTableDefaults.id_column, "column with the sample id (default: audio stem)"),
                    arg::text("audio_column", kTableDefaults.audio_column, "column with the audio file name"),
                    arg::text("text_column", kTableDefaults.text_column, "column with the reference (\"\": none)"),
                    arg::text("audio_dir", kTableDefaults.audio_dir,
                              "folder the audio names are relative to, relative to the list's (Common Voice: clips)"),
                    arg::texts("columns", {}, "the column names of a list without a header line (FLEURS' TSVs)"),
                    arg::optional_integer("limit", "read only the first N rows").at_least(1)});
       return with_catalog_args(std::move(args));
     }()},
    [](const Args& args) {
      const SourceLocation source = locate_source(args);
      TableConfig config;
      config.id_column = args.text("id_column");
      config.audio_column = args.text("audio_column");
      config.text_column = args.text("text_column");
      config.audio_dir = args.text("audio_dir");
      config.limit = args.optional_integer("limit");
      config.columns = args.strings("columns");
      const char delimiter = delimiter_of(source.path, args.text("delimiter"), args);
      Dataset d;
      d.name = args.entry().name;
      d.samples = read_table_list(source.path, delimiter, config);
      d.description = source.description;
      d.description["class"] = "table";
      d.description["list"] = source.path.string();
      d.description["samples"] = d.samples.size();
      return d;
    }};

}  // namespace

}  // namespace aeval::datasets
