// Every class the code declares has a test: one names the class (as `class: ID` in a registry file it writes, or
// as a string), names a built-in entry of it or an entry that refers to one (a task's evaluators, an evaluator's
// normalizers, ...), or runs the UltraEval-Audio registry that names the UEA class it stands for. Classes
// declared from the metric catalog are walked by the metric tests.
#include <gtest/gtest.h>

#include <deque>
#include <set>

#include <yaml-cpp/yaml.h>

#include "aeval/metrics/catalog.hpp"
#include "registry/classes.hpp"
#include "registry/registry.hpp"
#include "support/reference.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::registry::Kind;
using aeval::registry::Registry;

// Every file under `folders`, one after another.
std::string text_of(const std::vector<fs::path>& folders) {
  std::string all;
  for (const fs::path& folder : folders)
    for (const auto& e : fs::recursive_directory_iterator(folder))
      if (e.is_regular_file() && e.file_size() < (4u << 20)) all += aeval::testing::read_bytes(e.path()) + "\n";
  return all;
}

// `name` as a word of YAML, of a command line or of a string: after a space, a quote or a bracket, and before a
// space, a quote, a comma, a bracket, a line's end (or a C++ string's "\n"), or a dot (`--set NAME.arg=...`).
bool names(const std::string& text, const std::string& name) {
  static const std::string before = " '\"[", after = " '\",]\n.\\";
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if (at > 0 && before.find(text[at - 1]) != std::string::npos && end < text.size() &&
        after.find(text[end]) != std::string::npos)
      return true;
  }
  return false;
}

// The text values anywhere in an entry's arguments.
void scalars_of(const YAML::Node& node, std::vector<std::string>& out) {
  if (node.IsScalar()) out.push_back(node.Scalar());
  if (node.IsSequence())
    for (const auto& item : node) scalars_of(item, out);
  if (node.IsMap())
    for (const auto& item : node) scalars_of(item.second, out);
}

// The classes of the built-in entries a test names, and of every entry those refer to, by kind.
std::set<std::pair<Kind, std::string>> classes_of_named_entries(const Registry& registry, const std::string& tests) {
  std::map<std::string, std::vector<Kind>> kinds_of;  // entry name → the kinds that define it
  for (const Kind kind : aeval::registry::kAllKinds)
    for (const auto& name : registry.names(kind)) kinds_of[name].push_back(kind);
  std::set<std::pair<Kind, std::string>> reached;
  std::deque<std::pair<Kind, std::string>> queue;
  for (const auto& [name, kinds] : kinds_of)
    if (names(tests, name))
      for (const Kind kind : kinds) queue.emplace_back(kind, name);
  std::set<std::pair<Kind, std::string>> classes;
  while (!queue.empty()) {
    const auto [kind, name] = queue.front();
    queue.pop_front();
    if (!reached.emplace(kind, name).second) continue;
    const auto& entry = registry.get(kind, name);
    classes.emplace(kind, entry.class_id);
    std::vector<std::string> values;
    scalars_of(entry.args, values);
    for (const auto& value : values)
      if (const auto it = kinds_of.find(value); it != kinds_of.end())
        for (const Kind k : it->second) queue.emplace_back(k, value);
  }
  return classes;
}

TEST(TestedClasses, EveryDeclaredClassHasATest) {
  AEVAL_REQUIRE_SHARED_UEA();
  const fs::path root = fs::path(AEVAL_SOURCE_DIR);
  const std::string tests = text_of({root / "tests", root / "python" / "tests"});
  const std::string uea_registry = text_of({aeval::testing::shared_uea_dir() / "registry"});
  const Registry registry({aeval::registry::builtin_registry_dir()});
  const auto used = classes_of_named_entries(registry, tests);
  std::size_t classes = 0;
  for (const auto* spec : aeval::registry::class_catalog()) {
    if (spec->summary.ends_with("(test only)")) continue;
    ++classes;
    if (spec->kind == Kind::evaluator && aeval::metrics::find_text_metric(spec->id)) continue;
    bool tested = names(tests, spec->id) || used.count({spec->kind, spec->id});
    for (const auto& uea : spec->uea) tested = tested || uea_registry.find(uea.path) != std::string::npos;
    EXPECT_TRUE(tested) << aeval::registry::kind_name(spec->kind) << " class `" << spec->id << "` has no test";
  }
  EXPECT_GT(classes, 100u);
}

}  // namespace
