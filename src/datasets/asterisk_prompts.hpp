#pragma once
// The `asterisk-en` dataset: the studio voice prompts of Debian's
// asterisk-core-sounds-en-g722 package (16 kHz G.722) with the transcripts of
// asterisk-core-sounds-en, turned into a JSONL manifest on first use.
#include <filesystem>
#include <string>
#include <vector>

namespace aeval::datasets {

struct AsteriskPromptsConfig {
  std::string name = "asterisk-en";  // the dataset entry, for messages
  std::filesystem::path sounds_dir = "/usr/share/asterisk/sounds/en_US_f_Allison";
  std::filesystem::path transcripts = "/usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz";
  std::string extension = ".g722";
};

struct AsteriskManifest {
  std::filesystem::path path;
  std::size_t samples = 0;
  // Prompts left out, each with the reason (stage direction, no words, no audio file).
  std::vector<std::pair<std::string, std::string>> skipped;
};

// Writes the manifest to `manifest` (atomically) unless it already exists and
// is newer than the transcripts. Throws aeval::Error (data) naming the Debian
// package to install when the sources are missing.
AsteriskManifest build_asterisk_manifest(const AsteriskPromptsConfig& config, const std::filesystem::path& manifest);

// The reason a transcript cannot serve as an ASR reference, or "" when it can.
std::string unusable_transcript_reason(const std::string& transcript);

}  // namespace aeval::datasets
