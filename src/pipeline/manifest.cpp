#include "aeval/pipeline/manifest.hpp"

#include <fstream>
#include <unordered_set>

#include "aeval/error.hpp"

namespace aeval::pipeline {

std::vector<Sample> read_manifest(const std::filesystem::path& path, const ManifestFields& fields) {
  std::ifstream in(path);
  if (!in) throw Error(ErrorCategory::data, path.string() + ": cannot open manifest");
  std::vector<Sample> samples;
  std::unordered_set<std::string> ids;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string where = path.string() + ":" + std::to_string(number);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json row;
    try {
      row = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
      throw Error(ErrorCategory::data, where + ": malformed JSON (" + e.what() + ")");
    }
    if (!row.is_object()) throw Error(ErrorCategory::data, where + ": a manifest row must be a JSON object");
    for (const auto& name : {fields.audio, fields.text}) {
      if (!row.contains(name) || !row[name].is_string())
        throw Error(ErrorCategory::data, where + ": field '" + name + "' is missing or not a string");
    }
    Sample sample;
    if (row.contains(fields.id)) {
      const auto& id = row[fields.id];
      sample.id = id.is_string() ? id.get<std::string>() : id.dump();
    } else {
      sample.id = std::to_string(number);
    }
    if (!ids.insert(sample.id).second)
      throw Error(ErrorCategory::data, where + ": duplicate id '" + sample.id + "'");
    const std::filesystem::path audio = row[fields.audio].get<std::string>();
    sample.audio = audio.is_absolute() ? audio : path.parent_path() / audio;
    sample.reference = row[fields.text].get<std::string>();
    sample.fields = std::move(row);
    samples.push_back(std::move(sample));
  }
  return samples;
}

}  // namespace aeval::pipeline
