// The `kaldi` dataset class: a Kaldi data directory. wav.scp maps recordings
// to audio files; optional `segments` cuts utterances out of them (the sample's
// audio is then "PATH#t=START,END", a W3C media fragment in seconds as
// written); `text` holds references and `utt2spk` speakers. Samples come in
// utterance-id order, as Kaldi sorts its files.
#include <algorithm>
#include <fstream>
#include <map>

#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "datasets/dataset_source.hpp"
#include "registry/args.hpp"

namespace aeval::datasets {

using registry::Args;
using registry::Kind;
using pipeline::Sample;

namespace {

namespace fs = std::filesystem;

struct Line {
  std::string where;                // file:line
  std::vector<std::string> fields;  // the key, then the rest (split as asked)
};

// Each non-empty line of a table keyed by its first word; `split_rest` splits
// the remainder into words, otherwise it stays one value (paths, transcripts).
std::map<std::string, Line> read_table(const fs::path& file, bool split_rest) {
  std::ifstream in(file);
  if (!in) throw Error(ErrorCategory::data, file.string() + ": cannot open");
  std::map<std::string, Line> table;
  std::string text;
  for (std::size_t number = 1; std::getline(in, text); ++number) {
    const std::string where = file.string() + ":" + std::to_string(number);
    const auto begin = text.find_first_not_of(" \t\r");
    if (begin == std::string::npos) continue;
    const auto end = text.find_last_not_of(" \t\r") + 1;
    const std::string content = text.substr(begin, end - begin);
    const auto key_end = content.find_first_of(" \t");
    Line line{where, {content.substr(0, key_end)}};
    if (key_end != std::string::npos) {
      const std::string rest = content.substr(content.find_first_not_of(" \t", key_end));
      if (!split_rest) {
        line.fields.push_back(rest);
      } else {
        for (std::size_t at = 0; at != std::string::npos;) {
          const auto word_end = rest.find_first_of(" \t", at);
          line.fields.push_back(rest.substr(at, word_end - at));
          at = rest.find_first_not_of(" \t", word_end == std::string::npos ? rest.size() : word_end);
        }
      }
    }
    const std::string key = line.fields.front();
    if (const auto [first, inserted] = table.emplace(key, std::move(line)); !inserted)
      throw Error(ErrorCategory::data, where + ": duplicate key '" + key + "' (first at " + first->second.where + ")");
  }
  return table;
}

// wav.scp's value: a file path. Commands (ending in '|') and offsets into
// Kaldi .ark files are Kaldi's own, which aeval does not run or read.
fs::path recording_path(const Line& line, const fs::path& folder) {
  if (line.fields.size() < 2) throw Error(ErrorCategory::data, line.where + ": expected 'RECORDING-ID PATH'");
  const std::string& value = line.fields[1];
  if (value.back() == '|')
    throw Error(ErrorCategory::data, line.where + ": '" + value +
                                         "' is a command, which aeval does not run; convert the audio to files "
                                         "first (e.g. wav-copy scp:wav.scp ark,scp:... or sox) and list their paths");
  if (const auto colon = value.rfind(':'); colon != std::string::npos && value.find(".ark") != std::string::npos &&
                                           colon + 1 < value.size() &&
                                           value.find_first_not_of("0123456789", colon + 1) == std::string::npos)
    throw Error(ErrorCategory::data, line.where + ": '" + value +
                                         "' is an offset into a Kaldi archive; convert the audio to files first "
                                         "(e.g. wav-copy) and list their paths");
  const fs::path path = value;
  return path.is_relative() ? folder / path : path;
}

// A segment time as written (kept verbatim in the locator), checked to be a number of seconds.
double seconds(const std::string& text, const std::string& where) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty())
    throw Error(ErrorCategory::data, where + ": '" + text + "' is not a time in seconds");
  return value;
}

Sample segment_sample(const Line& segment, const std::map<std::string, fs::path>& recordings) {
  const auto& f = segment.fields;
  if (f.size() != 4)
    throw Error(ErrorCategory::data, segment.where + ": expected 'UTTERANCE-ID RECORDING-ID START END'");
  const auto recording = recordings.find(f[1]);
  if (recording == recordings.end())
    throw Error(ErrorCategory::data, segment.where + ": recording '" + f[1] + "' is not in wav.scp");
  const double start = seconds(f[2], segment.where), end = seconds(f[3], segment.where);
  // Kaldi writes an end of -1 for "to the end of the recording"; the fragment then has no end.
  const bool to_end = end == -1;
  if (start < 0 || (!to_end && end <= start))
    throw Error(ErrorCategory::data, segment.where + ": the segment " + f[2] + ".." + f[3] + " is empty or negative");
  Sample sample;
  sample.id = f[0];
  sample.audio = recording->second.string() + "#t=" + f[2] + (to_end ? "" : "," + f[3]);
  sample.fields = {{"recording_id", f[1]}};
  return sample;
}

std::vector<Sample> read_kaldi_dir(const fs::path& folder) {
  if (!fs::is_regular_file(folder / "wav.scp"))
    throw Error(ErrorCategory::data, folder.string() + ": no wav.scp (not a Kaldi data directory)");
  std::map<std::string, fs::path> recordings;
  for (const auto& [id, line] : read_table(folder / "wav.scp", false))
    recordings.emplace(id, recording_path(line, folder));

  std::map<std::string, Sample> utterances;
  if (fs::exists(folder / "segments")) {
    for (const auto& [id, line] : read_table(folder / "segments", true))
      utterances.emplace(id, segment_sample(line, recordings));
  } else {
    for (const auto& [id, path] : recordings)
      utterances.emplace(id, Sample{id, path, std::nullopt, nlohmann::json::object()});
  }
  const auto attach = [&](const char* name, const auto& apply) {
    if (!fs::exists(folder / name)) return;
    for (const auto& [id, line] : read_table(folder / name, false)) {
      const auto utterance = utterances.find(id);
      if (utterance == utterances.end())
        throw Error(ErrorCategory::data, line.where + ": utterance '" + id + "' is in neither wav.scp nor segments");
      apply(utterance->second, line);
    }
  };
  attach("text", [](Sample& s, const Line& line) { s.reference = line.fields.size() > 1 ? line.fields[1] : ""; });
  attach("utt2spk", [](Sample& s, const Line& line) {
    if (line.fields.size() != 2) throw Error(ErrorCategory::data, line.where + ": expected 'UTTERANCE-ID SPEAKER-ID'");
    s.fields["speaker"] = line.fields[1];
  });
  std::vector<Sample> samples;
  samples.reserve(utterances.size());
  for (auto& [id, sample] : utterances) samples.push_back(std::move(sample));
  return samples;
}

const DatasetClasses::Registration kKaldiClass{
    {Kind::dataset, "kaldi", "A Kaldi data directory: wav.scp (file paths), optional segments, text and utt2spk",
     [] {
       auto args = source_args("the data directory (wav.scp, segments, text, utt2spk)");
       return with_catalog_args(std::move(args));
     }()},
    [](const Args& args) {
      const SourceLocation source = locate_source(args);
      Dataset d;
      d.name = args.entry().name;
      d.samples = read_kaldi_dir(source.path);
      d.description = source.description;
      d.description["class"] = "kaldi";
      d.description["folder"] = source.path.string();
      d.description["segments"] = fs::exists(source.path / "segments");
      d.description["samples"] = d.samples.size();
      return d;
    }};

}  // namespace

}  // namespace aeval::datasets
