#include "aeval/pipeline/args.hpp"

#include "aeval/error.hpp"

namespace aeval::pipeline {

YAML::Node Args::fetch(const std::string& key) { return entry_.args[key]; }

void Args::fail(const std::string& key, const std::string& expected) const {
  throw Error(ErrorCategory::config, entry_.where() + ": argument '" + key + "' of '" + entry_.name +
                                         "' (class " + entry_.class_id + ") must be " + expected);
}

std::string Args::string(const std::string& key, const std::string& fallback) {
  const YAML::Node node = fetch(key);
  if (!node) return fallback;
  if (!node.IsScalar()) fail(key, "a string");
  return node.as<std::string>();
}

std::string Args::required_string(const std::string& key) {
  const YAML::Node node = fetch(key);
  if (!node) fail(key, "given (it is required)");
  if (!node.IsScalar()) fail(key, "a string");
  return node.as<std::string>();
}

bool Args::boolean(const std::string& key, bool fallback) {
  const YAML::Node node = fetch(key);
  if (!node) return fallback;
  try {
    return node.as<bool>();
  } catch (const YAML::Exception&) {
    fail(key, "true or false");
  }
}

int Args::integer(const std::string& key, int fallback) {
  const YAML::Node node = fetch(key);
  if (!node) return fallback;
  try {
    return node.as<int>();
  } catch (const YAML::Exception&) {
    fail(key, "an integer");
  }
}

double Args::number(const std::string& key, double fallback) {
  const YAML::Node node = fetch(key);
  if (!node) return fallback;
  try {
    return node.as<double>();
  } catch (const YAML::Exception&) {
    fail(key, "a number");
  }
}

std::vector<std::string> Args::strings(const std::string& key) {
  const YAML::Node node = fetch(key);
  if (!node) return {};
  if (node.IsScalar()) return {node.as<std::string>()};
  if (!node.IsSequence()) fail(key, "a list of names");
  std::vector<std::string> out;
  for (const auto& item : node) {
    if (!item.IsScalar()) fail(key, "a list of names");
    out.push_back(item.as<std::string>());
  }
  return out;
}

std::string Args::choice(const std::string& key, const std::string& fallback, std::initializer_list<const char*> allowed) {
  const std::string value = string(key, fallback);
  std::string listed;
  for (const char* a : allowed) {
    if (value == a) return value;
    listed.append(listed.empty() ? "" : ", ").append(a);
  }
  fail(key, "one of " + listed);
}

}  // namespace aeval::pipeline
