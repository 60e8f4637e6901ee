#pragma once
// Whisper's British→American spelling table (english.json). It is data, not
// code: aeval never ships it; it is read from a cache path, downloaded there
// on request (`aeval fetch whisper-spelling`, which verifies the digest below), and its absence is reported.
#include <filesystem>
#include <string>
#include <unordered_map>

namespace aeval::text {

struct SpellingTable {
  std::unordered_map<std::string, std::string> mapping;
  std::filesystem::path source;  // empty when no table was found
  std::string sha256;            // of the file as read

  bool available() const { return !source.empty(); }
};

// $AEVAL_WHISPER_SPELLING if set, else $XDG_CACHE_HOME/aeval/whisper/english.json
// (~/.cache when XDG_CACHE_HOME is unset).
std::filesystem::path default_spelling_table_path();

// Reads a JSON object of word → spelling. Throws aeval::Error (data) on malformed files.
SpellingTable read_spelling_table(const std::filesystem::path& path);

// The table at the default path, or an empty table when the file is absent.
SpellingTable load_spelling_table();

// Where the reference table lives upstream, and the digest it must have.
inline constexpr const char* kWhisperSpellingUrl =
    "https://raw.githubusercontent.com/openai/whisper/c0d2f624c09dc18e709e37c2ad90c039a4eb72a2/"
    "whisper/normalizers/english.json";
inline constexpr const char* kWhisperSpellingSha256 =
    "6607f948be9824d2e1b2fa2223cd94c06c45afa4e05ea0e3d5e1f2bdffde2465";

}  // namespace aeval::text
