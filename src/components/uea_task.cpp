#include "components/uea_task.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "aeval/error.hpp"
#include "components/task.hpp"
#include "registry/classes.hpp"
#include "registry/uea_entries.hpp"

namespace aeval::uea {

namespace {

// YAML single-quoted text, for a --set value.
std::string yaml_text(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

BoundTask bind_task(const registry::Registry& registry, const std::filesystem::path& uea_root, const std::string& dataset,
                    const std::string& task, const pipeline::TaskOverrides& overrides, const std::string& ref_col,
                    const std::vector<std::filesystem::path>& registry_paths) {
  using registry::Kind;
  const UeaRegistry uea(uea_root, registry_paths);
  // An entry of UEA's is supported when the registry holds it from UEA's own files (add_uea_entries);
  // only one that is not needs the whole registry translated again, for the reason.
  std::vector<std::string> uea_files{uea.registry_dir().lexically_normal().string() + "/"};
  for (const auto& folder : registry_paths) uea_files.push_back(std::filesystem::absolute(folder).lexically_normal().string() + "/");
  const auto from_uea = [&](const std::filesystem::path& file) {
    const std::string f = file.lexically_normal().string();
    return std::any_of(uea_files.begin(), uea_files.end(), [&](const std::string& folder) { return f.rfind(folder, 0) == 0; });
  };
  const auto refuse = [&](const char* kind, const std::string& name) {
    if (!uea.entries(kind).count(name)) return;
    const Kind aeval = *aeval_kind(kind);
    if (registry.contains(aeval, name) && from_uea(registry.get(aeval, name).file)) return;
    const TranslatedRegistry translated = translate_registry(uea);
    const auto found = translated.unsupported.find(kind);
    if (found != translated.unsupported.end() && found->second.count(name))
      throw Error(ErrorCategory::config,
                  fmt::format("UltraEval-Audio {} '{}': {}{}", kind, name, found->second.at(name),
                              std::string(kind) == "model" ? "; give --model an aeval model (`aeval list models`), e.g. "
                                                             "an openai_chat entry for a server running it"
                                                           : ""));
  };
  const UeaEntry& dataset_entry = uea.get("dataset", dataset);
  refuse("dataset", dataset);
  const YAML::Node& args = dataset_entry.args;
  const std::string task_name = !task.empty()            ? task
                                : args["default_task"] ? args["default_task"].Scalar()
                                                         : std::string();
  if (task_name.empty())
    throw Error(ErrorCategory::config, "UltraEval-Audio dataset '" + dataset + "' has no default_task: name its task");
  uea.get("eval_task", task_name);
  refuse("eval_task", task_name);
  // A model aeval has (its own entry of that name too) is no UEA model to refuse.
  if (overrides.model && !registry.contains(Kind::model, *overrides.model)) refuse("model", *overrides.model);
  for (const auto& p : overrides.post_process.value_or(std::vector<std::string>{})) refuse("process", p);
  for (const auto& e : overrides.evaluators.value_or(std::vector<std::string>{})) refuse("evaluator", e);
  for (const auto& a : overrides.aggregators.value_or(std::vector<std::string>{})) refuse("agg", a);

  BoundTask bound;
  const pipeline::TaskSpec defined = pipeline::TaskClasses::make(registry.get(Kind::task, task_name), Kind::task);
  pipeline::TaskOverrides parts = overrides;
  parts.dataset = dataset;
  parts.prompt = overrides.prompt.value_or(defined.prompt);  // UEA's prompt, never a model's own
  bound.spec = pipeline::resolve_task(registry, task_name, parts);

  // ref_col is the reference: the dataset's text, and what each evaluator (an ensemble's
  // components too) reads as the row stores it.
  const std::string reference = !ref_col.empty()  ? ref_col
                                : args["ref_col"] ? args["ref_col"].Scalar()
                                                  : std::string();
  if (!ref_col.empty()) bound.sets.push_back("dataset:" + dataset + ".text_column=" + yaml_text(reference));
  std::vector<std::string> evaluators = bound.spec.evaluators;
  for (std::size_t k = 0; k < evaluators.size(); ++k) {
    const registry::Entry& e = registry.get(Kind::evaluator, evaluators[k]);
    if (!registry::class_spec(e, Kind::evaluator).find("label_field")) continue;
    bound.sets.push_back("evaluator:" + evaluators[k] + ".label_field=" + yaml_text(reference));
    if (e.args["components"])
      for (const auto& c : e.args["components"]) evaluators.push_back(c.Scalar());
  }
  return bound;
}

}  // namespace aeval::uea
