#include "uea/uea_registry.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "aeval/error.hpp"
#include "registry/registry.hpp"
#include "registry/yaml_aliases.hpp"

namespace aeval::uea {

namespace fs = std::filesystem;

std::string UeaEntry::where() const { return file.string() + ":" + std::to_string(line); }

namespace {

YAML::Node load_yaml(const fs::path& file) {
  try {
    const YAML::Node document = YAML::LoadFile(file.string());
    registry::refuse_runaway_aliases(document, file.string());
    return document;
  } catch (const YAML::BadFile&) {
    throw Error(ErrorCategory::config, file.string() + ": cannot read the file");
  } catch (const YAML::Exception& e) {
    throw Error(ErrorCategory::config,
                fmt::format("{}:{}: malformed YAML: {}", file.string(), e.mark.is_null() ? 1 : e.mark.line + 1, e.msg));
  }
}

// pathlib's sort order: by path components, each compared as text.
bool path_less(const fs::path& a, const fs::path& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [](const fs::path& x, const fs::path& y) { return x.string() < y.string(); });
}

}  // namespace

UeaRegistry::UeaRegistry(const fs::path& root, const std::vector<fs::path>& more) {
  if (fs::is_directory(root / "registry")) {
    root_ = root;
    registry_ = root / "registry";
  } else if (fs::is_directory(root / "prompt") || fs::is_directory(root / "eval_task")) {
    root_ = root.parent_path();
    registry_ = root;
  } else {
    throw Error(ErrorCategory::config,
                fmt::format("{} is not an UltraEval-Audio checkout (no registry/ folder in it)", root.string()));
  }
  load(registry_);
  for (const auto& folder : more) {
    if (!fs::is_directory(folder))
      throw Error(ErrorCategory::config, fmt::format("--registry_path {}: no such folder", folder.string()));
    load(folder);
  }
}

void UeaRegistry::load(const fs::path& registry_dir) {
  for (const char* kind : kKinds) {
    auto& entries = entries_[kind];
    const fs::path dir = registry_dir / kind;
    std::vector<fs::path> files;
    if (fs::is_directory(dir)) {
      for (const auto& f : fs::recursive_directory_iterator(dir))
        if (f.is_regular_file() && f.path().extension() == ".yaml") files.push_back(f.path());
    } else if (fs::is_regular_file(dir)) {
      files.push_back(dir);
    }
    std::sort(files.begin(), files.end(), path_less);
    for (const auto& file : files) {
      const YAML::Node document = load_yaml(file);
      if (!document.IsMap()) continue;  // UEA skips a file that holds no mapping
      for (const auto& item : document) {
        UeaEntry e;
        e.kind = kind;
        e.name = item.first.as<std::string>();
        e.file = file;
        e.line = item.first.Mark().line + 1;
        const YAML::Node& spec = item.second;
        if (!spec.IsMap())
          throw Error(ErrorCategory::config, fmt::format("{}: UltraEval-Audio entry '{}' is not a mapping", e.where(), e.name));
        for (const char* reserved : {"key", "group", "cls"})
          if (spec[reserved])
            throw Error(ErrorCategory::config,
                        fmt::format("{}: {} is a reserved keyword, but was used in {}", e.where(), reserved, e.name));
        if (spec["class"] && spec["class"].IsScalar()) e.class_path = spec["class"].Scalar();
        e.has_args = spec["args"].IsDefined();
        e.args = spec["args"] && spec["args"].IsMap() ? spec["args"] : YAML::Node(YAML::NodeType::Map);
        const auto [found, fresh] = entries.emplace(e.name, e);
        if (!fresh)
          throw Error(ErrorCategory::config, fmt::format("{}: duplicate entry: {} (first at {})", e.where(), e.name,
                                                         found->second.where()));
      }
    }
  }
}

const std::map<std::string, UeaEntry>& UeaRegistry::entries(const std::string& kind) const {
  const auto found = entries_.find(kind);
  if (found == entries_.end()) throw Error(ErrorCategory::internal, "no UltraEval-Audio kind '" + kind + "'");
  return found->second;
}

const UeaEntry& UeaRegistry::get(const std::string& kind, const std::string& name) const {
  const auto& all = entries(kind);
  const auto found = all.find(name);
  if (found != all.end()) return found->second;
  std::vector<std::string> names;
  for (const auto& [n, e] : all) names.push_back(n);
  throw Error(ErrorCategory::config, fmt::format("UltraEval-Audio has no {} '{}'{} in {}", kind, name,
                                                 registry::suggestion_suffix(name, names), registry_.string()));
}

bool UeaRegistry::has_python() const { return fs::is_directory(root_ / "audio_evals"); }

bool UeaRegistry::has_python_module(const std::string& class_path) const {
  const std::size_t last = class_path.rfind('.');
  if (last == std::string::npos) return false;
  std::string module = class_path.substr(0, last);
  std::replace(module.begin(), module.end(), '.', '/');
  return fs::is_regular_file(root_ / (module + ".py")) || fs::is_regular_file(root_ / module / "__init__.py");
}

}  // namespace aeval::uea
