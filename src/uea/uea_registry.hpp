#pragma once
// An UltraEval-Audio registry folder read as UEA's own Registry reads it
// (audio_evals/registry.py): every *.yaml under registry/<kind>/, recursively, in
// sorted path order; each file maps entry names to {class, args}; a name defined
// twice in one kind, or an entry using a reserved key (key, group, cls), is an error.
// Entries are then translated into ordinary aeval entries (uea_entries.hpp).
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace aeval::uea {

// UEA's kinds, as its registry folders are named.
inline constexpr const char* kKinds[] = {"dataset", "prompt", "eval_task", "evaluator", "process", "agg", "model", "recorder"};

struct UeaEntry {
  std::string kind;        // one of kKinds
  std::string name;
  std::string class_path;  // "audio_evals.process.firstoption.FirstOption"
  YAML::Node args;         // a map (empty when the entry has none)
  bool has_args = false;   // UEA looks up spec["args"]: an entry without it cannot be built
  std::filesystem::path file;
  int line = 0;
  std::string where() const;  // "file:line"
};

class UeaRegistry {
 public:
  // `root` is a checkout (holding registry/ and audio_evals/) or a registry folder itself; `more` are
  // further registry folders read after it, as main.py's --registry_path adds them (a name in two of
  // them is UEA's duplicate-entry error). Throws aeval::Error (config) naming file and line for
  // malformed YAML and the errors above.
  explicit UeaRegistry(const std::filesystem::path& root, const std::vector<std::filesystem::path>& more = {});

  const std::filesystem::path& root() const { return root_; }          // the checkout, or the registry's parent
  const std::filesystem::path& registry_dir() const { return registry_; }
  // Every entry of a kind, by name.
  const std::map<std::string, UeaEntry>& entries(const std::string& kind) const;
  // The entry, or a config error with a did-you-mean.
  const UeaEntry& get(const std::string& kind, const std::string& name) const;
  // Whether UEA's own Python has the module a class path names (when the folder holds audio_evals/).
  bool has_python_module(const std::string& class_path) const;
  bool has_python() const;

 private:
  void load(const std::filesystem::path& registry_dir);

  std::filesystem::path root_, registry_;
  std::map<std::string, std::map<std::string, UeaEntry>> entries_;
};

}  // namespace aeval::uea
