// The `audiocapbench` dataset class: AudioCapBench's 1,000 clips (seed 002) as its
// builder (audiocapbench/build_dataset.py) assembles them. Its publishers release
// lists of ids (eval_data_ids/*.csv) at a commit; the clips and their reference
// captions come from four Hub datasets, each row matched to the list by its key:
//   clotho     Clotho v2 test     audio_name   every caption of the clip (rows per caption), none: [""]
//   audiocaps  AudioCaps test     youtube_id (or file_name)   every caption of the clip
//   musiccaps  MusicCaps eval     ytid         the caption and the aspect list joined by ", " (the last row)
//   speech     emotional speech   transcript   the caption, and the caption + ' The speaker says: "…"'
// in that order, the first N ids of each list, a missing clip skipped (its id's number kept).
// Each sample's instruction is the one the evaluation script gives its position:
// CATEGORY_INSTRUCTIONS[category][position % 2], read from the pinned evaluate.py.
#include <fmt/format.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "aeval/text/unicode.hpp"
#include "datasets/dataset.hpp"
#include "datasets/dataset_source.hpp"
#include "datasets/hub_split.hpp"
#include "datasets/parquet_clips.hpp"
#include "datasets/table_reader.hpp"
#include "registry/args.hpp"

namespace aeval::datasets {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using pipeline::Sample;

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// How the builder turns a source's rows into one clip's references.
enum class Rows {
  every_caption,          // Clotho: a row per caption, empty ones left out
  every_caption_as_is,    // AudioCaps: a row per caption, each kept
  last_with_aspects,      // MusicCaps: the last row of an id, its caption and its aspect list
  first_with_transcript,  // speech: the first row of a transcript, its caption alone and with the transcript
};

struct Source {
  const char* name;      // in the entry's maps
  const char* category;  // sound, music or speech
  const char* list;      // eval_data_ids/NAME
  const char* key;       // the list's column, and the Hub rows' (audiocaps: or file_name)
  const char* split;     // of the Hub dataset
  const char* label;     // the builder's `source`
  int count;             // the builder's default number of ids
  Rows rows;
};

constexpr Source kSources[] = {
    {"clotho", "sound", "clotho_eval.csv", "audio_name", "test", "clotho_v2_test", 200, Rows::every_caption},
    {"audiocaps", "sound", "audiocaps_eval.csv", "youtube_id", "test", "audiocaps_test", 200, Rows::every_caption_as_is},
    {"musiccaps", "music", "musiccaps_eval.csv", "ytid", "train", "musiccaps_eval", 300, Rows::last_with_aspects},
    {"speech", "speech", "speech_eval.csv", "transcript", "train", "emo_speech_caption_test", 300,
     Rows::first_with_transcript}};

constexpr const char* kInstructionsFile = "audiocapbench/evaluate.py";

// A released file, fetched once and checked against the digest the entry pins.
fs::path released_file(const Args& args, const std::string& path) {
  const YAML::Node digests = args.node("sha256");
  if (!digests[path] || !digests[path].IsScalar()) args.fail(fmt::format("sha256 names no digest for {}", path));
  std::string base = args.text("release");
  if (!base.empty() && base.back() != '/') base += '/';
  return download_pinned(args.entry().name, base + path, digests[path].as<std::string>());
}

// The value of `name = {...}` in a Python file, read as ast.literal_eval reads the braces' text.
json python_assignment(const fs::path& file, const std::string& name) {
  std::ifstream in(file);
  const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto fail = [&](const std::string& why) {
    return Error(ErrorCategory::data, fmt::format("{}: cannot read {} ({})", file.string(), name, why));
  };
  const auto at = source.find("\n" + name + " = {");
  if (at == std::string::npos) throw fail("no such assignment");
  std::string text;  // the braces' text, comments left out (literal_eval reads expressions, not lines)
  int depth = 0;
  char quote = 0;
  for (std::size_t i = source.find('{', at); i < source.size(); ++i) {
    const char c = source[i];
    if (!quote && c == '#') {
      i = source.find('\n', i) - 1;
      continue;
    }
    text += c;
    if (quote) {
      if (c == '\\') text += source[++i];
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      const auto value = text::python_literal_eval(text);
      if (!value) throw fail("not a literal");
      return json::parse(value->dump());
    }
  }
  throw fail("unbalanced braces");
}

// The first `count` ids of a released list, stripped, empty ones left out (the builder's _load_csv_ids).
std::vector<std::string> listed_ids(const fs::path& file, const std::string& column, int count) {
  const TableReader table = TableReader::csv(file);
  table.column_index(column);
  std::vector<std::string> ids;
  table.scan({TableReader::quoted(column)}, [&](TableRow& row) {
    const std::string id = text::strip(row[0].value_or(""));
    if (!id.empty() && int(ids.size()) < count) ids.push_back(id);
  });
  return ids;
}

// What the builder keeps of one clip's rows.
struct Clip {
  std::string locator;
  std::vector<std::string> captions;
  json fields = json::object();
};

// MusicCaps' aspect_list as the builder joins it: a Python list literal's items by ", ", any other text as it is.
std::string aspect_text(const std::string& aspects) {
  if (aspects.rfind('[', 0) != 0) return aspects;
  const auto value = text::python_literal_eval(aspects);
  if (!value) return aspects;  // the builder keeps what it cannot evaluate
  if (!value->is_array()) return text::python_str(*value);
  std::vector<std::string> items;
  for (const auto& item : *value) items.push_back(text::python_str(item));
  return text::join(items, ", ");
}

// The rows of one Hub dataset that the list names, by key, as the builder collects them.
std::map<std::string, Clip> matched_clips(const Source& source, const HubSplit& split,
                                         const std::set<std::string>& wanted) {
  const TableReader table = TableReader::parquet(split.files);
  const auto has = [&](const char* column) { return table.column(column) != nullptr; };
  const auto text_of = [&](const char* column) {
    return has(column) ? "CAST(" + TableReader::quoted(column) + " AS VARCHAR)" : std::string("NULL::VARCHAR");
  };
  std::string key = TableReader::quoted(source.key);
  if (source.rows == Rows::every_caption_as_is && has("file_name"))  // row.get("youtube_id") or row.get("file_name")
    key = has("youtube_id") ? "coalesce(nullif(\"youtube_id\", ''), \"file_name\")" : "\"file_name\"";
  else
    table.column_index(source.key);
  table.column_index("audio");
  const std::string columns = fmt::format("CAST(file_row_number AS VARCHAR), CAST({} AS VARCHAR), {}, {}", key,
                                          text_of("caption"), text_of("aspect_list"));
  std::map<std::string, Clip> clips;
  for (const auto& file : split.files)
    table.query(fmt::format("SELECT {} FROM read_parquet({}, file_row_number = true) ORDER BY file_row_number", columns,
                            TableReader::literal(file.string())),
                [&](TableRow& row) {
                  const std::string id = row[1].value_or("");
                  if (!wanted.count(id)) return;
                  const std::string caption = row[2].value_or("");
                  const bool seen = clips.count(id) > 0;
                  if (source.rows == Rows::first_with_transcript && seen) return;
                  Clip& clip = clips[id];
                  if (!seen || source.rows == Rows::last_with_aspects)
                    clip.locator = parquet_clip_locator(file, std::stoull(*row[0]), "audio");
                  switch (source.rows) {
                    case Rows::every_caption:
                      if (!caption.empty()) clip.captions.push_back(caption);
                      break;
                    case Rows::every_caption_as_is:
                      clip.captions.push_back(caption);
                      break;
                    case Rows::last_with_aspects: {
                      clip.captions.clear();
                      if (!caption.empty()) clip.captions.push_back(caption);
                      const std::string aspects = row[3].value_or("");
                      if (!aspects.empty()) clip.captions.push_back(aspect_text(aspects));
                      clip.fields["aspect_list"] = aspects;
                      break;
                    }
                    case Rows::first_with_transcript:
                      if (!caption.empty()) clip.captions.push_back(caption);
                      clip.captions.push_back(fmt::format("{} The speaker says: \"{}\"", caption, id));
                      clip.fields.update({{"caption", caption}, {"transcript", id}});
                      break;
                  }
                });
  return clips;
}

// The four Hub splits its sources are read from.
std::vector<HubSplitRequest> hub_splits_of(const Args& args) {
  const YAML::Node repos = args.node("hub");
  std::vector<HubSplitRequest> requests;
  for (const auto& source : kSources) {
    if (!repos[source.name] || !repos[source.name].IsScalar())
      args.fail(fmt::format("hub names no dataset for {}", source.name));
    HubSplitRequest r{repos[source.name].as<std::string>(), "default", source.split,
                                args.text("revision"), args.text("token_env"), ""};
    r.prefetch_hint = fmt::format("On a machine with network run `aeval fetch dataset {}` and copy {} here",
                                  args.entry().name, dataset_cache_dir().string());
    requests.push_back(std::move(r));
  }
  return requests;
}

const HubSplitsDeclaration kAudioCapBenchSplits{"audiocapbench", hub_splits_of};

Dataset load_audiocapbench(const Args& args) {
  Dataset d;
  d.name = args.entry().name;
  const json instructions = python_assignment(released_file(args, kInstructionsFile), "CATEGORY_INSTRUCTIONS");
  const YAML::Node counts = args.node("counts");
  const auto requests = hub_splits_of(args);
  json description = {{"class", "audiocapbench"}, {"release", args.text("release")}, {"sources", json::object()}};
  std::size_t position = 0;
  for (std::size_t k = 0; k < requests.size(); ++k) {
    const Source& source = kSources[k];
    const std::string& repo = requests[k].repo;
    const int count = counts && counts[source.name] ? counts[source.name].as<int>() : source.count;
    const auto ids = listed_ids(released_file(args, std::string("eval_data_ids/") + source.list), source.key, count);
    const HubSplit split = fetch_hub_split(requests[k]);
    const auto clips = matched_clips(source, split, std::set<std::string>(ids.begin(), ids.end()));
    std::vector<std::string> missing;
    const json& choices = instructions.contains(source.category) ? instructions[source.category] : instructions["sound"];
    if (!choices.is_array() || choices.empty())
      throw Error(ErrorCategory::data, fmt::format("{}: CATEGORY_INSTRUCTIONS has no instructions for {}",
                                                   kInstructionsFile, source.category));
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const auto clip = clips.find(ids[i]);
      if (clip == clips.end()) {
        missing.push_back(ids[i]);
        continue;
      }
      Sample s;
      s.id = fmt::format("{}_{}", source.name, i);
      s.audio = clip->second.locator;
      s.fields = clip->second.fields;
      s.fields.update({{"category", source.category}, {"source", source.label}, {source.key, ids[i]},
                       {"captions", clip->second.captions.empty() ? std::vector<std::string>{""} : clip->second.captions},
                       {"instruction", choices[position % choices.size()]}});
      ++position;
      d.samples.push_back(std::move(s));
    }
    description["sources"][source.name] = {{"repo", repo}, {"split", source.split}, {"commit", split.commit},
                                           {"listed", ids.size()}, {"missing", missing.size()}};
    if (!missing.empty())
      d.notes.push_back(fmt::format("{}: {} of {} listed clips are not in {} (as the builder, they are left out; first: "
                                    "{})", source.name, missing.size(), ids.size(), repo, missing.front()));
  }
  description["samples"] = d.samples.size();
  d.description = std::move(description);
  return d;
}

const DatasetClasses::Registration kAudioCapBenchClass{
    {Kind::dataset, "audiocapbench",
     "AudioCapBench's clips as its builder assembles them: the released id lists matched to four Hub datasets "
     "(Clotho, AudioCaps, MusicCaps, emotional speech), reference captions and instructions per category",
     with_catalog_args(
         {arg::required_text("release", "where the release's files are, at its commit (raw files of the repository)"),
          arg::map("sha256", "{path in the release: SHA-256} for evaluate.py and the four id lists", true),
          arg::map("hub", "{clotho|audiocaps|musiccaps|speech: Hub dataset}", true),
          arg::map("counts", "{source: how many ids of its list} (default 200, 200, 300, 300: the builder's)", false),
          arg::text("revision", "main", "the Hub datasets' branch, tag or commit"),
          arg::text("token_env", "HF_TOKEN", "environment variable holding a Hub token")})},
    [](const Args& args) { return load_audiocapbench(args); }};

}  // namespace

}  // namespace aeval::datasets

