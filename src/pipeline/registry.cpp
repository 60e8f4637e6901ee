#include "aeval/pipeline/registry.hpp"

#include <algorithm>
#include <cstdlib>

#include "aeval/error.hpp"

namespace aeval::pipeline {

namespace {
constexpr Kind kAllKinds[] = {Kind::dataset, Kind::model, Kind::post_process, Kind::evaluator, Kind::task};

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}
}  // namespace

const char* folder_name(Kind kind) {
  switch (kind) {
    case Kind::dataset: return "datasets";
    case Kind::model: return "models";
    case Kind::post_process: return "post-process";
    case Kind::evaluator: return "evaluators";
    case Kind::task: return "tasks";
  }
  return "";
}

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::dataset: return "dataset";
    case Kind::model: return "model";
    case Kind::post_process: return "post-process";
    case Kind::evaluator: return "evaluator";
    case Kind::task: return "task";
  }
  return "";
}

std::string Entry::where() const { return file.string() + ":" + std::to_string(line); }

Registry::Registry(const std::vector<std::filesystem::path>& folders) : folders_(folders) {
  for (const auto& folder : folders) {
    if (!std::filesystem::is_directory(folder))
      throw Error(ErrorCategory::config, "registry folder " + folder.string() + " does not exist");
    for (Kind kind : kAllKinds) {
      const auto dir = folder / folder_name(kind);
      if (!std::filesystem::is_directory(dir)) continue;
      std::vector<std::filesystem::path> files;
      for (const auto& f : std::filesystem::directory_iterator(dir))
        if (f.path().extension() == ".yaml" || f.path().extension() == ".yml") files.push_back(f.path());
      std::sort(files.begin(), files.end());
      for (const auto& file : files) {
        YAML::Node root;
        try {
          root = YAML::LoadFile(file.string());
        } catch (const YAML::Exception& e) {
          throw Error(ErrorCategory::config, file.string() + ":" + std::to_string(e.mark.line + 1) +
                                                 ": malformed YAML: " + e.msg);
        }
        if (!root.IsMap())
          throw Error(ErrorCategory::config, file.string() + ": a registry file maps names to {class, args}");
        for (const auto& item : root) {
          Entry entry;
          entry.name = item.first.as<std::string>();
          entry.file = file;
          entry.line = item.first.Mark().line + 1;
          const YAML::Node& body = item.second;
          if (!body.IsMap() || !body["class"] || !body["class"].IsScalar())
            throw Error(ErrorCategory::config, entry.where() + ": entry '" + entry.name + "' needs a 'class'");
          entry.class_id = body["class"].as<std::string>();
          entry.args = body["args"] ? body["args"] : YAML::Node(YAML::NodeType::Map);
          if (!entry.args.IsMap())
            throw Error(ErrorCategory::config, entry.where() + ": 'args' of '" + entry.name + "' must be a map");
          entries_[kind][entry.name] = entry;
        }
      }
    }
  }
}

bool Registry::contains(Kind kind, const std::string& name) const {
  auto it = entries_.find(kind);
  return it != entries_.end() && it->second.count(name);
}

const Entry& Registry::get(Kind kind, const std::string& name) const {
  if (!contains(kind, name))
    throw Error(ErrorCategory::config, std::string("unknown ") + kind_name(kind) + " '" + name + "'" +
                                           suggestion_suffix(name, names(kind)) +
                                           "; `aeval list " + folder_name(kind) + "` shows them all");
  return entries_.at(kind).at(name);
}

std::vector<std::string> Registry::names(Kind kind) const {
  std::vector<std::string> out;
  if (auto it = entries_.find(kind); it != entries_.end())
    for (const auto& [name, entry] : it->second) out.push_back(name);
  return out;
}

std::filesystem::path builtin_registry_dir() {
  if (const char* dir = std::getenv("AEVAL_REGISTRY_DIR"); dir && *dir) return dir;
  return AEVAL_REGISTRY_DIR;
}

std::vector<std::string> did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(name, c);
    // Close enough to be a typo, or one name containing the other.
    if (d <= std::max<std::size_t>(2, c.size() / 3) || c.find(name) != std::string::npos ||
        (!c.empty() && name.find(c) != std::string::npos))
      scored.emplace_back(d, c);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < 3; ++i) out.push_back(scored[i].second);
  return out;
}

std::string suggestion_suffix(const std::string& name, const std::vector<std::string>& candidates) {
  const auto best = did_you_mean(name, candidates);
  if (best.empty()) return "";
  std::string out = " (did you mean: ";
  for (std::size_t i = 0; i < best.size(); ++i) out += (i ? ", " : "") + best[i];
  return out + "?)";
}

}  // namespace aeval::pipeline
