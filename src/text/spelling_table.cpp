#include "aeval/text/spelling_table.hpp"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "util/sha256.hpp"
#include "aeval/error.hpp"

namespace aeval::text {

std::filesystem::path default_spelling_table_path() {
  if (const char* path = std::getenv("AEVAL_WHISPER_SPELLING"); path && *path) return path;
  return cache_dir() / "whisper" / "english.json";
}

SpellingTable read_spelling_table(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCategory::data, path.string() + ": cannot read spelling table");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  SpellingTable table;
  try {
    const auto json = nlohmann::json::parse(bytes);
    if (!json.is_object()) throw Error(ErrorCategory::data, path.string() + ": spelling table is not a JSON object");
    for (const auto& [word, spelling] : json.items()) table.mapping[word] = spelling.get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCategory::data, path.string() + ": malformed spelling table: " + e.what());
  }
  table.source = path;
  table.sha256 = sha256_hex(bytes);
  return table;
}

SpellingTable load_spelling_table() {
  const auto path = default_spelling_table_path();
  if (!std::filesystem::exists(path)) return {};
  return read_spelling_table(path);
}

}  // namespace aeval::text
