#pragma once
// The registry: named YAML entries under <dir>/<kind>/*.yaml, each
// `name: {class: <registered id>, args: {...}}`, and benchmarks in one file each,
// <dir>/benchmarks/NAME.yaml: `kind: {class, args}` for each of its parts, all
// named NAME, and the `hub_schema` the tests serve. Later folders override
// earlier ones. Lookups of unknown names fail with a did-you-mean.
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace aeval::registry {

enum class Kind { dataset, prompt, model, post_process, evaluator, aggregator, task };
// The folder of benchmark files: NAME.yaml holds one benchmark's parts, each an entry named NAME.
inline constexpr const char* kBenchmarksFolder = "benchmarks";
inline constexpr Kind kAllKinds[] = {Kind::task,         Kind::dataset,   Kind::prompt,    Kind::model,
                                     Kind::post_process, Kind::evaluator, Kind::aggregator};
const char* folder_name(Kind kind);  // "datasets", "prompts", "models", "post-process", ...
const char* kind_name(Kind kind);    // "dataset", "model", "post-process", ...

struct Entry {
  std::string name;
  std::string class_id;
  YAML::Node args;  // a map, possibly empty
  std::filesystem::path file;
  int line = 0;
  std::string where() const;  // "file:line"
};

class Registry {
 public:
  // Loads every folder in order, then validates every entry against the class
  // declarations and every reference between entries (classes.hpp), so a typo fails
  // before any work. Throws aeval::Error (config) naming file and line.
  explicit Registry(const std::vector<std::filesystem::path>& folders);

  // An empty registry, for entries made elsewhere (UltraEval-Audio's, translated).
  Registry() = default;

  const Entry& get(Kind kind, const std::string& name) const;
  // Adds (or replaces) one entry without validating it: validate_entry or validate_registry next.
  void add(Kind kind, Entry entry);
  void remove(Kind kind, const std::string& name);
  bool contains(Kind kind, const std::string& name) const;
  std::vector<std::string> names(Kind kind) const;
  // --set overrides: replaces (or adds) one argument of one entry.
  void set_argument(Kind kind, const std::string& name, const std::string& key, const YAML::Node& value);
  const std::vector<std::filesystem::path>& folders() const { return folders_; }

 private:
  std::vector<std::filesystem::path> folders_;
  std::map<Kind, std::map<std::string, Entry>> entries_;
};

// A --set assignment "NAME.ARG=VALUE" (or "KIND:NAME.ARG=VALUE" when a name
// exists in several kinds); VALUE is YAML ("3", "true", "[a, b]").
void apply_assignment(Registry& registry, const std::string& assignment);

// An entry's YAML as JSON (scalars as strings), for provenance records.
nlohmann::json yaml_to_json(const YAML::Node& node);
// YAML as Python's yaml.safe_load reads it (UltraEval-Audio's files): plain scalars that
// YAML 1.1 resolves become null, booleans (yes/no/on/off too), integers or floats;
// quoted ones stay text; maps keep their order.
nlohmann::ordered_json yaml_as_python(const YAML::Node& node);

// The built-in registry: $AEVAL_REGISTRY_DIR, else the folder next to the
// installed binary's share dir, else the source tree's registry/.
std::filesystem::path builtin_registry_dir();

// The names closest to `name` (edit distance), best first, at most three.
std::vector<std::string> did_you_mean(const std::string& name, const std::vector<std::string>& candidates);
// " (did you mean: a, b?)" or "".
std::string suggestion_suffix(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace aeval::registry
