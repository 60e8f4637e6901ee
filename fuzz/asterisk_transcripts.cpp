// The `asterisk_prompts` dataset source: the transcript list of Debian's
// asterisk-core-sounds-en (gzip or plain text, "name: transcript" lines)
// turned into a manifest next to the installed prompts, then read back as
// the dataset reads it.
#include "aeval/error.hpp"
#include "input_file.hpp"
#include "datasets/asterisk_prompts.hpp"
#include "datasets/manifest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  aeval::datasets::AsteriskPromptsConfig config;  // the installed prompts, so names can match audio files
  config.transcripts = aeval::fuzz::input_file("core-sounds-en.txt", data, size);
  try {
    const auto built = aeval::datasets::build_asterisk_manifest(config, aeval::fuzz::scratch_dir() / "manifest.jsonl");
    aeval::datasets::read_manifest(built.path);
  } catch (const aeval::Error&) {
  }
  return 0;
}
