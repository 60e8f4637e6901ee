// The `huggingface` dataset class: one split of a Hugging Face Hub dataset,
// its Parquet files fetched into the cache (hub_split.hpp) and read with
// DuckDB. Audio stored in the files stays there: each sample names its clip
// (parquet_clips.hpp) and the decoder reads it when the sample runs; audio the
// rows name by a path in the repository is fetched beside them.
#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "aeval/error.hpp"
#include "audio/absent_audio.hpp"
#include "datasets/class_labels.hpp"
#include "datasets/dataset.hpp"
#include "datasets/dataset_source.hpp"
#include "datasets/hub_split.hpp"
#include "datasets/parquet_clips.hpp"
#include "datasets/table_reader.hpp"
#include "registry/args.hpp"
#include "registry/registry.hpp"
#include "util/download.hpp"
#include "util/sha256.hpp"

namespace aeval::datasets {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using registry::yaml_as_python;
using pipeline::Sample;

namespace {


struct HubDatasetConfig {
  HubSplitRequest split;
  std::string id_column, audio_column = "audio", text_column = "text", filter;
  std::string sample_per;  // a list column: a sample per element (AnyAudio-Judge Bench's rubric items)
  std::vector<std::string> fields;  // empty: every other column
  std::vector<std::pair<std::string, std::string>> computed;  // field name, DuckDB SQL expression over the columns
  int limit = 0;
  bool label_names = true;          // class-label columns as their names (false: the stored integers)
  bool every_column_a_field = false;  // the id and reference columns are fields too (UltraEval-Audio's rows)
  bool audio_optional = false;        // a file without the audio column holds rows of text alone
};

bool is_url(const std::string& text) { return text.rfind("https://", 0) == 0 || text.rfind("http://", 0) == 0; }

// Audio named by URL is fetched once into the entry's folder, under a name
// unique to the URL that keeps its extension (what the decoder goes by).
std::filesystem::path audio_download_path(const std::string& entry, const std::string& url) {
  const std::string path = url.substr(0, url.find_first_of("?#"));
  return source_cache_dir(entry) / "audio" / (sha256_hex(url).substr(0, 16) + "-" + path.substr(path.find_last_of('/') + 1));
}

// Audio whose download failed (`why` per file, "" for those in place): each of its samples fails alone, saying
// why, and one note counts the files.
void fail_unfetched_alone(Dataset& d, const std::vector<std::filesystem::path>& files, const std::vector<std::string>& why,
                          const std::string& what) {
  std::size_t failed = 0;
  std::string first;
  for (std::size_t k = 0; k < files.size(); ++k) {
    if (why[k].empty()) continue;
    detail::record_absent_audio(files[k], "not downloaded: " + why[k]);
    if (failed++ == 0) first = why[k];
  }
  if (failed > 0)
    d.notes.push_back(fmt::format("{} {} could not be downloaded, so their samples fail alone (first: {})", failed, what,
                                  first));
}

std::string column_list(const TableReader& table) {
  std::string list;
  for (const auto& c : table.columns()) list += (list.empty() ? "" : ", ") + c.name;
  return list;
}

// Whether every row of `file` stores its clip's bytes, as the Parquet statistics of the audio column's `bytes`
// say (a null count of 0 in every row group). Its rows' paths then name nothing to fetch, and asking each row
// whether its bytes are null, which reads and decompresses every clip of the split, is not needed. Files
// without statistics: false.
bool every_row_has_bytes(const TableReader& table, const std::filesystem::path& file, const std::string& audio_column) {
  bool all = false;
  table.query(fmt::format("SELECT CAST(count(*) > 0 AND bool_and(coalesce(stats_null_count = 0, false)) AS VARCHAR) "
                          "FROM parquet_metadata({}) WHERE path_in_schema = {}",
                          TableReader::literal(file.string()), TableReader::literal(audio_column + ", bytes")),
              [&](TableRow& row) { all = row[0] == "true"; });
  return all;
}

Dataset load_hub_dataset(const std::string& name, const HubDatasetConfig& config) {
  const HubSplit split = fetch_hub_split(config.split);
  const TableReader table = TableReader::parquet(split.files);
  const auto where = fmt::format("{}@{} ({}/{})", config.split.repo, split.commit.substr(0, 12), config.split.config,
                                 config.split.split);
  const auto require = [&](const std::string& column, const std::string& role) -> const TableColumn& {
    const auto* c = table.column(column);
    if (!c)
      throw Error(ErrorCategory::config, fmt::format("dataset '{}': {} has no column '{}' ({}); its columns: {}", name,
                                                     where, column, role, column_list(table)));
    return *c;
  };
  const std::string id_column = !config.id_column.empty() ? config.id_column : table.column("id") ? "id" : "";
  if (!id_column.empty()) require(id_column, "id_column");
  // No audio column: rows of text alone (what a TTS model reads aloud).
  const std::string audio_column =
      config.audio_optional && !table.column(config.audio_column) ? std::string() : config.audio_column;
  const std::string audio_type = audio_column.empty() ? "" : require(audio_column, "audio_column").type;
  const bool audio_struct = audio_type.rfind("STRUCT", 0) == 0;
  // A struct without bytes holds the audio's path in the repository instead (a layout that keeps the clips apart).
  const bool audio_by_path = audio_struct && audio_type.find(" path ") != std::string::npos;
  if (!config.sample_per.empty() && require(config.sample_per, "sample_per").type.find("[]") == std::string::npos)
    throw Error(ErrorCategory::config, fmt::format("dataset '{}': column '{}' of {} is {}, not a list (sample_per)", name,
                                                   config.sample_per, where, table.column(config.sample_per)->type));
  if (!audio_type.empty() && !audio_struct && audio_type != "BLOB" && audio_type != "VARCHAR")
    throw Error(ErrorCategory::config, fmt::format("dataset '{}': column '{}' of {} is {}, not audio (a struct of bytes "
                                                   "and path, bytes, or a path)", name, audio_column, where, audio_type));
  // The reference is a column, or a computed field (a label the entry derives from other columns).
  const auto computed_text = std::find_if(config.computed.begin(), config.computed.end(),
                                          [&](const auto& field) { return field.first == config.text_column; });
  if (!config.text_column.empty() && computed_text == config.computed.end()) require(config.text_column, "text_column");
  std::vector<std::string> fields = config.fields;
  if (fields.empty())
    for (const auto& c : table.columns())
      if (c.name != audio_column && c.name != config.sample_per &&
          (config.every_column_a_field || (c.name != id_column && c.name != config.text_column)))
        fields.push_back(c.name);
  for (const auto& f : fields) require(f, "fields");

  // Class-label columns (integers in the files) are read as their names; the schema is the same in every file.
  const auto labels = split.files.empty() || !config.label_names ? std::map<std::string, std::vector<std::string>>{}
                                                                  : class_label_names(table, split.files.front());
  const auto value = [&](const std::string& column) { return column_value_sql(column, labels); };
  // One scan per file keeps each row's position in its file, which its clip locator names.
  std::vector<std::string> select = {"CAST(file_row_number AS VARCHAR)",
                                     id_column.empty() ? "NULL::VARCHAR" : "CAST(" + value(id_column) + " AS VARCHAR)",
                                     config.text_column.empty()              ? "NULL::VARCHAR"
                                     : computed_text != config.computed.end() ? "CAST(" + computed_text->second + " AS VARCHAR)"
                                                                              : "CAST(" + value(config.text_column) + " AS VARCHAR)",
                                     audio_type == "VARCHAR" ? TableReader::quoted(audio_column)
                                     : audio_by_path         ? fmt::format("CASE WHEN {0}.bytes IS NULL THEN {0}.path END",
                                                                           TableReader::quoted(audio_column))
                                                             : "NULL::VARCHAR",
                                     // a list's element and its position (from 1), one row each
                                     config.sample_per.empty() ? "NULL::VARCHAR" : "CAST(to_json(element.item.e) AS VARCHAR)",
                                     config.sample_per.empty() ? "NULL::VARCHAR" : "CAST(element.item.k AS VARCHAR)"};
  for (const auto& f : fields) select.push_back("CAST(to_json(" + value(f) + ") AS VARCHAR)");
  for (const auto& [field, expression] : config.computed) select.push_back("CAST(to_json(" + expression + ") AS VARCHAR)");
  constexpr std::size_t kAudioPath = 3, kFirstField = 6;
  // The columns a file's scan reads; where every row of the file holds its clip's bytes, no path is read.
  const auto columns_of = [&](const std::filesystem::path& file) {
    const bool bytes_in_every_row = audio_by_path && every_row_has_bytes(table, file, audio_column);
    std::string out;
    for (std::size_t c = 0; c < select.size(); ++c)
      out += (out.empty() ? "" : ", ") + (c == kAudioPath && bytes_in_every_row ? "NULL::VARCHAR" : select[c]);
    return out;
  };
  const std::string elements =
      config.sample_per.empty()
          ? ""
          : fmt::format(", unnest(list_transform({0}, (e, k) -> {{'e': e, 'k': k}})) AS element(item)",
                        TableReader::quoted(config.sample_per));

  Dataset d;
  d.name = name;
  std::vector<RemoteFile> remote_audio;  // audio the rows name by URL, each URL once
  std::set<std::string> urls;
  std::vector<std::string> repository_audio;  // audio the rows name by its path in the repository
  std::vector<std::size_t> repository_audio_of;  // the sample each is for
  std::uint64_t position = 0;
  std::optional<std::pair<std::size_t, std::uint64_t>> last_row;  // (file, row) of the previous element
  for (std::size_t k = 0; k < split.files.size(); ++k) {
    if (config.limit > 0 && d.samples.size() >= std::size_t(config.limit)) break;
    const auto& file = split.files[k];
    std::string sql = fmt::format("SELECT {} FROM read_parquet({}, file_row_number = true){}", columns_of(file),
                                  TableReader::literal(file.string()), elements);
    if (!config.filter.empty()) sql += " WHERE (" + config.filter + ")";
    sql += config.sample_per.empty() ? " ORDER BY file_row_number" : " ORDER BY file_row_number, element.item.k";
    if (config.limit > 0) sql += fmt::format(" LIMIT {}", std::size_t(config.limit) - d.samples.size());
    table.query(sql, [&](TableRow& row) {
      Sample s;
      const std::uint64_t file_row = std::stoull(row[0].value_or("0"));
      if (!config.sample_per.empty()) {  // a row's elements share its position
        if (last_row && *last_row != std::make_pair(k, file_row)) ++position;
        last_row = {k, file_row};
      }
      s.id = row[1] ? *row[1] : std::to_string(position);
      if (config.sample_per.empty()) ++position;
      if (row[2]) s.reference = *row[2];
      if (audio_type == "VARCHAR") {
        if (row[3] && is_url(*row[3])) {
          s.audio = audio_download_path(name, *row[3]);
          if (urls.insert(*row[3]).second) remote_audio.push_back({*row[3], s.audio, "", std::nullopt});
        } else if (row[3]) {
          s.audio = file.parent_path() / *row[3];  // a path stored beside the Parquet file
        }
      } else if (row[3]) {
        repository_audio.push_back(*row[3]);
        repository_audio_of.push_back(d.samples.size());
      } else if (!audio_type.empty()) {
        s.audio = parquet_clip_locator(file, file_row, audio_column);
      }
      s.fields = nlohmann::json::object();
      for (std::size_t f = 0; f < fields.size(); ++f)
        s.fields[fields[f]] = row[kFirstField + f] ? nlohmann::json::parse(*row[kFirstField + f]) : nlohmann::json(nullptr);
      for (std::size_t f = 0; f < config.computed.size(); ++f) {
        const auto& value = row[kFirstField + fields.size() + f];
        s.fields[config.computed[f].first] = value ? nlohmann::json::parse(*value) : nlohmann::json(nullptr);
      }
      if (!config.sample_per.empty()) {
        // The element's own fields (a struct's) or the element under the list's name; the row's id in `row_id`.
        auto element = row[4] ? nlohmann::json::parse(*row[4]) : nlohmann::json(nullptr);
        if (element.is_object())
          s.fields.update(element);
        else
          s.fields[config.sample_per] = std::move(element);
        s.fields["row_id"] = s.id;
        s.id.append(":").append(row[5] ? *row[5] : std::string("0"));
      }
      d.samples.push_back(std::move(s));
    });
  }
  if (!repository_audio.empty()) {
    std::vector<std::string> unfetched;
    const auto local = fetch_hub_repository_files(config.split, split.commit, repository_audio, &unfetched);
    std::vector<std::string> missing;  // their samples have no audio and fail alone
    for (std::size_t k = 0; k < local.size(); ++k) {
      auto s = d.samples[repository_audio_of[k]];
      s.audio = local[k];
      d.samples.set(repository_audio_of[k], s);
      if (local[k].empty()) missing.push_back(repository_audio[k]);
    }
    if (!missing.empty())
      d.notes.push_back(fmt::format("{} rows name audio that {}@{} does not hold (first: '{}')", missing.size(),
                                    config.split.repo, split.commit.substr(0, 12), missing.front().substr(0, 200)));
    fail_unfetched_alone(d, local, unfetched, fmt::format("audio file(s) of {}@{} the rows name", config.split.repo,
                                                          split.commit.substr(0, 12)));
  }
  if (!remote_audio.empty()) {
    DownloadOptions options;  // no token and no Hub hints: they belong to the Hub, not to the hosts the rows name
    std::vector<std::string> why = download_each(remote_audio, options);
    std::vector<std::filesystem::path> files;
    for (std::size_t k = 0; k < remote_audio.size(); ++k) {
      files.push_back(remote_audio[k].destination);
      if (!why[k].empty() && !options.offline) why[k] += ". Check the URL, and that this machine can reach its host";
    }
    fail_unfetched_alone(d, files, why, "audio URL(s) the rows name");
  }
  std::set<std::string> ids;
  for (const auto& s : d.samples)
    if (!ids.insert(s.id).second)
      throw Error(ErrorCategory::data, fmt::format("dataset '{}': id '{}' appears twice in {} (choose another id_column)",
                                                   name, s.id, where));
  nlohmann::json paths = split.repository_paths;
  d.description = {{"class", "huggingface"}, {"repo", config.split.repo}, {"config", config.split.config},
                   {"split", config.split.split}, {"revision", config.split.revision}, {"commit", split.commit},
                   {"source", split.source}, {"files", paths}, {"reader", "DuckDB " + duckdb_version()},
                   {"samples", d.samples.size()}};
  if (split.source_commit != split.commit) d.description["source_commit"] = split.source_commit;
  if (!config.filter.empty()) d.description["filter"] = config.filter;
  if (!config.sample_per.empty()) d.description["sample_per"] = config.sample_per;
  for (const auto& [field, expression] : config.computed) d.description["computed_fields"][field] = expression;
  if (config.limit > 0) d.description["limit"] = config.limit;
  return d;
}

const HubDatasetConfig kHubDefaults;

// UltraEval-Audio's Huggingface(name, subset, split, ref_col, col_aliases, local_path,
// default_task): load_dataset of one split, columns renamed by col_aliases, every column
// (class labels as stored integers) a field of the row, the audio saved as WavPath.
std::optional<YAML::Node> uea_huggingface(const YAML::Node& uea, const std::filesystem::path&) {
  const auto text = [&](const char* key) { return uea[key] && uea[key].IsScalar() ? uea[key].Scalar() : std::string(); };
  for (const auto& item : uea) {
    const std::string key = item.first.Scalar();
    if (key != "name" && key != "subset" && key != "split" && key != "ref_col" && key != "col_aliases" &&
        key != "local_path" && key != "default_task")
      throw Error(ErrorCategory::config, "Huggingface has no argument '" + key +
                                             "': UltraEval-Audio's own class refuses it too (TypeError), so UEA cannot load "
                                             "this entry either; drop the argument in a copy of the entry");
  }
  if (!text("local_path").empty())
    throw Error(ErrorCategory::config, "it reads a dataset saved on disk (local_path); aeval reads the Hub");
  if (text("name").empty()) throw Error(ErrorCategory::config, "it names no Hub dataset (name)");
  YAML::Node args;
  args["repo"] = text("name");
  if (const auto subset = yaml_as_python(uea["subset"]); subset.is_string() && !subset.get<std::string>().empty())
    args["config"] = subset.get<std::string>();
  args["split"] = text("split");  // none: every split, as load_dataset gives them
  // WavPath is the audio UEA saves, not a column: a reference of audio (the voice a TTS task clones).
  args["text_column"] = text("ref_col") == "WavPath" ? "" : text("ref_col");
  args["class_labels"] = "integers";
  args["every_column_a_field"] = true;
  args["audio_optional"] = true;  // UEA saves the audio of rows that have one, and keeps the others
  if (uea["col_aliases"] && uea["col_aliases"].IsMap()) {
    for (const auto& alias : uea["col_aliases"]) {
      const std::string from = alias.first.Scalar(), to = alias.second.Scalar();
      if (to == "audio") {
        args["audio_column"] = from;
        continue;
      }
      if (to == text("ref_col")) args["text_column"] = from;
      std::string quoted = "\"";
      for (const char c : from) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      args["computed_fields"][to] = quoted + "\"";
    }
  }
  return args;
}
// UltraEval-Audio's GigaSpeechDataset: Huggingface, then each row's `text` uppercased, hyphens
// to spaces and GigaSpeech's non-scoring words (fillers, <UNK>, punctuation and garbage tags)
// removed; rows left with no text are dropped before the limit. In DuckDB SQL over the column.
std::optional<YAML::Node> uea_gigaspeech(const YAML::Node& uea, const std::filesystem::path& root) {
  YAML::Node args = *uea_huggingface(uea, root);
  static const char* const kNonScoring[] = {"UH",    "UHH",    "UM",    "EH",          "MM",
                                            "HM",    "AH",     "HUH",   "HA",          "ER",
                                            "OOF",   "HEE",    "ACH",   "EEE",         "EW",
                                            "<UNK>", "<unk>",  "<COMMA>", "<PERIOD>",  "<QUESTIONMARK>",
                                            "<EXCLAMATIONPOINT>", "<SIL>", "<NOISE>", "<MUSIC>", "<OTHER>"};
  std::string words;
  for (const char* w : kNonScoring) words += (words.empty() ? "'" : ", '") + std::string(w) + "'";
  const std::string cleaned = "array_to_string(list_filter(string_split_regex(replace(upper(\"text\"), '-', ' '), "
                              "'\\s+'), lambda w: w <> '' AND NOT list_contains([" + words + "], w)), ' ')";
  args["computed_fields"]["text"] = cleaned;
  args["filter"] = cleaned + " <> ''";
  return args;
}

// The split an entry names, and how to fill the cache where there is no network.
HubSplitRequest hub_split_of(const Args& args) {
  HubSplitRequest r;
  r.repo = args.text("repo");
  r.config = args.text("config");
  r.split = args.text("split");
  r.revision = args.text("revision");
  r.token_env = args.text("token_env");
  r.prefetch_hint = fmt::format("On a machine with network run `aeval fetch dataset {}`, copy {} to the same place "
                                "here and set HF_HUB_OFFLINE=1; or name a Hub mirror in HF_ENDPOINT",
                                args.entry().name, hub_cache_dir(r.repo).string());
  return r;
}

const HubSplitsDeclaration kHuggingfaceSplits{
    "huggingface", [](const Args& args) { return std::vector<HubSplitRequest>{hub_split_of(args)}; }};

const DatasetClasses::Registration kHuggingfaceClass{
    {Kind::dataset, "huggingface",
     "One split (or every split) of a Hugging Face Hub dataset: its Parquet files (or the Hub's Parquet conversion), cached",
     with_catalog_args({arg::required_text("repo", "the dataset's repository, e.g. openslr/librispeech_asr"),
      arg::text("config", kHubDefaults.split.config, "the configuration (subset)"),
      arg::text("split", kHubDefaults.split.split,
                "the split ('': every split of the config, one after the other, in the order its README declares)"),
      arg::text("revision", kHubDefaults.split.revision, "a branch, tag or commit (a commit never asks the network)"),
      arg::text("id_column", "", "column with the sample id (default: 'id' if there is one, else the row's position)"),
      arg::text("audio_column", kHubDefaults.audio_column, "column with the audio (struct of bytes and path, or a path; '' for rows of text alone)"),
      arg::text("text_column", kHubDefaults.text_column, "column (or computed field) with the reference text ('' for none)"),
      arg::texts("fields", {}, "columns kept as sample fields (default: every other column)"),
      arg::map("computed_fields", "more fields, each a DuckDB SQL expression over the columns "
                                  "(e.g. list_prepend(answer, choices))", false),
      arg::text("filter", "", "a DuckDB SQL condition on the columns that rows must meet"),
      arg::integer("limit", 0, "at most this many rows, or samples with sample_per (0: all)"),
      arg::text("sample_per", "",
                "a list column: a sample per element (id ID:K, K from 1; a struct's fields as fields, the row's id "
                "in row_id); rows with an empty list give none"),
      arg::text("token_env", kHubDefaults.split.token_env, "environment variable holding the token for gated datasets"),
      arg::choice("class_labels", "names", {"names", "integers"},
                  "class-label columns as their names (as `datasets` shows them) or the integers stored"),
      arg::boolean("every_column_a_field", false, "the id and reference columns are sample fields too"),
      arg::boolean("audio_optional", false, "a file without the audio column holds rows of text alone")}),
     {},
     {{"audio_evals.dataset.huggingface.Huggingface", uea_huggingface},
      {"audio_evals.dataset.giga.GigaSpeechDataset", uea_gigaspeech}}},
    [](const Args& args) {
      HubDatasetConfig config;
      config.split = hub_split_of(args);
      config.id_column = args.text("id_column");
      config.audio_column = args.text("audio_column");
      config.text_column = args.text("text_column");
      config.fields = args.strings("fields");
      if (args.given("computed_fields"))
        for (const auto& item : args.node("computed_fields")) {
          if (!item.first.IsScalar() || !item.second.IsScalar())
            args.fail("computed_fields: each field is a name and one SQL expression");
          config.computed.emplace_back(item.first.as<std::string>(), item.second.as<std::string>());
        }
      config.filter = args.text("filter");
      config.sample_per = args.text("sample_per");
      config.limit = args.integer("limit");
      config.label_names = args.text("class_labels") == "names";
      config.every_column_a_field = args.boolean("every_column_a_field");
      config.audio_optional = args.boolean("audio_optional");
      if (config.limit < 0) args.fail("limit must be 0 (all rows) or more");
      return load_hub_dataset(args.entry().name, config);
    }};

}  // namespace

}  // namespace aeval::datasets
