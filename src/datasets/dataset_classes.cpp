#include <fmt/format.h>

#include <map>

#include "util/sha256.hpp"
#include "aeval/error.hpp"
#include "registry/args.hpp"
#include "datasets/asterisk_prompts.hpp"
#include "datasets/dataset.hpp"
#include "datasets/dataset_source.hpp"
#include "datasets/hub_split.hpp"
#include "datasets/manifest.hpp"

namespace aeval::datasets {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::class_spec;
using registry::Entry;
using registry::is_manifest_path;
using registry::Kind;
using registry::Registry;

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

std::vector<ArgSpec> with_catalog_args(std::vector<ArgSpec> args) {
  args.insert(args.end(),
              {arg::reference("default_task", Kind::task, "", "task run when only this dataset is named"),
               arg::text("license", "", "the data's licence, as its publisher states it (e.g. CC-BY-4.0)"),
               arg::text("homepage", "", "where the dataset is described (paper or page)"),
               arg::text("size", "", "what a user downloads, as published (e.g. '2,620 utterances, 346 MB')")});
  return args;
}

std::filesystem::path dataset_cache_dir() { return cache_dir() / "datasets"; }

bool dataset_downloads(const Registry& registry, const std::string& name) {
  const Entry& entry = registry.get(Kind::dataset, name);
  return !hub_splits_read(Args(entry, class_spec(entry, Kind::dataset))).empty() ||
         (entry.args.IsMap() && entry.args["url"]);
}

Dataset load_dataset(const Registry& registry, const std::string& name_or_path) {
  if (is_manifest_path(name_or_path)) return from_manifest(name_or_path, name_or_path);
  return DatasetClasses::make(registry.get(Kind::dataset, name_or_path), Kind::dataset, registry);
}

namespace {

const ManifestFields kManifestDefaults;
const DatasetClasses::Registration kJsonlClass{
    {Kind::dataset, "jsonl", "A JSONL manifest: one sample per line (id, audio path relative to the file, text)",
     [] {
       auto args = source_args("the manifest");
       args.insert(args.end(),
                   {arg::text("id_field", kManifestDefaults.id, "field with the sample id (default: the line number)"),
                    arg::text("audio_field", kManifestDefaults.audio, "field with the audio path"),
                    arg::text("text_field", kManifestDefaults.text, "field with the reference text"),
                    arg::path("audio_dir", "",
                              "the folder relative audio paths are in (default: the manifest's; needed with `url`)")});
       return with_catalog_args(std::move(args));
     }()},
    [](const Args& args) {
      ManifestFields fields;
      fields.id = args.text("id_field");
      fields.audio = args.text("audio_field");
      fields.text = args.text("text_field");
      // A downloaded list's audio is never beside it in the cache: its folder must be given.
      const SourceLocation source = locate_source(args);
      std::string missing;
      fields.audio_dir = audio_dir_arg(args, {}, missing);  // not given: the manifest's own folder
      Dataset d = from_manifest(args.entry().name, source.path, fields);
      d.audio_dir_missing = missing;
      if (!args.text("url").empty()) d.description.update(source.description);
      return d;
    }};

const AsteriskPromptsConfig kAsteriskDefaults;
const DatasetClasses::Registration kAsteriskClass{
    {Kind::dataset, "asterisk_prompts",
     "The Asterisk voice prompts with their published transcripts (Debian packages)",
     with_catalog_args({arg::path("sounds_dir", kAsteriskDefaults.sounds_dir.string(), "folder of prompt audio"),
      arg::path("transcripts", kAsteriskDefaults.transcripts.string(), "the transcript list"),
      arg::text("extension", kAsteriskDefaults.extension, "audio file extension")})},
    [](const Args& args) {
      const Entry& entry = args.entry();
      AsteriskPromptsConfig config;
      config.name = entry.name;
      config.sounds_dir = args.path("sounds_dir");
      config.transcripts = args.path("transcripts");
      config.extension = args.text("extension");
      const auto manifest = source_cache_dir(entry.name) / "manifest.jsonl";
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
    }};

}  // namespace

}  // namespace aeval::datasets
