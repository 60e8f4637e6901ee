#include "registry/args.hpp"

#include "aeval/error.hpp"

namespace aeval::registry {

namespace {

bool compatible(ArgType declared, ArgType asked) {
  if (declared == asked) return true;
  const auto textual = [](ArgType t) { return t == ArgType::text || t == ArgType::path || t == ArgType::reference; };
  const auto listed = [](ArgType t) { return t == ArgType::text_list || t == ArgType::references; };
  return (textual(declared) && textual(asked)) || (listed(declared) && listed(asked));
}

}  // namespace

const ArgSpec& Args::spec_of(const std::string& key, ArgType type) const {
  const ArgSpec* spec = spec_.find(key);
  if (!spec || !compatible(spec->type, type))
    throw Error(ErrorCategory::internal, "class " + spec_.id + " reads argument '" + key + "' as " + type_name(type) +
                                             ", which it does not declare so");
  return *spec;
}

void Args::fail(const std::string& message) const {
  throw Error(ErrorCategory::config, entry_.where() + ": '" + entry_.name + "' (class " + spec_.id + "): " + message);
}

bool Args::given(const std::string& key) const {
  if (!spec_.find(key)) throw Error(ErrorCategory::internal, "class " + spec_.id + " has no argument '" + key + "'");
  return bool(entry_.args[key]);
}

std::string Args::text(const std::string& key) const {
  const ArgSpec& spec = spec_of(key, ArgType::text);
  if (const YAML::Node node = entry_.args[key]) return node.as<std::string>();
  const auto* fallback = std::get_if<std::string>(&spec.default_value);
  return fallback ? *fallback : std::string();
}

std::filesystem::path Args::path(const std::string& key) const {
  std::filesystem::path p = text(key);
  if (!p.empty() && p.is_relative() && entry_.args[key]) p = entry_.file.parent_path() / p;
  return p;
}

bool Args::boolean(const std::string& key) const {
  const ArgSpec& spec = spec_of(key, ArgType::boolean);
  if (const YAML::Node node = entry_.args[key]) return node.as<bool>();
  return std::get<bool>(spec.default_value);
}

int Args::integer(const std::string& key) const {
  const ArgSpec& spec = spec_of(key, ArgType::integer);
  if (const YAML::Node node = entry_.args[key]) return node.as<int>();
  return int(std::get<long>(spec.default_value));
}

double Args::number(const std::string& key) const {
  const ArgSpec& spec = spec_of(key, ArgType::number);
  if (const YAML::Node node = entry_.args[key]) return node.as<double>();
  return std::get<double>(spec.default_value);
}

std::optional<int> Args::optional_integer(const std::string& key) const {
  spec_of(key, ArgType::integer);
  if (const YAML::Node node = entry_.args[key]) return node.as<int>();
  return std::nullopt;
}

std::optional<double> Args::optional_number(const std::string& key) const {
  spec_of(key, ArgType::number);
  if (const YAML::Node node = entry_.args[key]) return node.as<double>();
  return std::nullopt;
}

std::vector<std::string> Args::strings(const std::string& key) const {
  const ArgSpec& spec = spec_of(key, ArgType::text_list);
  const YAML::Node node = entry_.args[key];
  if (!node) {
    const auto* fallback = std::get_if<std::vector<std::string>>(&spec.default_value);
    return fallback ? *fallback : std::vector<std::string>();
  }
  if (node.IsScalar()) return {node.as<std::string>()};
  std::vector<std::string> out;
  for (const auto& item : node) out.push_back(item.as<std::string>());
  return out;
}

YAML::Node Args::node(const std::string& key) const {
  given(key);
  return entry_.args[key];
}

}  // namespace aeval::registry
