#include "datasets/asterisk_prompts.hpp"

#include <set>

#include <zlib.h>

#include <nlohmann/json.hpp>

#include "util/atomic_file.hpp"
#include "aeval/error.hpp"
#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::datasets {

namespace {

std::vector<std::string> read_gzip_lines(const std::filesystem::path& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) throw Error(ErrorCategory::data, path.string() + ": cannot open");
  std::vector<std::string> lines;
  std::string current;
  char buffer[4096];
  int n = 0;
  while ((n = gzread(file, buffer, sizeof buffer)) > 0) {
    for (int i = 0; i < n; ++i) {
      if (buffer[i] == '\n') {
        lines.push_back(current);
        current.clear();
      } else {
        current += buffer[i];
      }
    }
  }
  const bool failed = n < 0;
  gzclose(file);
  if (failed) throw Error(ErrorCategory::data, path.string() + ": corrupt gzip data");
  if (!current.empty()) lines.push_back(current);
  return lines;
}

}  // namespace

std::string unusable_transcript_reason(const std::string& transcript) {
  static const text::Regex bracketed(R"([<\[][^>\]]*[>\]])");
  static const text::Regex word_character(R"(\w)");
  // "[ascending tones]" is a stage direction, but "dash [-]" is a spoken
  // word with an annotation: only text outside brackets counts.
  if (word_character.search(bracketed.sub(transcript, ""))) return "";
  return bracketed.search(transcript) ? "stage direction only" : "no words";
}

AsteriskManifest build_asterisk_manifest(const AsteriskPromptsConfig& config, const std::filesystem::path& manifest) {
  if (!std::filesystem::exists(config.transcripts))
    throw Error(ErrorCategory::data, config.name + ": transcripts " + config.transcripts.string() +
                                         " are missing (Debian's asterisk-core-sounds-LANG: scripts/setup.sh installs them)");
  if (!std::filesystem::is_directory(config.sounds_dir))
    throw Error(ErrorCategory::data, config.name + ": prompts folder " + config.sounds_dir.string() +
                                         " is missing (Debian's asterisk-core-sounds-LANG-g722: scripts/setup.sh installs "
                                         "them)");

  AsteriskManifest result;
  result.path = manifest;
  std::string rows;
  std::set<std::string> listed;
  for (const std::string& raw : read_gzip_lines(config.transcripts)) {
    const std::string line = text::strip(raw);
    if (line.empty() || line[0] == ';') continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string name = text::strip(line.substr(0, colon));
    const std::string transcript = text::strip(line.substr(colon + 1));
    const std::filesystem::path audio = config.sounds_dir / (name + config.extension);
    std::string reason = unusable_transcript_reason(transcript);
    // Spanish lists digits/0 twice ("cero", then "diez"): the file is one, its first transcript stays.
    if (reason.empty() && !listed.insert(name).second) reason = "listed twice (its first transcript kept)";
    std::error_code unreadable;  // e.g. a name too long for a file: no such prompt either
    if (reason.empty() && !std::filesystem::exists(audio, unreadable)) reason = "no audio file";
    if (!reason.empty()) {
      result.skipped.emplace_back(name, reason);
      continue;
    }
    rows += nlohmann::json{{"id", name}, {"audio", audio.string()}, {"text", transcript}}.dump() + "\n";
    ++result.samples;
  }

  write_file_atomically(manifest, rows);
  return result;
}

}  // namespace aeval::datasets
