// UltraEval-Audio's InstructTTSEvalDataset (audio_evals/dataset/instruct_tts_eval.py, UEA 9b69da6): one split
// of the Hub dataset CaasiHUANG/InstructTTSEval, read as UEA's Huggingface reads it, then each row expanded
// into one row per instruction type, as UEA's load() expands it:
// * the columns are renamed by UEA's merged col_aliases ({"reference_audio": "audio"} updated with the entry's,
//   as a dict update orders them), one after the other: a new name that is already a column is UEA's
//   "col_aliases conflict" ValueError, an old name that is not one is datasets' rename_column ValueError;
// * for each row in file order, for each instruction type in order (the entry's instruction_types when truthy,
//   else APS, DSD, RP): the renamed column's value; None (or no such column: sample.get) gives no row; a str is
//   the instruction as it is; a dict (a Parquet struct) its "instruction" key's value ("" when the struct has
//   no such field, None when it holds a null); anything else str() as Python writes it (text/python_values.hpp);
// * each row's fields are UEA's: id ("<str(id)>_<type>", also the sample's id), text (the row's value as it is),
//   instruction, instruction_type. UEA's WavPath is the row's audio, where UEA saved it; here it is the sample's
//   audio (the clip in the Parquet file, or the file a row names by its path, fetched beside it), which prompts
//   and models see as WavPath as they do for every Hub row (a row without an audio column gets UEA's
//   WavPath "" as a field). A row without an `id` or `text` column is UEA's KeyError (a data error here),
//   raised when the first row is emitted, as UEA raises it; a null audio is UEA's TypeError in save_audio;
// * `limit` keeps the first rows once all are expanded.
// An instruction type named "WavPath" reads, in UEA, the path where it saved the audio; here the sample's audio
// path (a different string: aeval does not write raw/...wav). The split comes through aeval's Hub client and
// cache (datasets/hub_split.hpp), as the `huggingface` class reads its splits: verified, resumable, offline.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "aeval/text/unicode.hpp"
#include "aeval/text/utf8.hpp"
#include "datasets/dataset.hpp"
#include "datasets/hub_split.hpp"
#include "datasets/parquet_clips.hpp"
#include "datasets/table_reader.hpp"
#include "registry/args.hpp"
#include "registry/classes.hpp"
#include "registry/registry.hpp"
#include "util/untrusted_json.hpp"

namespace aeval::uea {

namespace {

namespace fs = std::filesystem;
namespace arg = registry::arg;
using Json = nlohmann::json;
using text::OrderedJson;
using datasets::TableReader;

constexpr const char* kClass = "uea_instruct_tts_eval";
constexpr const char* kRepo = "CaasiHUANG/InstructTTSEval";
const std::vector<std::string> kInstructionTypes = {"APS", "DSD", "RP"};

datasets::HubSplitRequest hub_split_of(const registry::Args& args) {
  datasets::HubSplitRequest r;
  r.repo = args.text("repo");
  r.config = "default";
  r.split = args.text("split");
  r.revision = args.text("revision");
  r.token_env = args.text("token_env");
  r.prefetch_hint = fmt::format("On a machine with network run `aeval fetch dataset {}`, copy {} to the same place "
                                "here and set HF_HUB_OFFLINE=1; or name a Hub mirror in HF_ENDPOINT",
                                args.entry().name, datasets::hub_cache_dir(r.repo).string());
  return r;
}

// UEA's merged col_aliases: {"reference_audio": "audio"}, updated with the entry's (a key it has keeps its place).
std::vector<std::pair<std::string, std::string>> merged_aliases(const registry::Args& args) {
  std::vector<std::pair<std::string, std::string>> merged = {{"reference_audio", "audio"}};
  if (!args.given("col_aliases")) return merged;
  for (const auto& item : args.node("col_aliases")) {
    if (!item.first.IsScalar() || !item.second.IsScalar()) args.fail("col_aliases: each alias is a column and its new name");
    const std::string from = item.first.Scalar(), to = item.second.Scalar();
    const auto it = std::find_if(merged.begin(), merged.end(), [&](const auto& p) { return p.first == from; });
    if (it != merged.end())
      it->second = to;
    else
      merged.emplace_back(from, to);
  }
  return merged;
}

OrderedJson parse_value(const std::optional<std::string>& value) {
  return value ? parse_untrusted_json<OrderedJson>(*value) : OrderedJson(nullptr);
}

datasets::Dataset load(const registry::Args& args) {
  const std::string name = args.entry().name;
  const datasets::HubSplitRequest request = hub_split_of(args);
  const std::vector<std::string> types = args.strings("instruction_types");
  const std::string text_column = args.text("text_column");
  const int limit = args.integer("limit");
  if (limit < 0) args.fail("limit must be 0 (all rows) or more");
  const auto aliases = merged_aliases(args);

  const datasets::HubSplit split = datasets::fetch_hub_split(request);
  const TableReader table = TableReader::parquet(split.files);
  const std::string where = fmt::format("dataset '{}' ({}@{} ({}/{}))", name, request.repo, split.commit.substr(0, 12),
                                        request.config, request.split);

  // The columns as UEA's rows name them: renamed one alias after the other, each remembering its column.
  std::vector<std::pair<std::string, std::string>> columns;  // UEA's name, the file's
  for (const auto& c : table.columns()) columns.emplace_back(c.name, c.name);
  const auto find = [&](const std::string& n) {
    return std::find_if(columns.begin(), columns.end(), [&](const auto& c) { return c.first == n; });
  };
  for (const auto& [from, to] : aliases) {
    if (find(to) != columns.end())
      throw Error(ErrorCategory::data, fmt::format("{}: col_aliases conflict with existing column name: {} (UltraEval-Audio's "
                                                   "ValueError)", where, to));
    const auto it = find(from);
    if (it == columns.end()) {
      std::string list;
      for (const auto& c : columns) list += (list.empty() ? "" : ", ") + c.first;
      throw Error(ErrorCategory::data, fmt::format("{}: no column '{}' to rename to '{}' (col_aliases; datasets' "
                                                   "rename_column raises ValueError); its columns: {}", where, from, to, list));
    }
    it->first = to;
  }
  const auto column_of = [&](const std::string& n) -> std::optional<std::string> {
    const auto it = find(n);
    return it == columns.end() ? std::nullopt : std::optional<std::string>(it->second);
  };

  // The audio: UEA's `audio` column (an Audio feature: a struct of bytes and path).
  const auto audio = column_of("audio");
  bool audio_by_path = false;
  if (audio) {
    const std::string type = table.column(*audio)->type;
    if (type.rfind("STRUCT", 0) != 0 || type.find("bytes") == std::string::npos)
      throw Error(ErrorCategory::data, fmt::format("{}: column '{}' (UltraEval-Audio's 'audio') is {}, not audio (a struct "
                                                   "of bytes and path)", where, *audio, type));
    audio_by_path = type.find(" path ") != std::string::npos || type.find("\"path\"") != std::string::npos;
  }
  const auto json_of = [&](const std::optional<std::string>& column) {
    return column ? "CAST(to_json(" + TableReader::quoted(*column) + ") AS VARCHAR)" : std::string("NULL::VARCHAR");
  };
  const auto id_column = column_of("id"), text_col = column_of("text");
  std::vector<std::string> select = {"CAST(file_row_number AS VARCHAR)", json_of(id_column), json_of(text_col)};
  if (audio) {
    const std::string a = TableReader::quoted(*audio);
    select.push_back(fmt::format("CAST(({0} IS NULL OR ({0}.bytes IS NULL{1})) AS VARCHAR)", a,
                                 audio_by_path ? fmt::format(" AND {}.path IS NULL", a) : std::string()));
    select.push_back(audio_by_path ? fmt::format("CASE WHEN {0}.bytes IS NULL THEN {0}.path END", a) : "NULL::VARCHAR");
  } else {
    select.push_back("NULL::VARCHAR");
    select.push_back("NULL::VARCHAR");
  }
  select.push_back(json_of(column_of("WavPath")));  // what a row without audio gives as WavPath
  constexpr std::size_t kWavPathColumn = 5, kFirstType = 6;
  for (const auto& type : types)
    select.push_back(type == "audio" && audio ? std::string("'{}'")  // the decoded audio, a dict without "instruction"
                                              : json_of(column_of(type)));
  std::string expressions;
  for (const auto& s : select) expressions += (expressions.empty() ? "" : ", ") + s;

  datasets::Dataset d;
  d.name = name;
  std::vector<std::string> repository_audio;  // audio the rows name by its path in the repository
  std::vector<std::vector<std::size_t>> repository_audio_of;  // the samples each is for
  for (std::size_t k = 0; k < split.files.size(); ++k) {
    const auto& file = split.files[k];
    table.query(fmt::format("SELECT {} FROM read_parquet({}, file_row_number = true) ORDER BY file_row_number",
                            expressions, TableReader::literal(file.string())),
                [&](datasets::TableRow& row) {
                  const std::uint64_t file_row = std::stoull(row[0].value_or("0"));
                  const std::string row_name = fmt::format("{} row {}", split.repository_paths[k], file_row);
                  if (audio && row[3] == "true")
                    throw Error(ErrorCategory::data, fmt::format("{}: {} has no audio in '{}', which UltraEval-Audio's "
                                                                 "save_audio fails on (TypeError)", where, row_name, *audio));
                  std::optional<fs::path> local_audio;
                  if (audio && !row[4]) local_audio = datasets::parquet_clip_locator(file, file_row, *audio);
                  std::vector<std::size_t> of_row;
                  for (std::size_t t = 0; t < types.size(); ++t) {
                    const OrderedJson value = types[t] == "WavPath" && audio
                                                  ? OrderedJson(local_audio ? local_audio->string() : *row[4])
                                                  : parse_value(row[kFirstType + t]);
                    if (value.is_null()) continue;
                    OrderedJson instruction;
                    if (value.is_string())
                      instruction = value;
                    else if (value.is_object())
                      instruction = value.contains("instruction") ? value["instruction"] : OrderedJson("");
                    else
                      instruction = text::python_str(value);
                    for (const auto& [column, key] : {std::pair{id_column, "id"}, std::pair{text_col, "text"}})
                      if (!column)
                        throw Error(ErrorCategory::data, fmt::format("{}: {} has no column '{}', which UltraEval-Audio's "
                                                                     "load() fails on (KeyError)", where, row_name, key));
                    pipeline::Sample s;
                    s.id = text::python_str(parse_value(row[1])) + "_" + types[t];
                    const OrderedJson text_value = parse_value(row[2]);
                    s.fields = Json::object();
                    s.fields["id"] = s.id;
                    s.fields["text"] = Json::parse(text_value.dump());
                    s.fields["instruction"] = Json::parse(instruction.dump());
                    s.fields["instruction_type"] = types[t];
                    if (!audio)  // UEA's sample.get("WavPath", ""): no audio was saved
                      s.fields["WavPath"] = column_of("WavPath") ? Json::parse(parse_value(row[kWavPathColumn]).dump()) : Json("");
                    if (local_audio) s.audio = *local_audio;
                    if (!text_column.empty() && s.fields.contains(text_column) && s.fields[text_column].is_string())
                      s.reference = s.fields[text_column].get<std::string>();
                    of_row.push_back(d.samples.size());
                    d.samples.push_back(std::move(s));
                  }
                  if (audio && row[4] && !of_row.empty()) {
                    repository_audio.push_back(*row[4]);
                    repository_audio_of.push_back(std::move(of_row));
                  }
                });
  }
  if (limit > 0 && d.samples.size() > std::size_t(limit)) {
    d.samples.resize(std::size_t(limit));
    for (std::size_t k = 0; k < repository_audio.size(); ++k)
      if (repository_audio_of[k].front() >= std::size_t(limit)) {
        repository_audio.resize(k);
        repository_audio_of.resize(k);
        break;
      }
  }
  if (!repository_audio.empty()) {
    const auto local = datasets::fetch_hub_repository_files(request, split.commit, repository_audio);
    std::vector<std::string> missing;  // their samples have no audio and fail alone
    for (std::size_t k = 0; k < local.size(); ++k) {
      for (const std::size_t s : repository_audio_of[k]) {
        if (s >= d.samples.size()) continue;
        auto sample = d.samples[s];
        sample.audio = local[k];
        d.samples.set(s, sample);
      }
      if (local[k].empty()) missing.push_back(repository_audio[k]);
    }
    if (!missing.empty())
      d.notes.push_back(fmt::format("{} rows name audio that {}@{} does not hold (first: '{}')", missing.size(),
                                    request.repo, split.commit.substr(0, 12), missing.front().substr(0, 200)));
  }
  std::set<std::string> ids;
  for (const auto& s : d.samples)
    if (!ids.insert(s.id).second)
      throw Error(ErrorCategory::data, fmt::format("{}: id '{}' appears twice (aeval tells samples apart by id)", where, s.id));
  Json renamed = Json::array();
  for (const auto& [from, to] : aliases) renamed.push_back({from, to});
  d.description = {{"class", kClass},          {"repo", request.repo},     {"config", request.config},
                   {"split", request.split},   {"revision", request.revision}, {"commit", split.commit},
                   {"source", split.source},   {"files", split.repository_paths}, {"col_aliases", renamed},
                   {"instruction_types", types}, {"reader", "DuckDB " + datasets::duckdb_version()},
                   {"samples", d.samples.size()}};
  if (limit > 0) d.description["limit"] = limit;
  return d;
}

// UEA's InstructTTSEvalDataset(default_task, ref_col, split="en", local_path="", instruction_types=None,
// col_aliases=None). default_task is what UEA's main.py runs when no task is named, read from UEA's entry.
std::optional<YAML::Node> uea_instruct_tts_eval(const YAML::Node& uea, const fs::path&) {
  for (const auto& item : uea) {
    const std::string key = item.first.Scalar();
    if (key != "default_task" && key != "ref_col" && key != "split" && key != "local_path" &&
        key != "instruction_types" && key != "col_aliases")
      throw Error(ErrorCategory::config, "InstructTTSEvalDataset has no argument '" + key +
                                             "': UltraEval-Audio's own class refuses it too (TypeError)");
  }
  for (const char* required : {"default_task", "ref_col"})
    if (!uea[required])
      throw Error(ErrorCategory::config, fmt::format("InstructTTSEvalDataset needs '{}': UltraEval-Audio's own class "
                                                     "refuses the entry without it (TypeError)", required));
  const OrderedJson given = registry::yaml_as_python(uea);
  const auto truthy = [](const OrderedJson& v) {
    return !(v.is_null() || (v.is_boolean() && !v.get<bool>()) || (v.is_number() && v.get<double>() == 0) ||
             (v.is_string() && v.get<std::string>().empty()) || ((v.is_array() || v.is_object()) && v.empty()));
  };
  const auto value = [&](const char* key) { return given.contains(key) ? given[key] : OrderedJson(); };
  if (truthy(value("local_path")))
    throw Error(ErrorCategory::config, "it reads a dataset saved on disk (local_path); aeval reads the Hub");
  YAML::Node args;
  // split: load_dataset's, when truthy; else (None, "") every split, as load_dataset gives them.
  args["split"] = given.contains("split") ? (truthy(value("split")) ? text::python_str(value("split")) : std::string())
                                          : std::string("en");
  // WavPath is the audio UEA saves, not a column: a reference of audio.
  const OrderedJson ref = value("ref_col");
  args["text_column"] = ref.is_string() && ref.get<std::string>() != "WavPath" ? ref.get<std::string>() : std::string();
  if (const auto list = value("instruction_types"); truthy(list)) {
    // As Python iterates it: a list's items, a string's characters, a dict's keys. Keys that are not strings
    // (sample.get of an int) never find a column: they give no rows.
    std::vector<std::string> types;
    if (list.is_string())
      for (const char32_t c : text::to_u32(list.get<std::string>())) types.push_back(text::to_utf8(c));
    else if (list.is_object())
      for (const auto& [key, v] : list.items()) types.push_back(key);
    else if (list.is_array())
      for (const auto& v : list) {
        if (v.is_string()) types.push_back(v.get<std::string>());
      }
    else
      throw Error(ErrorCategory::config, "its instruction_types are not a list (" + text::python_repr(list) + ")");
    for (const auto& t : types) args["instruction_types"].push_back(t);
    if (types.empty()) args["instruction_types"] = YAML::Node(YAML::NodeType::Sequence);
  }
  if (uea["col_aliases"] && !uea["col_aliases"].IsNull()) {
    if (!uea["col_aliases"].IsMap()) throw Error(ErrorCategory::config, "its col_aliases are not a mapping");
    for (const auto& alias : uea["col_aliases"]) args["col_aliases"][alias.first.Scalar()] = alias.second.Scalar();
  }
  return args;
}

const datasets::HubSplitsDeclaration kInstructTtsEvalSplits{
    kClass, [](const registry::Args& args) { return std::vector<datasets::HubSplitRequest>{hub_split_of(args)}; }};

const datasets::DatasetClasses::Registration kUeaInstructTtsEvalClass{
    {registry::Kind::dataset, kClass,
     "UltraEval-Audio's InstructTTSEvalDataset: a split of InstructTTSEval from the Hub, a row per instruction type "
     "(APS, DSD, RP), as UEA's load() expands them",
     datasets::with_catalog_args(
         {arg::text("repo", kRepo, "the Hub dataset"),
          arg::text("split", "en", "the split ('': every split, one after the other)"),
          arg::texts("instruction_types", kInstructionTypes, "the columns read, in order: a row for each that is not null"),
          arg::map("col_aliases", "columns renamed, in order, after reference_audio: audio (UEA's merged col_aliases)",
                   false),
          arg::text("text_column", "text", "the field holding the reference (UEA's ref_col; '' for none)"),
          arg::text("revision", "main", "a branch, tag or commit (a commit never asks the network)"),
          arg::text("token_env", "HF_TOKEN", "environment variable holding the token for a gated copy"),
          arg::integer("limit", 0, "at most this many rows, the first once all are expanded (0: all)")}),
     {},
     {{"audio_evals.dataset.instruct_tts_eval.InstructTTSEvalDataset", uea_instruct_tts_eval}}},
    load};

}  // namespace

}  // namespace aeval::uea
