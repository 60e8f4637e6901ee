// Checks every registry entry against its class's declaration (classes.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "aeval/error.hpp"
#include "registry/classes.hpp"

namespace aeval::registry {

namespace {

// Where an argument was written: its line, or the entry's for one a --set added
// (apply_assignment names the --set in the error).
std::string line_of(const Entry& entry, const YAML::Node& key) {
  if (key.Mark().is_null()) return entry.where();
  return entry.file.string() + ":" + std::to_string(key.Mark().line + 1);
}

bool scalar_as(const YAML::Node& node, ArgType type) {
  if (!node.IsScalar()) return false;
  try {
    if (type == ArgType::boolean) node.as<bool>();
    if (type == ArgType::integer) node.as<long>();
    if (type == ArgType::number) node.as<double>();
  } catch (const YAML::Exception&) {
    return false;
  }
  return true;
}

void check_reference(const Registry& registry, const Entry& entry, const YAML::Node& key, const ArgSpec& spec,
                     const std::string& name) {
  if (*spec.refers_to == Kind::dataset && is_manifest_path(name)) return;
  if (registry.contains(*spec.refers_to, name)) return;
  throw Error(ErrorCategory::config,
              fmt::format("{}: '{}' of '{}' names {} '{}', which does not exist{}{}; `aeval list {}` shows them all",
                          line_of(entry, key), spec.name, entry.name, kind_name(*spec.refers_to), name,
                          suggestion_suffix(name, registry.names(*spec.refers_to)),
                          *spec.refers_to == Kind::dataset ? manifest_hint(name) : "", folder_name(*spec.refers_to)));
}

}  // namespace

void validate_entry(const Registry& registry, const Entry& entry, Kind kind) {
  const ClassSpec& spec = class_spec(entry, kind);
  std::vector<std::string> known;
  for (const auto& arg : spec.args) known.push_back(arg.name);
  for (const auto& item : entry.args) {
    const std::string key = item.first.as<std::string>();
    const ArgSpec* arg = spec.find(key);
    if (!arg)
      throw Error(ErrorCategory::config,
                  fmt::format("{}: unknown argument '{}' for class {}{}; `aeval describe {}` lists its arguments",
                              line_of(entry, item.first), key, spec.id, suggestion_suffix(key, known), entry.name));
    const YAML::Node& value = item.second;
    bool ok = true;
    switch (arg->type) {
      case ArgType::text:
      case ArgType::path:
      case ArgType::reference:
      case ArgType::boolean:
      case ArgType::integer:
      case ArgType::number:
        ok = scalar_as(value, arg->type);
        break;
      case ArgType::text_list:
      case ArgType::references:
        ok = value.IsScalar() || value.IsSequence();
        if (value.IsSequence())
          for (const auto& v : value) ok = ok && v.IsScalar();
        break;
      case ArgType::list:
        ok = value.IsSequence();
        break;
      case ArgType::map:
        ok = value.IsMap();
        break;
      case ArgType::structure:
        ok = value.IsScalar() || value.IsSequence() || value.IsMap();
        break;
    }
    if (!ok)
      throw Error(ErrorCategory::config, fmt::format("{}: argument '{}' of '{}' must be {}", line_of(entry, item.first),
                                                     key, entry.name, type_name(arg->type)));
    // .nan passes every range check, and JSON has no NaN or infinity: a request would send null.
    if (arg->type == ArgType::number && !std::isfinite(value.as<double>()))
      throw Error(ErrorCategory::config, fmt::format("{}: argument '{}' of '{}' must be a finite number, not {}",
                                                     line_of(entry, item.first), key, entry.name, value.Scalar()));
    if (!arg->choices.empty() && std::find(arg->choices.begin(), arg->choices.end(), value.as<std::string>()) == arg->choices.end())
      throw Error(ErrorCategory::config, fmt::format("{}: argument '{}' of '{}' must be one of {}", line_of(entry, item.first),
                                                     key, entry.name, fmt::join(arg->choices, ", ")));
    if ((arg->minimum || arg->maximum) && !arg->in_range(value.as<double>()))
      throw Error(ErrorCategory::config, fmt::format("{}: argument '{}' of '{}' must be {}, not {}",
                                                     line_of(entry, item.first), key, entry.name, arg->range_text(),
                                                     value.Scalar()));
    if (arg->type == ArgType::reference) check_reference(registry, entry, item.first, *arg, value.as<std::string>());
    if (arg->type == ArgType::references) {
      if (value.IsScalar()) check_reference(registry, entry, item.first, *arg, value.as<std::string>());
      else
        for (const auto& v : value) check_reference(registry, entry, item.first, *arg, v.as<std::string>());
    }
  }
  for (const auto& arg : spec.args)
    if (arg.required && !entry.args[arg.name])
      throw Error(ErrorCategory::config, fmt::format("{}: '{}' (class {}) needs argument '{}': {}", entry.where(),
                                                     entry.name, spec.id, arg.name,
                                                     arg.help.empty() ? type_name(arg.type) : arg.help));
}

void validate_registry(const Registry& registry) {
  for (Kind kind : kAllKinds)
    for (const auto& name : registry.names(kind)) validate_entry(registry, registry.get(kind, name), kind);
}

}  // namespace aeval::registry
