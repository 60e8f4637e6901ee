#pragma once
// The catalog of component classes: for every registry kind, the classes
// aeval implements and the arguments each takes (type, default, meaning).
// It validates registry entries when they load and teaches `aeval describe`.
#include <optional>
#include <string>
#include <vector>

#include "aeval/pipeline/registry.hpp"

namespace aeval::pipeline {

enum class ArgType { text, path, boolean, integer, number, text_list, list, map, reference, references };

struct ArgSpec {
  std::string name;
  ArgType type = ArgType::text;
  bool required = false;
  std::string default_value;  // as shown to users; "" when none
  std::string help;
  std::optional<Kind> refers_to;  // reference(s): the kind of entry named
};

struct ClassSpec {
  Kind kind;
  std::string id;
  std::string summary;
  std::vector<ArgSpec> args;
};

const std::vector<ClassSpec>& class_catalog();
// Throws aeval::Error (config) naming the entry's file and line, with a
// did-you-mean, for a class this kind does not have.
const ClassSpec& class_spec(const Entry& entry, Kind kind);
std::string type_name(ArgType type);

// Every entry: known class, known arguments of the right type, required ones
// present, references to entries that exist. Errors name file:line.
void validate_registry(const Registry& registry);

// A dataset named by a manifest path rather than a registry entry.
bool is_manifest_path(const std::string& name);

}  // namespace aeval::pipeline
