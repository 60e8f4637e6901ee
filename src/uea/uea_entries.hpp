#pragma once
// UltraEval-Audio entries as aeval entries. Each aeval class declares the UEA class
// paths it stands for (registry/classes.hpp, UeaClass); an entry whose class no aeval
// class declares, or whose arguments the declaring class refuses, is unsupported with
// its reason, never replaced by something else.
#include <optional>
#include <string>
#include <vector>

#include "registry/registry.hpp"
#include "uea/uea_registry.hpp"

namespace aeval::uea {

// The aeval kind of a UEA kind (eval_task is a task, process a post-process, agg an
// aggregator); nullopt for recorder, which aeval's run store replaces.
std::optional<registry::Kind> aeval_kind(const std::string& uea_kind);

struct Translation {
  std::optional<registry::Entry> entry;  // set when supported
  std::string reason;                    // why not: "unsupported: <class path> (...)"
};

// One entry, its own arguments checked against the aeval class (references to other
// entries are checked by translate_registry).
Translation translate(const UeaRegistry& uea, const UeaEntry& entry);

// Every entry of the folder: the supported ones in an aeval registry (validated,
// references included: an entry naming an unsupported one is unsupported too), and
// the reasons for the rest, by kind and name.
struct TranslatedRegistry {
  registry::Registry registry;
  std::map<std::string, std::map<std::string, std::string>> unsupported;  // uea kind → name → reason
};
TranslatedRegistry translate_registry(const UeaRegistry& uea);

// `registry` with every supported entry of the UEA folder at `uea_root` (and of the further registry
// folders main.py's --registry_path names) added (UEA's
// names win), validated: what `aeval uea run` and its --resume run with.
void add_uea_entries(registry::Registry& registry, const std::filesystem::path& uea_root,
                     const std::vector<std::filesystem::path>& registry_paths = {});

}  // namespace aeval::uea
