#pragma once
// Typed access to a registry entry's arguments. The registry checked them
// against the class's declaration when it loaded, so every accessor returns
// the value written or the declared default; asking for an argument the class
// does not declare is a bug in aeval, not in the YAML.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "registry/classes.hpp"

namespace aeval::registry {

class Args {
 public:
  Args(const Entry& entry, const ClassSpec& spec) : entry_(entry), spec_(spec) {}

  const Entry& entry() const { return entry_; }
  bool given(const std::string& key) const;

  std::string text(const std::string& key) const;  // "" when neither given nor defaulted
  // Relative paths written in the YAML are relative to its folder.
  std::filesystem::path path(const std::string& key) const;
  bool boolean(const std::string& key) const;
  int integer(const std::string& key) const;
  double number(const std::string& key) const;
  std::optional<int> optional_integer(const std::string& key) const;
  std::optional<double> optional_number(const std::string& key) const;
  std::vector<std::string> strings(const std::string& key) const;  // a list, or one scalar
  YAML::Node node(const std::string& key) const;                   // lists and maps, as written

  // A config error naming the entry's file and line.
  [[noreturn]] void fail(const std::string& message) const;

 private:
  const ArgSpec& spec_of(const std::string& key, ArgType type) const;

  const Entry& entry_;
  const ClassSpec& spec_;
};

}  // namespace aeval::registry
