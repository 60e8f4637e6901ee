#pragma once
// Typed access to a registry entry's args, with errors that name the entry's
// file and line. (Unknown arguments were rejected when the registry loaded.)
#include <initializer_list>
#include <string>
#include <vector>

#include "aeval/pipeline/registry.hpp"

namespace aeval::pipeline {

class Args {
 public:
  explicit Args(const Entry& entry) : entry_(entry) {}

  std::string string(const std::string& key, const std::string& fallback);
  std::string required_string(const std::string& key);
  bool boolean(const std::string& key, bool fallback);
  int integer(const std::string& key, int fallback);
  double number(const std::string& key, double fallback);
  std::vector<std::string> strings(const std::string& key);  // a list, or one scalar
  // A string that must be one of `allowed`.
  std::string choice(const std::string& key, const std::string& fallback, std::initializer_list<const char*> allowed);

 private:
  YAML::Node fetch(const std::string& key);
  [[noreturn]] void fail(const std::string& key, const std::string& expected) const;

  const Entry& entry_;
};

}  // namespace aeval::pipeline
