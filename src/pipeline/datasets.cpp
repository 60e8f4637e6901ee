#include <map>

#include "aeval/download.hpp"
#include "aeval/error.hpp"
#include "aeval/pipeline/args.hpp"
#include "aeval/pipeline/asterisk_prompts.hpp"
#include "aeval/pipeline/components.hpp"
#include "aeval/pipeline/manifest.hpp"

namespace aeval::pipeline {

namespace {

Dataset from_manifest(const std::string& name, const std::filesystem::path& path, const ManifestFields& fields = {}) {
  if (!std::filesystem::exists(path)) throw Error(ErrorCategory::data, "manifest " + path.string() + " does not exist");
  Dataset d;
  d.name = name;
  d.samples = read_manifest(path, fields);
  d.description = {{"class", "jsonl"}, {"manifest", std::filesystem::absolute(path).string()},
                   {"samples", d.samples.size()}};
  return d;
}

}  // namespace

Dataset load_dataset(const Registry& registry, const std::string& name_or_path) {
  if (std::filesystem::path(name_or_path).extension() == ".jsonl") return from_manifest(name_or_path, name_or_path);

  const Entry& entry = registry.get(Kind::dataset, name_or_path);
  Args args(entry);  // validated against the catalog when the registry loaded
  if (entry.class_id == "jsonl") {
    std::filesystem::path path = args.required_string("path");
    ManifestFields fields;
    fields.id = args.string("id_field", fields.id);
    fields.audio = args.string("audio_field", fields.audio);
    fields.text = args.string("text_field", fields.text);
    if (path.is_relative()) path = entry.file.parent_path() / path;
    return from_manifest(entry.name, path, fields);
  }
  if (entry.class_id == "asterisk_prompts") {
    AsteriskPromptsConfig config;
    config.sounds_dir = args.string("sounds_dir", config.sounds_dir.string());
    config.transcripts = args.string("transcripts", config.transcripts.string());
    config.extension = args.string("extension", config.extension);
    const auto manifest = cache_dir() / "datasets" / entry.name / "manifest.jsonl";
    const AsteriskManifest built = build_asterisk_manifest(config, manifest);
    Dataset d;
    d.name = entry.name;
    d.samples = read_manifest(built.path);
    std::map<std::string, int> reasons;
    for (const auto& [id, reason] : built.skipped) ++reasons[reason];
    nlohmann::json skipped = nlohmann::json::object();
    std::string note = "skipped " + std::to_string(built.skipped.size()) + " prompts without a usable transcript (";
    bool first = true;
    for (const auto& [reason, count] : reasons) {
      skipped[reason] = count;
      note += (first ? "" : ", ") + std::to_string(count) + " " + reason;
      first = false;
    }
    d.notes.push_back(note + ")");
    d.description = {{"class", entry.class_id}, {"sounds_dir", config.sounds_dir.string()},
                     {"transcripts", config.transcripts.string()}, {"manifest", built.path.string()},
                     {"samples", d.samples.size()}, {"skipped", skipped}};
    return d;
  }
  throw Error(ErrorCategory::internal, entry.where() + ": dataset class '" + entry.class_id + "' has no loader");
}

}  // namespace aeval::pipeline
