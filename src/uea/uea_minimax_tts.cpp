// UltraEval-Audio's MiniMaxTTSDataset (audio_evals/dataset/minimax_tts.py, UEA 9b69da6): the MiniMax
// multilingual TTS test set (MiniMaxAI/TTS-Multilingual-Test-Set), text files and MP3s fetched one by one
// from the Hub, rows as UEA's load() builds them, in its order, with its keys (WavPath, prompt_audio,
// prompt_text, text, ans, language, speaker) and its quirks:
// * text/<language>.txt and speaker/prompt_text.txt are read as Python reads a UTF-8 file line by line
//   (universal newlines), each line str.strip()ped; a line without '|' is skipped, the rest split on the
//   first '|', both halves stripped;
// * "Only one speaker needed for language L" (UEA's ValueError) when, after reading L, the speakers of the
//   languages read so far are exactly one;
// * a speaker's voice is the first .mp3 directly in speaker/<label before its last '_'>/<label> (UEA's
//   non-recursive list_repo_tree, in the Hub's order); a folder without one leaves that speaker's rows out
//   (UEA's warning, a note here), a folder the repository lacks is UEA's EntryNotFoundError;
// * prompt_text is looked up by the MP3's file name: a name prompt_text.txt lacks is UEA's KeyError, here a
//   data error naming it. prompt_text.txt itself is read in a try block whose failure UEA only logs: a missing
//   file leaves no prompt texts, and bytes that are not UTF-8 keep the lines Python read before it raised
//   (it decodes 8192-byte chunks);
// * `limit` keeps the first rows once all are built; rows are numbered from 0 (UEA's EvalTask numbers them);
// * col_aliases are accepted and unused, as UEA's load() never applies them.
// The reference is the ref_col column's value (WavPath for UEA's entries: the voice's MP3, which is also the
// sample's audio; UEA's evaluators read it from the row, as `aeval uea run` binds them).
// Files come through aeval's Hub client and cache (datasets/hub_client.hpp, datasets/hub_split.hpp): the
// revision resolves to a commit once (refs/), every file is verified and cached in the commit's snapshot, and
// the listing of speaker/ is kept beside it, so a later run needs no network (HF_HUB_OFFLINE=1).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "aeval/text/unicode.hpp"
#include "aeval/text/utf8.hpp"
#include "datasets/dataset.hpp"
#include "datasets/hub_client.hpp"
#include "datasets/hub_split.hpp"
#include "registry/args.hpp"
#include "registry/classes.hpp"
#include "registry/registry.hpp"
#include "util/atomic_file.hpp"
#include "util/sha256.hpp"

namespace aeval::uea {

namespace {

namespace fs = std::filesystem;
namespace arg = registry::arg;
using Json = nlohmann::json;

constexpr const char* kClass = "uea_minimax_tts";
constexpr const char* kRepo = "MiniMaxAI/TTS-Multilingual-Test-Set";
constexpr const char* kPromptTexts = "speaker/prompt_text.txt";
const std::vector<std::string> kLanguages = {"arabic",   "cantonese",  "chinese", "czech",    "dutch",    "english",
                                             "finnish",  "french",     "german",  "greek",    "hindi",    "indonesian",
                                             "italian",  "japanese",   "korean",  "polish",   "portuguese", "romanian",
                                             "russian",  "spanish",    "thai",    "turkish",  "ukrainian", "vietnamese"};

// One line of a text file as Python's `for line in open(f, encoding="utf-8")` gives it (universal newlines:
// "\n", "\r\n" and a lone "\r" end a line), without its end; `end` is the byte after it.
struct TextLine {
  std::string text;
  std::size_t number = 0, end = 0;
  bool lone_cr = false;  // ended by a lone "\r"
};

std::vector<TextLine> python_lines(std::string_view bytes) {
  std::vector<TextLine> lines;
  std::size_t start = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] != '\n' && bytes[i] != '\r') continue;
    TextLine line{std::string(bytes.substr(start, i - start)), lines.size() + 1, 0, false};
    if (bytes[i] == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n')
      ++i;
    else
      line.lone_cr = bytes[i] == '\r';
    line.end = i + 1;
    lines.push_back(std::move(line));
    start = i + 1;
  }
  if (start < bytes.size()) lines.push_back({std::string(bytes.substr(start)), lines.size() + 1, bytes.size(), false});
  return lines;
}

// A line UEA keeps: stripped, with a '|', split on the first one, both halves stripped.
struct Pair {
  std::string left, right;
  std::size_t line = 0;
};
std::optional<Pair> pair_of(const TextLine& line) {
  const std::string stripped = text::strip(line.text);
  const auto bar = stripped.find('|');
  if (stripped.empty() || bar == std::string::npos) return std::nullopt;
  return Pair{text::strip(std::string_view(stripped).substr(0, bar)), text::strip(std::string_view(stripped).substr(bar + 1)),
              line.number};
}

// Where CPython's incremental UTF-8 decoder notices that the sequence starting at `start` is invalid: the
// first byte that no valid sequence can have there (the size of the text: only at the end, a truncated one).
std::size_t invalid_utf8_noticed_at(std::string_view bytes, std::size_t start) {
  const auto c = static_cast<unsigned char>(bytes[start]);
  std::size_t continuation = 0;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) continuation = 1;
  else if (c == 0xE0) continuation = 2, low = 0xA0;
  else if (c == 0xED) continuation = 2, high = 0x9F;
  else if (c >= 0xE1 && c <= 0xEF) continuation = 2;
  else if (c == 0xF0) continuation = 3, low = 0x90;
  else if (c == 0xF4) continuation = 3, high = 0x8F;
  else if (c >= 0xF1 && c <= 0xF3) continuation = 3;
  else return start;  // no sequence starts with this byte
  for (std::size_t k = 1; k <= continuation; ++k) {
    if (start + k >= bytes.size()) return bytes.size();
    const auto b = static_cast<unsigned char>(bytes[start + k]);
    if (b < (k == 1 ? low : 0x80) || b > (k == 1 ? high : 0xBF)) return start + k;
  }
  return start;
}

// How far Python's text reader had decoded `bytes` (UTF-8 from 0 to `invalid`, then not) when it raised:
// it decodes 8192-byte chunks, holding back a sequence a chunk ends inside, so the chunk in which the error
// is noticed gives nothing.
std::size_t decoded_before_error(std::string_view bytes, std::size_t invalid) {
  constexpr std::size_t kChunk = 8192;  // TextIOWrapper's _CHUNK_SIZE
  const std::size_t noticed = invalid_utf8_noticed_at(bytes, invalid);
  if (noticed >= bytes.size()) return invalid;  // raised at the end, by the final decode
  const std::size_t chunk_start = noticed / kChunk * kChunk;
  if (invalid < chunk_start) return invalid;  // the bad sequence was held back as a possible prefix
  // Valid up to chunk_start: a sequence the previous chunk ends inside is held back.
  if (chunk_start == 0) return 0;
  std::size_t lead = chunk_start - 1;  // the first byte of the last sequence before chunk_start
  while (lead > 0 && chunk_start - lead < 4 && (static_cast<unsigned char>(bytes[lead]) & 0xC0) == 0x80) --lead;
  const auto c = static_cast<unsigned char>(bytes[lead]);
  const std::size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  return lead + length > chunk_start ? lead : chunk_start;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCategory::data, fmt::format("{}: cannot read the file", path.string()));
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct Config {
  std::string name;  // the registry entry
  datasets::HubSplitRequest hub;
  std::vector<std::string> languages;
  std::string text_column;
  int limit = 0;
};

// The commit `revision` names: a commit is itself; a branch or tag asks the Hub once and is kept where the
// Hub datasets keep theirs (refs/REVISION), which offline (HF_HUB_OFFLINE) is all there is.
std::string resolve_commit(const datasets::HubClient& hub, const Config& c) {
  if (datasets::is_commit_id(c.hub.revision)) return c.hub.revision;
  const fs::path root = datasets::hub_cache_dir(c.hub.repo);
  const fs::path ref = root / "refs" / datasets::url_encode(c.hub.revision, false);
  if (hub.offline()) {
    std::string commit = fs::exists(ref) ? read_file(ref) : "";
    while (!commit.empty() && std::isspace(static_cast<unsigned char>(commit.back()))) commit.pop_back();
    if (!datasets::is_commit_id(commit))
      throw Error(ErrorCategory::network,
                  fmt::format("offline (HF_HUB_OFFLINE is set) and the revision of {}@{} is not in the cache ({}). {}",
                              c.hub.repo, c.hub.revision, root.string(), c.hub.prefetch_hint));
    return commit;
  }
  const std::string commit = hub.dataset_info(c.hub.repo, c.hub.revision)["sha"].get<std::string>();
  write_file_atomically(ref, commit + "\n");
  return commit;
}

// Every file under speaker/ at `commit`, in the Hub's order: listed once, then kept in the snapshot.
std::vector<std::string> speaker_files(const datasets::HubClient& hub, const Config& c, const std::string& commit) {
  const fs::path root = datasets::hub_cache_dir(c.hub.repo);
  const fs::path kept = root / "snapshots" / commit / ".aeval" / kClass / "speaker-files.json";
  if (fs::exists(kept)) {
    const Json listed = Json::parse(read_file(kept), nullptr, false);
    if (listed.is_object() && listed.contains("files") && listed["files"].is_array()) {
      std::vector<std::string> files;
      for (const auto& f : listed["files"])
        if (f.is_string() && datasets::safe_repository_path(f.get<std::string>())) files.push_back(f.get<std::string>());
      return files;
    }
    fs::remove(kept);  // damaged: listed again
  }
  if (hub.offline())
    throw Error(ErrorCategory::network,
                fmt::format("offline (HF_HUB_OFFLINE is set) and the file listing of {}@{} is not in the cache ({}). {}",
                            c.hub.repo, commit.substr(0, 12), root.string(), c.hub.prefetch_hint));
  std::vector<std::string> files;
  for (const auto& f : hub.list_files(c.hub.repo, commit, ""))  // every path checked to stay in the repository
    if (f.path.rfind("speaker/", 0) == 0) files.push_back(f.path);
  write_file_atomically(kept, Json{{"files", files}}.dump(1) + "\n");
  return files;
}

// Repository files at `commit`, fetched into the snapshot and verified (the listing of what they are kept per
// set of paths, so that a later run, offline too, asks nothing); "" for a path the repository lacks.
std::vector<fs::path> fetch_files(const Config& c, const std::string& commit, const std::string& what,
                                  const std::vector<std::string>& paths) {
  datasets::HubSplitRequest r = c.hub;
  r.config = kClass;
  std::string joined;
  for (const auto& p : paths) joined += p + "\n";
  r.split = what + "-" + sha256_hex(joined).substr(0, 16);
  return datasets::fetch_hub_repository_files(r, commit, paths);
}

datasets::Dataset load(const registry::Args& args) {
  Config c;
  c.name = args.entry().name;
  c.hub.repo = args.text("repo");
  c.hub.revision = args.text("revision");
  c.hub.token_env = args.text("token_env");
  c.languages = args.strings("languages");
  c.text_column = args.text("text_column");
  c.limit = args.integer("limit");
  if (c.limit < 0) args.fail("limit must be 0 (all rows) or more");
  if (!datasets::safe_repository_path(c.hub.repo) || std::count(c.hub.repo.begin(), c.hub.repo.end(), '/') != 1)
    args.fail(fmt::format("repo '{}' is not a Hub dataset name (OWNER/NAME)", c.hub.repo));
  c.hub.prefetch_hint = fmt::format("On a machine with network run `aeval fetch dataset {}`, copy {} to the same place "
                                    "here and set HF_HUB_OFFLINE=1; or name a Hub mirror in HF_ENDPOINT",
                                    c.name, datasets::hub_cache_dir(c.hub.repo).string());
  const datasets::HubClient hub(c.hub.token_env);
  const fs::path root = datasets::hub_cache_dir(c.hub.repo);
  std::vector<std::string> read_paths = {kPromptTexts};
  for (const auto& language : c.languages) read_paths.push_back("text/" + language + ".txt");
  const auto network = [&](auto&& step) {
    try {
      return step();
    } catch (const Error& e) {
      // Without network: where the cache is and how to fill it.
      const std::string message = e.what();
      if (e.category() != ErrorCategory::network || message.find("cannot reach") == std::string::npos ||
          message.find(c.hub.prefetch_hint) != std::string::npos)
        throw;
      throw Error(ErrorCategory::network,
                  fmt::format("{} (cache folder {}). {}", e.what(), root.string(), c.hub.prefetch_hint));
    }
  };
  const std::string commit = network([&] { return resolve_commit(hub, c); });
  const std::string where = fmt::format("dataset '{}' ({}@{})", c.name, c.hub.repo, commit.substr(0, 12));
  // UEA downloads prompt_text.txt, then each language's text file.
  const std::vector<fs::path> text_files = network([&] { return fetch_files(c, commit, "text", read_paths); });

  std::vector<std::string> notes;
  // prompt_text.txt: file name -> prompt text. UEA reads it in a try block that only logs what fails.
  std::map<std::string, std::string> prompt_texts;
  std::string prompt_texts_missing;  // why there are none, when that is so
  if (text_files[0].empty()) {
    prompt_texts_missing = fmt::format("the repository has no {}", kPromptTexts);
    notes.push_back(fmt::format("{} (UltraEval-Audio logs 'Failed to load prompt_text.txt' and goes on)", prompt_texts_missing));
  } else {
    const std::string bytes = read_file(text_files[0]);
    std::size_t decoded = bytes.size();
    if (const auto invalid = text::first_invalid_utf8(bytes)) {
      decoded = decoded_before_error(bytes, *invalid);
      notes.push_back(fmt::format("{} is not UTF-8 at byte {}: UltraEval-Audio logs 'Failed to load prompt_text.txt' "
                                  "and keeps the prompt texts Python read before (the lines in its first {} bytes)",
                                  kPromptTexts, *invalid, decoded));
    }
    for (const auto& line : python_lines(bytes)) {
      // Python yields a line once its end is decoded; a "\r" that ends the decoded text waits for a "\n".
      if (line.end > decoded || (line.end == decoded && line.lone_cr && decoded < bytes.size())) break;
      if (const auto p = pair_of(line)) prompt_texts[p->left] = p->right;
    }
  }

  // The speakers the text files name, in the languages' order; UEA's ValueError when those read so far are one.
  std::vector<std::vector<Pair>> rows_of(c.languages.size());
  std::set<std::string> speakers;
  std::map<std::string, std::string> first_named;  // speaker -> "text/L.txt:LINE"
  for (std::size_t k = 0; k < c.languages.size(); ++k) {
    const std::string& path = read_paths[k + 1];
    if (text_files[k + 1].empty())
      throw Error(ErrorCategory::data, fmt::format("{}: the repository has no {} (language '{}'), which UltraEval-Audio's "
                                                   "hf_hub_download fails on (EntryNotFoundError)",
                                                   where, path, c.languages[k]));
    const std::string bytes = read_file(text_files[k + 1]);
    if (const auto invalid = text::first_invalid_utf8(bytes))
      throw Error(ErrorCategory::data, fmt::format("{}: {} is not UTF-8 at byte {}, which UltraEval-Audio fails on "
                                                   "(UnicodeDecodeError)", where, path, *invalid));
    for (const auto& line : python_lines(bytes))
      if (auto p = pair_of(line)) {
        speakers.insert(p->left);
        first_named.emplace(p->left, fmt::format("{}:{}", path, p->line));
        rows_of[k].push_back(std::move(*p));
      }
    if (speakers.size() == 1)
      throw Error(ErrorCategory::data,
                  fmt::format("{}: Only one speaker needed for language {} (UltraEval-Audio's ValueError: the languages "
                              "read so far, up to {}, name one speaker, '{}')",
                              where, c.languages[k], path, *speakers.begin()));
  }

  // Each speaker's voice: the first .mp3 directly in speaker/LANGUAGE/SPEAKER, LANGUAGE the label before its last '_'.
  const std::vector<std::string> speaker_listing =
      speakers.empty() ? std::vector<std::string>{} : network([&] { return speaker_files(hub, c, commit); });
  std::map<std::string, std::string> voice_path;  // speaker -> its MP3 in the repository
  std::set<std::string> voiceless;
  for (const auto& speaker : speakers) {
    const auto underscore = speaker.rfind('_');
    const std::string language = underscore == std::string::npos ? speaker : speaker.substr(0, underscore);
    const std::string folder = "speaker/" + language + "/" + speaker + "/";
    bool exists = false;
    for (const auto& path : speaker_listing) {
      if (path.rfind(folder, 0) != 0) continue;
      exists = true;
      const std::string name = path.substr(folder.size());
      if (name.find('/') == std::string::npos && name.ends_with(".mp3")) {
        voice_path[speaker] = path;
        break;
      }
    }
    if (!exists)
      throw Error(ErrorCategory::data,
                  fmt::format("{}: speaker '{}' ({}) has no folder {} in the repository, which UltraEval-Audio's "
                              "list_repo_tree fails on (EntryNotFoundError)",
                              where, speaker, first_named.at(speaker), folder.substr(0, folder.size() - 1)));
    if (!voice_path.count(speaker)) voiceless.insert(speaker);
  }
  std::vector<std::string> mp3_paths;
  for (const auto& [speaker, path] : voice_path) mp3_paths.push_back(path);
  std::map<std::string, fs::path> voice_file;
  if (!mp3_paths.empty()) {
    const auto local = network([&] { return fetch_files(c, commit, "voices", mp3_paths); });
    for (std::size_t k = 0; k < mp3_paths.size(); ++k) voice_file[mp3_paths[k]] = local[k];
  }

  datasets::Dataset d;
  d.name = c.name;
  std::map<std::string, std::size_t> left_out;  // speaker -> rows
  for (std::size_t k = 0; k < c.languages.size(); ++k)
    for (const Pair& p : rows_of[k]) {
      if (voiceless.count(p.left)) {
        ++left_out[p.left];
        continue;
      }
      const std::string& repository_path = voice_path.at(p.left);
      const std::string file_name = repository_path.substr(repository_path.rfind('/') + 1);
      const auto prompt = prompt_texts.find(file_name);
      if (prompt == prompt_texts.end())
        throw Error(ErrorCategory::data,
                    fmt::format("{}: {} has no prompt text for '{}', the voice of speaker '{}' ({}:{}), which "
                                "UltraEval-Audio fails on (KeyError){}",
                                where, kPromptTexts, file_name, p.left, read_paths[k + 1], p.line,
                                prompt_texts_missing.empty() ? "" : ": " + prompt_texts_missing));
      const std::string voice = voice_file.at(repository_path).string();
      pipeline::Sample s;
      s.id = std::to_string(d.samples.size());
      s.audio = voice;
      s.fields = Json{{"WavPath", voice}, {"prompt_audio", voice}, {"prompt_text", prompt->second}, {"text", p.right},
                      {"ans", p.right},   {"language", c.languages[k]}, {"speaker", p.left}};
      if (!c.text_column.empty() && s.fields.contains(c.text_column))
        s.reference = s.fields[c.text_column].get<std::string>();
      d.samples.push_back(std::move(s));
    }
  for (const auto& speaker : voiceless) {
    const auto underscore = speaker.rfind('_');
    notes.push_back(fmt::format("speaker '{}' has no .mp3 in speaker/{}/{}: its {} rows are left out, as "
                                "UltraEval-Audio leaves them out ('Speaker not found in speaker_map')",
                                speaker, underscore == std::string::npos ? speaker : speaker.substr(0, underscore),
                                speaker, left_out[speaker]));
  }
  if (c.limit > 0 && d.samples.size() > std::size_t(c.limit)) d.samples.resize(std::size_t(c.limit));
  d.notes = std::move(notes);
  Json files = read_paths;
  for (const auto& p : mp3_paths) files.push_back(p);
  d.description = {{"class", kClass},   {"repo", c.hub.repo},       {"revision", c.hub.revision},
                   {"commit", commit},  {"languages", c.languages}, {"files", files},
                   {"samples", d.samples.size()}};
  if (c.limit > 0) d.description["limit"] = c.limit;
  return d;
}

// UEA's MiniMaxTTSDataset(name, default_task, ref_col, col_aliases, language, languages), its defaults
// included: `language` (when truthy) is the one language, else `languages` (when truthy) as Python iterates
// it, else UEA's 24.
std::optional<YAML::Node> uea_minimax_tts(const YAML::Node& uea, const fs::path&) {
  for (const auto& item : uea) {
    const std::string key = item.first.Scalar();
    if (key != "name" && key != "default_task" && key != "ref_col" && key != "col_aliases" && key != "language" &&
        key != "languages")
      throw Error(ErrorCategory::config, "MiniMaxTTSDataset has no argument '" + key + "'");
  }
  const text::OrderedJson given = uea.IsMap() ? registry::yaml_as_python(uea) : text::OrderedJson::object();
  const auto truthy = [](const text::OrderedJson& v) {
    return !(v.is_null() || (v.is_boolean() && !v.get<bool>()) || (v.is_number() && v.get<double>() == 0) ||
             (v.is_string() && v.get<std::string>().empty()) || ((v.is_array() || v.is_object()) && v.empty()));
  };
  YAML::Node args;
  if (given.contains("name")) {
    if (!given["name"].is_string()) throw Error(ErrorCategory::config, "its name is not the name of a Hub dataset");
    args["repo"] = given["name"].get<std::string>();
  }
  const auto value = [&](const char* key) { return given.contains(key) ? given[key] : text::OrderedJson(); };
  std::vector<std::string> languages;
  if (truthy(value("language"))) {
    languages.push_back(text::python_str(value("language")));
  } else if (const auto list = value("languages"); truthy(list)) {
    if (list.is_string())  // a string iterates as its characters
      for (const char32_t c : text::to_u32(list.get<std::string>())) languages.push_back(text::to_utf8(c));
    else if (list.is_object())  // a dict as its keys
      for (const auto& [key, v] : list.items()) languages.push_back(key);
    else if (list.is_array())
      for (const auto& v : list) languages.push_back(text::python_str(v));
    else
      throw Error(ErrorCategory::config, "its languages are not a list (" + text::python_repr(list) + ")");
  }
  if (!languages.empty())
    for (const auto& l : languages) args["languages"].push_back(l);
  if (given.contains("ref_col"))  // the name --dataset_ref_col sets, as for Hub datasets
    args["text_column"] = given["ref_col"].is_null() ? std::string() : text::python_str(given["ref_col"]);
  // default_task: what UEA's main.py runs when no task is named, read from UEA's entry; col_aliases: unused by load().
  return args;
}

const datasets::DatasetClasses::Registration kUeaMinimaxTtsClass{
    {registry::Kind::dataset, kClass,
     "UltraEval-Audio's MiniMaxTTSDataset: the MiniMax multilingual TTS test set's text files and voices from the Hub, "
     "rows as UEA's load() builds them",
     datasets::with_catalog_args(
         {arg::text("repo", kRepo, "the Hub dataset (UEA's name)"),
          arg::texts("languages", kLanguages, "the languages read, in order: text/LANGUAGE.txt each"),
          arg::text("text_column", "text", "the column holding the reference (UEA's ref_col; '' for none)"),
          arg::text("revision", "main", "a branch, tag or commit (a commit never asks the network once cached)"),
          arg::text("token_env", "HF_TOKEN", "environment variable holding the token for a gated copy"),
          arg::integer("limit", 0, "at most this many rows, the first once all are built (0: all)")}),
     {},
     {{"audio_evals.dataset.minimax_tts.MiniMaxTTSDataset", uea_minimax_tts}}},
    load};

}  // namespace

}  // namespace aeval::uea
