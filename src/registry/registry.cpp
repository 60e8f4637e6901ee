#include "registry/registry.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <regex>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>

#include "aeval/error.hpp"
#include "aeval/text/utf8.hpp"
#include "registry/classes.hpp"
#include "registry/yaml_aliases.hpp"

namespace aeval::registry {

namespace {
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

// "file:line" of a parser mark; the file alone when yaml-cpp has no position.
std::string at(const std::filesystem::path& file, const YAML::Mark& mark) {
  return mark.is_null() ? file.string() : file.string() + ":" + std::to_string(mark.line + 1);
}

// YAML is UTF-8 without control characters but tab and line ends, and entries end up in strict JSON
// (provenance, summaries): other bytes fail here, with their line, not when a run ends. (yaml-cpp reads a
// NUL in a scalar as the byte 0xA0, which is not UTF-8: fuzz/findings/registry_yaml.)
void refuse_invalid_utf8(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto line_of = [&](std::size_t offset) {
    return 1 + std::count(bytes.begin(), bytes.begin() + std::ptrdiff_t(offset), '\n');
  };
  if (const auto bad = text::first_invalid_utf8(bytes))
    throw Error(ErrorCategory::config, fmt::format("{}:{}: not UTF-8 (byte offset {})", file.string(), line_of(*bad), *bad));
  const auto control = std::find_if(bytes.begin(), bytes.end(), [](char c) {
    return (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f;
  });
  if (control != bytes.end()) {
    const auto offset = static_cast<std::size_t>(control - bytes.begin());
    throw Error(ErrorCategory::config, fmt::format("{}:{}: a control character (byte 0x{:02X} at offset {}), which YAML does not allow",
                                                   file.string(), line_of(offset), static_cast<unsigned char>(*control), offset));
  }
}

YAML::Node load_file(const std::filesystem::path& file) {
  try {
    const YAML::Node document = YAML::LoadFile(file.string());
    refuse_runaway_aliases(document, file.string());
    return document;
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp 0.7 calls this "bad file"; say what it is.
    throw Error(ErrorCategory::config, at(file, e.mark) + ": malformed YAML: nested too deeply");
  } catch (const YAML::BadFile&) {
    throw Error(ErrorCategory::config, file.string() + ": cannot read the file");
  } catch (const YAML::Exception& e) {
    throw Error(ErrorCategory::config, at(file, e.mark) + ": malformed YAML: " + e.msg);
  }
}

// yaml-cpp keeps both of two equal keys and lookups see only the first, while
// loading takes the last: either way one of them is silently ignored.
void refuse_duplicate_keys(const YAML::Node& node, const std::filesystem::path& file) {
  if (node.IsSequence())
    for (const auto& item : node) refuse_duplicate_keys(item, file);
  if (!node.IsMap()) return;
  std::map<std::string, int> first_line;
  for (const auto& item : node) {
    if (item.first.IsScalar()) {
      const int line = item.first.Mark().line + 1;
      const auto [first, fresh] = first_line.emplace(item.first.Scalar(), line);
      if (!fresh)
        throw Error(ErrorCategory::config, fmt::format("{}:{}: '{}' is written twice in one map (first at line {})",
                                                       file.string(), line, item.first.Scalar(), first->second));
    }
    refuse_duplicate_keys(item.second, file);
  }
}
}  // namespace

const char* folder_name(Kind kind) {
  switch (kind) {
    case Kind::dataset: return "datasets";
    case Kind::prompt: return "prompts";
    case Kind::model: return "models";
    case Kind::post_process: return "post-process";
    case Kind::evaluator: return "evaluators";
    case Kind::aggregator: return "aggregators";
    case Kind::task: return "tasks";
  }
  return "";
}

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::dataset: return "dataset";
    case Kind::prompt: return "prompt";
    case Kind::model: return "model";
    case Kind::post_process: return "post-process";
    case Kind::evaluator: return "evaluator";
    case Kind::aggregator: return "aggregator";
    case Kind::task: return "task";
  }
  return "";
}

std::string Entry::where() const { return file.string() + ":" + std::to_string(line); }

namespace {

// The .yaml files of a folder, in name order; none when it does not exist.
std::vector<std::filesystem::path> yaml_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& f : std::filesystem::directory_iterator(dir))
    if (f.path().extension() == ".yaml" || f.path().extension() == ".yml") files.push_back(f.path());
  std::sort(files.begin(), files.end());
  return files;
}

// A map's keys are plain text (names, not lists or maps).
void refuse_structured_keys(const YAML::Node& map, const std::filesystem::path& file, const char* key_is) {
  for (const auto& item : map)
    if (!item.first.IsScalar())
      throw Error(ErrorCategory::config, at(file, item.first.Mark()) + ": " + key_is + " must be plain text");
}

// A registry file's top level: a map with plain-text keys and no key written twice.
YAML::Node read_map_file(const std::filesystem::path& file, const char* holds, const char* key_is) {
  refuse_invalid_utf8(file);
  const YAML::Node root = load_file(file);
  if (!root.IsMap())
    throw Error(ErrorCategory::config,
                fmt::format("{}: {}; this one {}", root.Mark().is_null() ? file.string() + ":1" : at(file, root.Mark()),
                            holds, root.IsSequence() ? "holds a list" : root.IsNull() ? "is empty" : "holds a single value"));
  refuse_duplicate_keys(root, file);
  refuse_structured_keys(root, file, key_is);
  return root;
}

// One `{class, args}` body, named `name`, written at `key` in `file`.
Entry read_entry(const std::string& name, const YAML::Node& key, const YAML::Node& body, const std::filesystem::path& file) {
  Entry entry;
  entry.name = name;
  entry.file = file;
  entry.line = key.Mark().line + 1;
  if (!body.IsMap() || !body["class"] || !body["class"].IsScalar())
    throw Error(ErrorCategory::config, entry.where() + ": entry '" + entry.name + "' needs a 'class'");
  entry.class_id = body["class"].as<std::string>();
  entry.args = body["args"] ? body["args"] : YAML::Node(YAML::NodeType::Map);
  if (!entry.args.IsMap())
    throw Error(ErrorCategory::config, entry.where() + ": 'args' of '" + entry.name + "' must be a map");
  for (const auto& arg : entry.args)
    if (!arg.first.IsScalar())
      throw Error(ErrorCategory::config, at(file, arg.first.Mark()) + ": an argument's name must be plain text");
  return entry;
}

// A benchmark file's `hub_schema`: the Hub split's columns and their feature types, in order.
void check_hub_schema(const YAML::Node& key, const YAML::Node& schema, const std::filesystem::path& file) {
  if (!schema.IsMap() || schema.size() == 0)
    throw Error(ErrorCategory::config, at(file, key.Mark()) + ": hub_schema maps each column to its type (audio, string, ...)");
  for (const auto& column : schema)
    if (!column.second.IsScalar())
      throw Error(ErrorCategory::config, at(file, column.first.Mark()) + ": column '" + column.first.Scalar() +
                                             "' of hub_schema needs one type (audio, string, int64, ...)");
}

}  // namespace

Registry::Registry(const std::vector<std::filesystem::path>& folders) : folders_(folders) {
  for (const auto& folder : folders) {
    if (!std::filesystem::is_directory(folder))
      throw Error(ErrorCategory::config, "registry folder " + folder.string() + " does not exist");
    // Later folders override earlier ones; within one folder a second definition is a mistake.
    std::map<Kind, std::map<std::string, std::string>> in_folder;  // kind → name → where this folder defines it
    const auto define = [&](Kind kind, Entry entry) {
      if (const auto [first, fresh] = in_folder[kind].emplace(entry.name, entry.where()); !fresh)
        throw Error(ErrorCategory::config, fmt::format("{}: {} '{}' is already defined at {}", entry.where(),
                                                       kind_name(kind), entry.name, first->second));
      entries_[kind][entry.name] = std::move(entry);
    };
    for (Kind kind : kAllKinds)
      for (const auto& file : yaml_files(folder / folder_name(kind)))
        for (const auto& item : read_map_file(file, "a registry file maps names to {class, args}", "an entry's name"))
          define(kind, read_entry(item.first.as<std::string>(), item.first, item.second, file));
    // benchmarks/NAME.yaml: one benchmark's entries of every kind, each named NAME, and under a kind
    // folder's name (datasets, tasks, ...) entries with names of their own, as a file of that folder
    // holds them: several tasks on one set, names that users' --set lines already spell.
    for (const auto& file : yaml_files(folder / kBenchmarksFolder)) {
      const std::string name = file.stem().string();
      for (const auto& item : read_map_file(file, "a benchmark file maps kinds (dataset, prompt, task, ...) to {class, args}",
                                             "a part's name")) {
        const std::string section = item.first.as<std::string>();
        if (section == "hub_schema") {
          check_hub_schema(item.first, item.second, file);
          continue;
        }
        const auto named = [&](Kind k) { return section == kind_name(k); };
        const auto folder_named = [&](Kind k) { return section == folder_name(k); };
        if (const auto kind = std::find_if(std::begin(kAllKinds), std::end(kAllKinds), named); kind != std::end(kAllKinds)) {
          define(*kind, read_entry(name, item.first, item.second, file));
        } else if (const auto many = std::find_if(std::begin(kAllKinds), std::end(kAllKinds), folder_named);
                   many != std::end(kAllKinds)) {
          if (!item.second.IsMap())
            throw Error(ErrorCategory::config, fmt::format("{}: '{}' maps names to {{class, args}}, as a file of "
                                                           "registry/{} does", at(file, item.first.Mark()), section, section));
          refuse_structured_keys(item.second, file, "an entry's name");
          for (const auto& entry : item.second) define(*many, read_entry(entry.first.Scalar(), entry.first, entry.second, file));
        } else {
          throw Error(ErrorCategory::config,
                      fmt::format("{}: '{}' is not a part of a benchmark (dataset, prompt, model, post-process, "
                                  "evaluator, aggregator, task, hub_schema; or datasets, tasks, ... for entries named "
                                  "otherwise)", at(file, item.first.Mark()), section));
        }
      }
    }
  }
  validate_registry(*this);
}

void Registry::set_argument(Kind kind, const std::string& name, const std::string& key, const YAML::Node& value) {
  get(kind, name);  // did-you-mean for an unknown name
  Entry& entry = entries_[kind][name];
  const YAML::Node before = entry.args;
  entry.args = YAML::Clone(entry.args);  // never write through to a node another entry shares
  entry.args.remove(key);                // a fresh key, so errors do not point at the line it replaces
  entry.args[key] = value;
  try {
    validate_registry(*this);
  } catch (...) {
    entry.args = before;  // a rejected assignment leaves the registry as it was
    throw;
  }
}

void Registry::add(Kind kind, Entry entry) {
  const std::string name = entry.name;
  // Replaced, never assigned into: assigning a YAML::Node writes through to every copy of the entry (a caller's
  // saved copy of the one it replaces, as a catalog task keeps its own evaluators beside UEA's of the same name).
  entries_[kind].erase(name);
  entries_[kind].emplace(name, std::move(entry));
}

void Registry::remove(Kind kind, const std::string& name) { entries_[kind].erase(name); }

bool Registry::contains(Kind kind, const std::string& name) const {
  auto it = entries_.find(kind);
  return it != entries_.end() && it->second.count(name);
}

const Entry& Registry::get(Kind kind, const std::string& name) const {
  if (!contains(kind, name))
    throw Error(ErrorCategory::config, std::string("unknown ") + kind_name(kind) + " '" + name + "'" +
                                           suggestion_suffix(name, names(kind)) +
                                           (kind == Kind::dataset ? manifest_hint(name) : "") + "; `aeval list " +
                                           folder_name(kind) + "` shows them all");
  return entries_.at(kind).at(name);
}

std::vector<std::string> Registry::names(Kind kind) const {
  std::vector<std::string> out;
  if (auto it = entries_.find(kind); it != entries_.end())
    for (const auto& [name, entry] : it->second) out.push_back(name);
  return out;
}

void apply_assignment(Registry& registry, const std::string& assignment) {
  const auto fail = [&](const std::string& why) {
    return Error(ErrorCategory::config, "--set " + assignment + ": " + why + " (expected NAME.ARG=VALUE, or NAME.ARG.KEY=VALUE for one key of a map)");
  };
  const auto equals = assignment.find('=');
  if (equals == std::string::npos) throw fail("no '='");
  std::string target = assignment.substr(0, equals);
  const std::string value = assignment.substr(equals + 1);
  std::optional<Kind> kind;
  if (const auto colon = target.find(':'); colon != std::string::npos) {
    const std::string kind_text = target.substr(0, colon);
    for (Kind k : kAllKinds)
      if (kind_text == kind_name(k)) kind = k;
    if (!kind) throw fail("unknown kind '" + kind_text + "'");
    target = target.substr(colon + 1);
  }
  const auto dot = target.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == target.size()) throw fail("no NAME.ARG");
  std::string name = target.substr(0, dot), key = target.substr(dot + 1);
  const auto matching = [&](const std::string& n) {
    std::vector<Kind> found;
    for (Kind k : kAllKinds)
      if ((!kind || *kind == k) && registry.contains(k, n)) found.push_back(k);
    return found;
  };
  std::vector<Kind> matches = matching(name);
  // NAME.ARG.KEY=VALUE: one key of a map argument (a UEA model's uea_args.path), the rest kept.
  std::string map_key;
  if (const auto outer = name.rfind('.'); matches.empty() && outer != std::string::npos && outer > 0) {
    if (const std::vector<Kind> found = matching(name.substr(0, outer)); found.size() == 1) {
      const YAML::Node current = registry.get(found.front(), name.substr(0, outer)).args[name.substr(outer + 1)];
      if (!current || current.IsMap()) {
        map_key = key;
        key = name.substr(outer + 1);
        name = name.substr(0, outer);
        matches = found;
      }
    }
  }
  if (matches.empty()) {
    std::vector<std::string> all;
    for (Kind k : kAllKinds)
      for (const auto& n : registry.names(k)) all.push_back(n);
    throw fail("no entry named '" + name + "'" + suggestion_suffix(name, all));
  }
  if (matches.size() > 1) throw fail("'" + name + "' names several kinds of entry; prefix the kind, e.g. model:" + name);
  YAML::Node parsed;
  try {
    parsed = YAML::Load(value);
    refuse_runaway_aliases(parsed, "VALUE");
  } catch (const YAML::Exception& e) {
    throw fail("VALUE is not valid YAML: " + e.msg);
  } catch (const Error& e) {
    throw Error(e.category(), "--set " + assignment + ": " + e.what());
  }
  if (!map_key.empty()) {
    const YAML::Node current = registry.get(matches.front(), name).args[key];
    YAML::Node map = current ? YAML::Clone(current) : YAML::Node(YAML::NodeType::Map);
    map[map_key] = parsed;
    parsed = map;
  }
  try {
    registry.set_argument(matches.front(), name, key, parsed);
  } catch (const Error& e) {
    throw Error(e.category(), "--set " + assignment + ": " + e.what());
  }
}

nlohmann::json yaml_to_json(const YAML::Node& node) {
  if (node.IsMap()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& item : node) out[item.first.as<std::string>()] = yaml_to_json(item.second);
    return out;
  }
  if (node.IsSequence()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : node) out.push_back(yaml_to_json(item));
    return out;
  }
  if (node.IsScalar()) return node.as<std::string>();
  return nullptr;
}

nlohmann::ordered_json yaml_as_python(const YAML::Node& node) {
  using Json = nlohmann::ordered_json;
  if (!node.IsDefined() || node.IsNull()) return nullptr;
  if (node.IsSequence()) {
    Json items = Json::array();
    for (const auto& item : node) items.push_back(yaml_as_python(item));
    return items;
  }
  if (node.IsMap()) {
    Json object = Json::object();
    for (const auto& item : node) object[item.first.Scalar()] = yaml_as_python(item.second);
    return object;
  }
  const std::string& s = node.Scalar();
  if (node.Tag() != "?") return s;  // quoted, or tagged: text
  // PyYAML's resolver (YAML 1.1): null, bool, int (with _ separators), float.
  static const std::regex null_re("~|null|Null|NULL|"), true_re("yes|Yes|YES|true|True|TRUE|on|On|ON"),
      false_re("no|No|NO|false|False|FALSE|off|Off|OFF"), int_re("[-+]?(0|[1-9][0-9_]*)"),
      float_re("[-+]?([0-9][0-9_]*)?\\.[0-9_]*([eE][-+][0-9]+)?"), inf_re("[-+]?\\.(inf|Inf|INF)"),
      nan_re("\\.(nan|NaN|NAN)");
  if (std::regex_match(s, null_re)) return nullptr;
  if (std::regex_match(s, true_re)) return true;
  if (std::regex_match(s, false_re)) return false;
  std::string digits = s;
  digits.erase(std::remove(digits.begin(), digits.end(), '_'), digits.end());
  if (std::regex_match(s, int_re)) {
    long long v = 0;
    const char* begin = digits.data() + (digits[0] == '+');
    if (std::from_chars(begin, digits.data() + digits.size(), v).ec == std::errc()) return v;
    return s;
  }
  if (std::regex_match(s, float_re) && s.find_first_of("0123456789") != std::string::npos) return std::stod(digits);
  if (std::regex_match(s, inf_re)) return s[0] == '-' ? -INFINITY : INFINITY;
  if (std::regex_match(s, nan_re)) return std::nan("");
  return s;
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

}  // namespace aeval::registry
