#include "registry/classes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "aeval/error.hpp"

namespace aeval::registry {

namespace {

std::map<std::pair<Kind, std::string>, ClassSpec>& catalog() {
  static std::map<std::pair<Kind, std::string>, ClassSpec> classes;  // built before the first declaration uses it
  return classes;
}

// Old class id → current id, for classes that were renamed.
std::map<std::pair<Kind, std::string>, std::string>& renamed() {
  static std::map<std::pair<Kind, std::string>, std::string> ids;
  return ids;
}

ArgSpec make(std::string name, ArgType type, bool required, ArgValue fallback, std::string help) {
  ArgSpec a;
  a.name = std::move(name);
  a.type = type;
  a.required = required;
  a.default_value = std::move(fallback);
  a.help = std::move(help);
  return a;
}

}  // namespace

namespace arg {
ArgSpec text(std::string n, std::string f, std::string h) { return make(std::move(n), ArgType::text, false, std::move(f), std::move(h)); }
ArgSpec required_text(std::string n, std::string h) { return make(std::move(n), ArgType::text, true, {}, std::move(h)); }
ArgSpec choice(std::string n, std::string f, std::vector<std::string> c, std::string h) {
  ArgSpec a = make(std::move(n), ArgType::text, false, std::move(f), std::move(h));
  a.choices = std::move(c);
  return a;
}
ArgSpec required_choice(std::string n, std::vector<std::string> c, std::string h) {
  ArgSpec a = make(std::move(n), ArgType::text, true, {}, std::move(h));
  a.choices = std::move(c);
  return a;
}
ArgSpec path(std::string n, std::string f, std::string h) { return make(std::move(n), ArgType::path, false, std::move(f), std::move(h)); }
ArgSpec required_path(std::string n, std::string h) { return make(std::move(n), ArgType::path, true, {}, std::move(h)); }
ArgSpec boolean(std::string n, bool f, std::string h) { return make(std::move(n), ArgType::boolean, false, f, std::move(h)); }
ArgSpec integer(std::string n, long f, std::string h) { return make(std::move(n), ArgType::integer, false, f, std::move(h)); }
ArgSpec optional_integer(std::string n, std::string h) { return make(std::move(n), ArgType::integer, false, {}, std::move(h)); }
ArgSpec number(std::string n, double f, std::string h) { return make(std::move(n), ArgType::number, false, f, std::move(h)); }
ArgSpec optional_number(std::string n, std::string h) { return make(std::move(n), ArgType::number, false, {}, std::move(h)); }
ArgSpec texts(std::string n, std::vector<std::string> f, std::string h) {
  return make(std::move(n), ArgType::text_list, false, std::move(f), std::move(h));
}
ArgSpec required_texts(std::string n, std::string h) { return make(std::move(n), ArgType::text_list, true, {}, std::move(h)); }
ArgSpec list(std::string n, std::string h, bool required) { return make(std::move(n), ArgType::list, required, {}, std::move(h)); }
ArgSpec map(std::string n, std::string h, bool required) { return make(std::move(n), ArgType::map, required, {}, std::move(h)); }
ArgSpec structure(std::string n, std::string h, bool required) {
  return make(std::move(n), ArgType::structure, required, {}, std::move(h));
}
ArgSpec reference(std::string n, Kind k, std::string f, std::string h) {
  ArgSpec a = make(std::move(n), ArgType::reference, false, std::move(f), std::move(h));
  a.refers_to = k;
  return a;
}
ArgSpec required_reference(std::string n, Kind k, std::string h) {
  ArgSpec a = make(std::move(n), ArgType::reference, true, {}, std::move(h));
  a.refers_to = k;
  return a;
}
ArgSpec references(std::string n, Kind k, bool required, std::string h) {
  ArgSpec a = make(std::move(n), ArgType::references, required, std::vector<std::string>{}, std::move(h));
  a.refers_to = k;
  return a;
}
}  // namespace arg

std::string ArgSpec::shown_default() const {
  struct Show {
    std::string operator()(std::monostate) const { return ""; }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(long v) const { return std::to_string(v); }
    std::string operator()(double v) const { return fmt::format("{}", v); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const std::vector<std::string>& v) const { return fmt::format("[{}]", fmt::join(v, ", ")); }
  };
  return std::visit(Show{}, default_value);
}

ArgSpec ArgSpec::at_least(double least) const {
  ArgSpec a = *this;
  a.minimum = least;
  a.excludes_minimum = false;
  return a;
}

ArgSpec ArgSpec::above(double bound) const {
  ArgSpec a = at_least(bound);
  a.excludes_minimum = true;
  return a;
}

ArgSpec ArgSpec::below(double bound) const {
  ArgSpec a = *this;
  a.maximum = bound;
  a.excludes_maximum = true;
  return a;
}

bool ArgSpec::in_range(double value) const {
  if (minimum && (excludes_minimum ? value <= *minimum : value < *minimum)) return false;
  return !maximum || (excludes_maximum ? value < *maximum : value <= *maximum);
}

std::string ArgSpec::range_text() const {
  std::vector<std::string> parts;
  if (minimum) parts.push_back(fmt::format("{} {}", excludes_minimum ? "above" : "at least", *minimum));
  if (maximum) parts.push_back(fmt::format("{} {}", excludes_maximum ? "below" : "at most", *maximum));
  return fmt::format("{}", fmt::join(parts, " and "));
}

const ArgSpec* ClassSpec::find(const std::string& arg) const {
  for (const auto& a : args)
    if (a.name == arg) return &a;
  return nullptr;
}

void declare_class(const ClassSpec& declared) {
  ClassSpec spec = declared;
  // Every model may name its own prompts (tasks/task.cpp chooses them).
  if (spec.kind == Kind::model)
    spec.args.push_back(arg::map("prompts",
                                 "the model's own prompt entry for a task's prompt, by the task prompt's name, or "
                                 "NAME@LANGUAGE for tasks of one language (transcribe@zh, translate-to-english@zh->en); "
                                 "used unless --prompt is given",
                                 false));
  if (spec.kind == Kind::model)
    spec.args.push_back(arg::map("uea_prompts",
                                 "what the model's publisher runs in place of UltraEval-Audio's eval task prompt, by that "
                                 "prompt's name, NAME@DATASET (a UEA dataset entry) or NAME@LANGUAGE (asr@zh): UEA's prompt "
                                 "entry, or {prompt, evaluator, agg} where the prompt needs its own scoring; chosen by "
                                 "`aeval uea run` and the catalog's tasks defined on UEA unless --prompt is given",
                                 false));
  if (spec.kind == Kind::model)
    spec.args.push_back(arg::texts("uea_models", {},
                                   "UltraEval-Audio's own model entries of the same model, which take this entry's "
                                   "uea_prompts (MiniCPMo2_6-audio for minicpm-o-2.6)"));
  bool unique = catalog().emplace(std::pair(spec.kind, spec.id), spec).second;
  for (const auto& alias : spec.aliases) unique = renamed().emplace(std::pair(spec.kind, alias), spec.id).second && unique;
  if (!unique) {
    // Two files claiming one class id is a build mistake; say so before main.
    std::fprintf(stderr, "aeval: %s class '%s' (or one of its old ids) is declared twice\n", kind_name(spec.kind),
                 spec.id.c_str());
    std::abort();
  }
}

std::vector<const ClassSpec*> class_catalog() {
  std::vector<const ClassSpec*> out;
  for (Kind kind : kAllKinds)
    for (const auto& [key, spec] : catalog())
      if (key.first == kind) out.push_back(&spec);
  return out;
}

const ClassSpec& class_spec(const Entry& entry, Kind kind) {
  if (const auto found = catalog().find(std::pair(kind, entry.class_id)); found != catalog().end()) return found->second;
  if (const auto old = renamed().find(std::pair(kind, entry.class_id)); old != renamed().end()) {
    static std::mutex mutex;
    static std::set<std::pair<Kind, std::string>> noted;
    if (const std::lock_guard lock(mutex); noted.insert(old->first).second)
      std::fprintf(stderr, "aeval: note: %s: %s class '%s' is now called '%s'; the old name still works but will go away\n",
                   entry.where().c_str(), kind_name(kind), entry.class_id.c_str(), old->second.c_str());
    return catalog().at(std::pair(kind, old->second));
  }
  std::vector<std::string> ids;
  for (const auto& [key, spec] : catalog())
    if (key.first == kind) ids.push_back(spec.id);
  throw Error(ErrorCategory::config, fmt::format("{}: unknown {} class '{}'{}", entry.where(), kind_name(kind),
                                                 entry.class_id, suggestion_suffix(entry.class_id, ids)));
}

std::string type_name(ArgType type) {
  switch (type) {
    case ArgType::text: return "a string";
    case ArgType::path: return "a path";
    case ArgType::boolean: return "true or false";
    case ArgType::integer: return "an integer";
    case ArgType::number: return "a number";
    case ArgType::text_list: return "a list of strings";
    case ArgType::list: return "a list";
    case ArgType::map: return "a map";
    case ArgType::structure: return "text, a list or a map";
    case ArgType::reference: return "a name";
    case ArgType::references: return "a list of names";
  }
  return "";
}

bool is_manifest_path(const std::string& name) { return std::filesystem::path(name).extension() == ".jsonl"; }

std::string manifest_hint(const std::string& name) {
  const std::filesystem::path p(name);
  if (!p.has_extension() && !p.has_parent_path()) return "";
  return "; a manifest is a JSON Lines file and its name must end in .jsonl";
}

}  // namespace aeval::registry
