#include "cli/score_inputs.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "aeval/error.hpp"
#include "aeval/text/utf8.hpp"
#include "util/untrusted_json.hpp"

namespace aeval::cli {

std::vector<std::vector<std::string>> read_segments(const std::filesystem::path& path, const std::string& field) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCategory::data, path.string() + ": cannot open");
  const bool jsonl = path.extension() == ".jsonl";
  std::vector<std::vector<std::string>> segments;
  std::string line;
  std::size_t offset = 0;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string where = path.string() + ":" + std::to_string(number);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (const auto bad = text::first_invalid_utf8(line))
      throw Error(ErrorCategory::data, where + ": invalid UTF-8 at byte offset " + std::to_string(offset + *bad) +
                                           " of the file");
    offset += line.size() + 1;
    if (!jsonl) {
      segments.push_back({line});
      continue;
    }
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    nlohmann::json row;
    try {
      row = parse_untrusted_json(line);
    } catch (const JsonTooDeep& e) {
      throw Error(ErrorCategory::data, where + ": " + e.what());
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for a number too large
      throw Error(ErrorCategory::data, where + ": malformed JSON (" + e.what() + ")");
    }
    if (!row.is_object() || !row.contains(field))
      throw Error(ErrorCategory::data, where + ": no field '" + field + "' (choose one with --hyp-field/--ref-field)");
    const auto& value = row[field];
    std::vector<std::string> texts;
    if (value.is_string()) {
      texts.push_back(value.get<std::string>());
    } else if (value.is_number() || value.is_boolean()) {
      texts.push_back(value.dump());
    } else if (value.is_array() && std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_string(); })) {
      texts = value.get<std::vector<std::string>>();
    } else {
      throw Error(ErrorCategory::data, where + ": field '" + field + "' must be a string, a number or a list of strings");
    }
    segments.push_back(std::move(texts));
  }
  return segments;
}

ScoreInput read_score_input(const std::filesystem::path& hypotheses, const std::vector<std::filesystem::path>& references,
                            const std::string& hyp_field, const std::string& ref_field) {
  ScoreInput input;
  for (auto& texts : read_segments(hypotheses, hyp_field)) {
    if (texts.size() != 1)
      throw Error(ErrorCategory::data, hypotheses.string() + ": a hypothesis must be one text, not a list");
    input.hypotheses.push_back(std::move(texts.front()));
  }
  input.references.resize(input.hypotheses.size());
  for (const auto& path : references) {
    auto segments = read_segments(path, ref_field);
    if (segments.size() != input.hypotheses.size())
      throw Error(ErrorCategory::data, "reference file " + path.string() + " has " + std::to_string(segments.size()) +
                                           " segments but hypothesis file " + hypotheses.string() + " has " +
                                           std::to_string(input.hypotheses.size()));
    for (std::size_t i = 0; i < segments.size(); ++i)
      for (auto& t : segments[i]) input.references[i].push_back(std::move(t));
  }
  return input;
}

}  // namespace aeval::cli
