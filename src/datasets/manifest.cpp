#include "datasets/manifest.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>

#include "aeval/error.hpp"
#include "util/repeated_ids.hpp"
#include "util/untrusted_json.hpp"

namespace aeval::datasets {

using pipeline::Sample;

namespace {
bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

// The line number of the manifest's row at `position` (blank lines hold no row).
std::size_t line_of_row(const std::filesystem::path& path, std::uint64_t position) {
  std::ifstream in(path);
  std::string line;
  std::size_t number = 0;
  for (std::uint64_t rows = 0; std::getline(in, line);) {
    ++number;
    if (!blank(line) && rows++ == position) break;
  }
  return number;
}
}  // namespace

SampleList read_manifest(const std::filesystem::path& path, const ManifestFields& fields) {
  std::ifstream in(path);
  if (!in) throw Error(ErrorCategory::data, path.string() + ": cannot open manifest");
  // Relative paths are the manifest's own: a link to it elsewhere does not move them.
  const std::filesystem::path folder =
      fields.audio_dir.empty() ? std::filesystem::canonical(path).parent_path() : fields.audio_dir;
  SampleList samples;
  RepeatedIds ids;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string where = path.string() + ":" + std::to_string(number);
    if (blank(line)) continue;
    nlohmann::json row;
    std::optional<std::string> unreadable;
    try {
      row = parse_untrusted_json(line);
    } catch (const JsonTooDeep& e) {  // the row without what nests too deep, so the sample keeps its id
      ShallowJson shallow = without_deep_members(line);
      row = shallow.value.is_object() ? std::move(shallow.value) : nlohmann::json::object();
      unreadable = shallow.left_out.empty()
                       ? fmt::format("{}: {}", where, e.what())
                       : fmt::format("{}: field '{}': {}", where, fmt::join(shallow.left_out, "', '"), e.what());
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for a number too large
      throw Error(ErrorCategory::data, where + ": malformed JSON (" + e.what() + ")");
    }
    if (!row.is_object()) throw Error(ErrorCategory::data, where + ": a manifest row must be a JSON object");
    for (const auto& name : {fields.audio, fields.text}) {
      // null is no value: the sample fails alone, as one without the field does.
      if (row.contains(name) && row[name].is_null()) row.erase(name);
      if (row.contains(name) && !row[name].is_string())
        throw Error(ErrorCategory::data, where + ": field '" + name + "' must be a string");
    }
    // The audio field and every *audio* field are paths relative to the manifest (the prompt sees them resolved).
    for (auto& [key, value] : row.items()) {
      if ((key != fields.audio && key.find("audio") == std::string::npos) || !value.is_string()) continue;
      const std::filesystem::path p = value.get<std::string>();
      if (!p.empty() && p.is_relative()) value = (folder / p).string();
    }
    Sample sample;
    if (row.contains(fields.id)) {
      const auto& id = row[fields.id];
      sample.id = id.is_string() ? id.get<std::string>() : id.dump();
    } else {
      sample.id = std::to_string(number);
    }
    ids.add(sample.id, samples.size());
    sample.audio = row.value(fields.audio, std::string());
    if (row.contains(fields.text)) sample.reference = row[fields.text].get<std::string>();
    sample.fields = std::move(row);
    sample.unreadable = std::move(unreadable);
    samples.push_back(sample);
  }
  if (const auto repeat = ids.first_repeat([&samples](std::uint64_t i) { return samples.id(i); }))
    throw Error(ErrorCategory::data,
                fmt::format("{}:{}: duplicate id '{}'", path.string(), line_of_row(path, repeat->again), repeat->id));
  return samples;
}

}  // namespace aeval::datasets
