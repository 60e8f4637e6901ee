// The `librispeech` dataset class: a folder (or an archive) in LibriSpeech's
// own layout, SPEAKER/CHAPTER/SPEAKER-CHAPTER.trans.txt with one
// "UTTERANCE-ID TRANSCRIPT" line per utterance and UTTERANCE-ID.flac beside it.
#include <algorithm>
#include <fstream>
#include <string_view>
#include <unordered_map>

#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "datasets/dataset_source.hpp"
#include "registry/args.hpp"

namespace aeval::datasets {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using pipeline::Sample;

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTranscriptSuffix = ".trans.txt";

bool is_transcript(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.size() > kTranscriptSuffix.size() && name.ends_with(kTranscriptSuffix);
}

std::vector<fs::path> transcript_files(const fs::path& root) {
  if (!fs::is_directory(root))
    throw Error(ErrorCategory::data, root.string() + ": not a folder in LibriSpeech's layout");
  std::vector<fs::path> files;
  for (const auto& item : fs::recursive_directory_iterator(root))
    if (item.is_regular_file() && is_transcript(item.path())) files.push_back(item.path());
  if (files.empty())
    throw Error(ErrorCategory::data, root.string() +
                                         ": no SPEAKER/CHAPTER/SPEAKER-CHAPTER.trans.txt under it "
                                         "(not LibriSpeech's layout)");
  return files;
}

struct ReadTranscripts {
  std::vector<Sample> samples;
  std::size_t without_audio = 0;
};

// Utterances of one chapter; `seen` maps ids to where they were first read.
void read_transcript(const fs::path& file, const std::string& extension,
                     std::unordered_map<std::string, std::string>& seen, ReadTranscripts& out) {
  const std::string name = file.filename().string();
  const std::string chapter_key = name.substr(0, name.size() - kTranscriptSuffix.size());  // SPEAKER-CHAPTER
  const auto dash = chapter_key.find('-');
  if (dash == std::string::npos || dash == 0 || dash + 1 == chapter_key.size())
    throw Error(ErrorCategory::data, file.string() + ": not named SPEAKER-CHAPTER.trans.txt");
  const std::string speaker = chapter_key.substr(0, dash), chapter = chapter_key.substr(dash + 1);
  std::ifstream in(file);
  if (!in) throw Error(ErrorCategory::data, file.string() + ": cannot open");
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::string where = file.string() + ":" + std::to_string(number);
    const auto space = line.find(' ');
    const std::string id = line.substr(0, space);
    if (space == std::string::npos || !id.starts_with(chapter_key + "-") || id.size() == chapter_key.size() + 1)
      throw Error(ErrorCategory::data,
                  where + ": expected '" + chapter_key + "-UTTERANCE TRANSCRIPT', got '" + line + "'");
    if (const auto [first, inserted] = seen.emplace(id, where); !inserted)
      throw Error(ErrorCategory::data, where + ": duplicate id '" + id + "' (first at " + first->second + ")");
    Sample sample;
    sample.id = id;
    sample.audio = file.parent_path() / (id + "." + extension);
    sample.reference = line.substr(space + 1);
    sample.fields = {{"speaker_id", speaker}, {"chapter_id", chapter}};
    // Missing audio fails that sample alone, when it is decoded.
    if (!fs::exists(sample.audio)) ++out.without_audio;
    out.samples.push_back(std::move(sample));
  }
}

const DatasetClasses::Registration kLibriSpeechClass{
    {Kind::dataset, "librispeech",
     "LibriSpeech's own layout: SPEAKER/CHAPTER/SPEAKER-CHAPTER.trans.txt and UTTERANCE.flac, in a folder or archive",
     [] {
       auto args = source_args("the folder holding SPEAKER/CHAPTER/ folders (at any depth)");
       args.push_back(arg::text("extension", "flac", "audio file extension"));
       return with_catalog_args(std::move(args));
     }()},
    [](const Args& args) {
      const SourceLocation source = locate_source(args);
      const std::string extension = args.text("extension");
      ReadTranscripts read;
      std::unordered_map<std::string, std::string> seen;
      for (const auto& file : transcript_files(source.path)) read_transcript(file, extension, seen, read);
      std::sort(read.samples.begin(), read.samples.end(), [](const Sample& a, const Sample& b) { return a.id < b.id; });
      Dataset d;
      d.name = args.entry().name;
      d.samples = std::move(read.samples);
      if (read.without_audio > 0)
        d.notes.push_back(std::to_string(read.without_audio) + " transcript lines have no ." + extension +
                          " file beside them; those samples will fail");
      d.description = source.description;
      d.description["class"] = "librispeech";
      d.description["root"] = source.path.string();
      d.description["samples"] = d.samples.size();
      return d;
    }};

}  // namespace

}  // namespace aeval::datasets
