// The `rated_clips` dataset class: a CSV of listening-test ratings, one row per
// listener and clip (RELATE's scores/REL.csv), read as one sample per clip and
// text whose rating is the mean of its listeners' (as AQAScore evaluates
// RELATE; their sum too, which RELATE-Pair's pairs are formed on); a list
// already averaged per clip (PAM's scores.csv, its clips in a folder per
// system) is the case of one row each. DuckDB's CSV reader groups
// and averages; rows keep the order in which each clip first appears. With a
// reference system (PAM's real recordings, as AudioBERTScore evaluates it) each
// other clip gets its text's reference clip as `reference_audio`, and texts
// whose reference is rated too low are left out.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "datasets/dataset_source.hpp"
#include "datasets/table_reader.hpp"
#include "registry/args.hpp"

namespace aeval::datasets {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using pipeline::Sample;

namespace {

namespace fs = std::filesystem;

struct RatedClipsConfig {
  std::string audio_column = "wavname";
  std::string folder_column;  // PAM: the clip is FOLDER/NAME, the folder named by this column (the system)
  std::string audio_suffix;   // PAM: appended to the name (".wav")
  std::string text_column = "text";
  std::string rating_column = "score";
  std::string split_column = "in RELATE dataset";
  std::string split = "test";
  std::vector<std::string> systems;  // keep only these systems' clips (none: all)
  std::filesystem::path audio_dir;
  std::vector<std::pair<std::string, std::string>> rating_fields;  // more averaged ratings: field, column (PAM's OVL)
  std::string reference_system;     // its clip of a text is the others' reference_audio, not a sample itself
  double min_reference_rating = 0;  // texts whose reference clip rates lower are left out
};

// The clips of other systems, each with its text's reference clip; texts without one, or whose reference rates
// below the minimum, left out.
std::vector<Sample> with_references(std::vector<Sample> samples, const RatedClipsConfig& config, const fs::path& file) {
  std::map<std::string, const Sample*> reference_of;  // text → its reference clip
  for (const auto& s : samples)
    if (s.fields["system"] == config.reference_system && !reference_of.emplace(s.reference.value_or(""), &s).second)
      throw Error(ErrorCategory::data, fmt::format("{}: two {} clips for the text '{}'", file.string(),
                                                   config.reference_system, s.reference.value_or("")));
  std::vector<Sample> kept;
  for (auto& s : samples) {
    const auto reference = reference_of.find(s.reference.value_or(""));
    if (s.fields["system"] == config.reference_system || reference == reference_of.end() ||
        reference->second->fields["human_score"].get<double>() < config.min_reference_rating)
      continue;
    s.fields["reference_audio"] = reference->second->audio.string();
    kept.push_back(std::move(s));
  }
  if (kept.empty())
    throw Error(ErrorCategory::data, fmt::format("{}: no clip has a {} clip of its text rated {} or more", file.string(),
                                                 config.reference_system, config.min_reference_rating));
  return kept;
}

std::vector<Sample> read_rated_clips(const fs::path& file, const RatedClipsConfig& config) {
  const TableReader table = TableReader::csv(file);
  // Each named column must be there (the error lists those that are).
  table.column_index(config.audio_column, "audio_column");
  table.column_index(config.text_column, "text_column");
  table.column_index(config.rating_column, "rating_column");
  std::string audio = TableReader::quoted(config.audio_column);
  if (!config.folder_column.empty()) {
    table.column_index(config.folder_column, "folder_column");
    audio = fmt::format("{} || '/' || {}", TableReader::quoted(config.folder_column), audio);
  }
  if (!config.audio_suffix.empty()) audio = fmt::format("{} || {}", audio, TableReader::literal(config.audio_suffix));
  const std::string text = TableReader::quoted(config.text_column);
  std::string where;
  if (!config.split_column.empty()) {
    table.column_index(config.split_column, "split_column");
    where = fmt::format("WHERE {} = {}", TableReader::quoted(config.split_column), TableReader::literal(config.split));
  }
  // A rating that is not a number stops the read (TRY_CAST would hide it).
  std::string more;
  for (const auto& [field, column] : config.rating_fields) {
    table.column_index(column, "rating_fields");
    more += fmt::format(", CAST(avg(CAST({} AS DOUBLE)) AS VARCHAR)", TableReader::quoted(column));
  }
  const std::string sql = fmt::format(
      "SELECT {0}, {1}, CAST(avg(CAST({2} AS DOUBLE)) AS VARCHAR), CAST(count(*) AS VARCHAR), "
      "CAST(sum(CAST({2} AS DOUBLE)) AS VARCHAR){5} "
      "FROM (SELECT *, row_number() OVER () AS line FROM {3}) {4} GROUP BY {0}, {1} ORDER BY min(line)",
      audio, text, TableReader::quoted(config.rating_column), table.source(), where, more);
  const fs::path& audio_dir = config.audio_dir;
  std::vector<Sample> samples;
  table.query(sql, [&](TableRow& row) {
    if (!row[0] || row[0]->empty() || !row[1] || !row[2])
      throw Error(ErrorCategory::data, fmt::format("{}: a row without audio, text or rating", file.string()));
    // RELATE names clips from the archive's root ("/tango2/test/1.wav"): the first folder is the system.
    const fs::path name = fs::path(*row[0]).relative_path();
    const std::string system = name.begin() == name.end() ? "" : name.begin()->string();
    if (!config.systems.empty() && std::find(config.systems.begin(), config.systems.end(), system) == config.systems.end())
      return;
    Sample sample;
    sample.id = fmt::format("{}|{}", name.string(), *row[1]);
    sample.audio = audio_dir / name;
    sample.reference = *row[1];
    sample.fields = {{"human_score", std::stod(*row[2])},
                     {"ratings", std::stoi(*row[3])},
                     {"human_score_sum", std::stod(*row[4])},
                     {"system", system}};
    for (std::size_t k = 0; k < config.rating_fields.size(); ++k)
      sample.fields[config.rating_fields[k].first] = row[5 + k] ? nlohmann::json(std::stod(*row[5 + k])) : nlohmann::json();
    samples.push_back(std::move(sample));
  });
  if (!config.reference_system.empty()) samples = with_references(std::move(samples), config, file);
  if (samples.empty())
    throw Error(ErrorCategory::data,
                config.split_column.empty()
                    ? fmt::format("{}: no rows", file.string())
                    : fmt::format("{}: no rows with {} = '{}'", file.string(), config.split_column, config.split));
  return samples;
}

const RatedClipsConfig kDefaults;
const DatasetClasses::Registration kRatedClipsClass{
    {Kind::dataset, "rated_clips",
     "A CSV of listening-test ratings, a row per listener and clip (RELATE): a sample per clip and text, rated by "
     "the mean of its listeners (human_score; their sum in human_score_sum, their number in ratings)",
     [] {
       auto args = source_args("the ratings CSV");
       args.insert(args.end(),
                   {arg::text("audio_column", kDefaults.audio_column, "column with the clip's path in the audio folder"),
                    arg::text("folder_column", "", "column naming the clip's folder, when the path is FOLDER/NAME (PAM)"),
                    arg::text("audio_suffix", "", "appended to each clip's name (PAM: .wav)"),
                    arg::text("text_column", kDefaults.text_column, "column with the text rated against the clip"),
                    arg::text("rating_column", kDefaults.rating_column, "column with one listener's rating"),
                    arg::text("split_column", kDefaults.split_column, "column naming each row's split (\"\": none)"),
                    arg::text("split", kDefaults.split, "the split read"),
                    arg::texts("systems", {}, "keep only these systems' clips, the first folder of their paths (none: all)"),
                    arg::path("audio_dir", "", "the folder the clip paths are in (default: the CSV's folder)"),
                    arg::map("rating_fields", "{field: column}: more ratings averaged (PAM: {human_ovl: OVL})",
                             false),
                    arg::text("reference_system", "",
                              "a system whose clip of each text is the reference_audio of the others' (PAM: real)"),
                    arg::number("min_reference_rating", 0.0, "texts whose reference clip rates lower are left out")});
       return with_catalog_args(std::move(args));
     }()},
    [](const Args& args) {
      Dataset d;
      RatedClipsConfig config;
      const SourceLocation source = locate_source(args);
      config.audio_dir = audio_dir_arg(args, source.path.parent_path(), d.audio_dir_missing);
      config.audio_column = args.text("audio_column");
      config.folder_column = args.text("folder_column");
      config.audio_suffix = args.text("audio_suffix");
      config.text_column = args.text("text_column");
      config.rating_column = args.text("rating_column");
      config.split_column = args.text("split_column");
      config.split = args.text("split");
      config.systems = args.strings("systems");
      if (args.given("rating_fields"))
        for (const auto& item : args.node("rating_fields")) {
          if (!item.first.IsScalar() || !item.second.IsScalar()) args.fail("rating_fields: each is a field and a column");
          config.rating_fields.emplace_back(item.first.as<std::string>(), item.second.as<std::string>());
        }
      config.reference_system = args.text("reference_system");
      config.min_reference_rating = args.number("min_reference_rating");
      d.name = args.entry().name;
      d.samples = read_rated_clips(source.path, config);
      d.description = source.description;
      d.description["class"] = "rated_clips";
      d.description["ratings"] = source.path.string();
      d.description["split"] = config.split;
      d.description["samples"] = d.samples.size();
      return d;
    }};

}  // namespace

}  // namespace aeval::datasets
