#pragma once
// Component classes declare themselves once, next to their code: kind, class
// id, a one-line summary and typed arguments with typed defaults (and, in
// factory.hpp, how to build one). The registry validates every entry against
// these declarations when it loads, and `aeval describe` prints them.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "registry/registry.hpp"

namespace aeval::registry {

enum class ArgType { text, path, boolean, integer, number, text_list, list, map, structure, reference, references };

// A default as the type it has; monostate: none.
using ArgValue = std::variant<std::monostate, bool, long, double, std::string, std::vector<std::string>>;

struct ArgSpec {
  std::string name;
  ArgType type = ArgType::text;
  bool required = false;
  ArgValue default_value;
  std::string help;
  std::optional<Kind> refers_to;     // reference(s): the kind of entry named
  std::vector<std::string> choices;  // text: the values allowed (empty: any)
  // integer, number: the range allowed, stated here once (the registry refuses the rest as it loads)
  std::optional<double> minimum, maximum;
  bool excludes_minimum = false, excludes_maximum = false;

  std::string shown_default() const;  // as `aeval describe` prints it; "" when none
  // This argument, refusing values below `least`: arg::integer("max_concurrency", 4).at_least(1).
  ArgSpec at_least(double least) const;
  // Refusing values at or below (above) the bound: arg::number("timeout_seconds", 60).above(0).
  ArgSpec above(double bound) const;
  ArgSpec below(double bound) const;
  bool in_range(double value) const;
  std::string range_text() const;  // "at least 1", "above 0 and below 1"; "" for any value
};

// Argument declarations, e.g. arg::integer("max_concurrency", defaults.max_concurrency, "requests in flight").
namespace arg {
ArgSpec text(std::string name, std::string fallback, std::string help = "");
ArgSpec required_text(std::string name, std::string help = "");
ArgSpec choice(std::string name, std::string fallback, std::vector<std::string> choices, std::string help = "");
ArgSpec required_choice(std::string name, std::vector<std::string> choices, std::string help = "");
ArgSpec path(std::string name, std::string fallback, std::string help = "");  // relative to the entry's YAML file
ArgSpec required_path(std::string name, std::string help = "");
ArgSpec boolean(std::string name, bool fallback, std::string help = "");
ArgSpec integer(std::string name, long fallback, std::string help = "");
ArgSpec optional_integer(std::string name, std::string help = "");  // no default: left out unless given
ArgSpec number(std::string name, double fallback, std::string help = "");
ArgSpec optional_number(std::string name, std::string help = "");
ArgSpec texts(std::string name, std::vector<std::string> fallback, std::string help = "");
ArgSpec required_texts(std::string name, std::string help = "");
ArgSpec list(std::string name, std::string help = "", bool required = true);
ArgSpec map(std::string name, std::string help = "", bool required = true);
ArgSpec structure(std::string name, std::string help = "", bool required = true);  // any YAML: text, list or map
ArgSpec reference(std::string name, Kind kind, std::string fallback, std::string help = "");
ArgSpec required_reference(std::string name, Kind kind, std::string help = "");
ArgSpec references(std::string name, Kind kind, bool required, std::string help = "");
}  // namespace arg

// An UltraEval-Audio class this class stands for (docs/uea.md): its Python class path and how
// its arguments become this class's (given the UEA folder too, for files UEA reads from its own tree). `translate` returns nullopt when the UEA arguments
// belong to another aeval class (TextNormalization's lang picks one of three normalizers),
// and throws aeval::Error (config) to say why an entry cannot run; an empty `translate`
// takes UEA's arguments as they are written.
// A path ending in ".*" stands for every class under that prefix that no class names exactly; its
// `translate_any` is told which class the entry names.
struct UeaClass {
  std::string path;  // "audio_evals.process.firstoption.FirstOption", or "audio_evals.models.*"
  std::function<std::optional<YAML::Node>(const YAML::Node& uea_args, const std::filesystem::path& uea_root)> translate = {};
  std::function<std::optional<YAML::Node>(const YAML::Node& uea_args, const std::filesystem::path& uea_root,
                                          const std::string& class_path)>
      translate_any = {};
};

struct ClassSpec {
  Kind kind;
  std::string id;
  std::string summary;
  std::vector<ArgSpec> args;
  std::vector<std::string> aliases = {};  // old ids still accepted, with a note that the class was renamed
  std::vector<UeaClass> uea = {};          // the UltraEval-Audio classes it implements
  // Where an entry of the class gives other numbers than UltraEval-Audio's own class would: a short reason, from
  // the entry's arguments ("" where it is exact). Every "differs from UltraEval-Audio" aeval prints comes from
  // these (uea/uea_differences.hpp), so a new difference is declared with the code that makes it.
  std::function<std::string(const YAML::Node& args)> differs_from_uea = {};

  const ArgSpec* find(const std::string& arg) const;
};

// Adds a class to the catalog (at static initialisation; factory.hpp does it).
void declare_class(const ClassSpec& spec);
// Every declared class, by kind and then id.
std::vector<const ClassSpec*> class_catalog();
// The class an entry names, by id or old id (noting the rename on stderr,
// once per id). Throws aeval::Error (config) naming the entry's file and
// line, with a did-you-mean, for a class this kind does not have.
const ClassSpec& class_spec(const Entry& entry, Kind kind);
std::string type_name(ArgType type);

// Every entry: known class, known arguments of the right type and value,
// required ones present, references to entries that exist. Errors name file:line.
void validate_registry(const Registry& registry);
// One entry the same way.
void validate_entry(const Registry& registry, const Entry& entry, Kind kind);

// A dataset named by a manifest path rather than a registry entry.
bool is_manifest_path(const std::string& name);
// For an unknown dataset name that looks like a file: a note that manifests end in .jsonl; else "".
std::string manifest_hint(const std::string& name);

}  // namespace aeval::registry
