#include "uea/uea_task.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "aeval/error.hpp"
#include "tasks/task.hpp"
#include "registry/classes.hpp"
#include "uea/uea_entries.hpp"

namespace aeval::uea {

namespace {

// YAML single-quoted text, for a --set value.
std::string yaml_text(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// The aeval entry holding a model's setup: its own entry, or the one naming it among its uea_models.
const registry::Entry* setup_holder(const registry::Registry& registry, const std::string& model) {
  using registry::Kind;
  if (registry.contains(Kind::model, model) && registry.get(Kind::model, model).args["uea_prompts"])
    return &registry.get(Kind::model, model);
  for (const auto& name : registry.names(Kind::model)) {
    const registry::Entry& entry = registry.get(Kind::model, name);
    for (const auto& listed : entry.args["uea_models"])
      if (listed.IsScalar() && listed.Scalar() == model) return &entry;
  }
  return nullptr;
}

// The language of the catalog's task on a UEA dataset entry (its `language`), else empty.
std::string catalog_language(const registry::Registry& registry, const std::string& dataset) {
  using registry::Kind;
  for (const auto& name : registry.names(Kind::task)) {
    const YAML::Node& args = registry.get(Kind::task, name).args;
    if (args["uea_dataset"] && args["uea_dataset"].Scalar() == dataset && args["language"])
      return args["language"].Scalar();
  }
  return "";
}

}  // namespace

std::optional<ModelSetup> model_setup(const registry::Registry& registry, const std::string& model,
                                      const std::string& prompt, const std::string& dataset,
                                      const std::string& language) {
  using registry::Kind;
  const registry::Entry* holder = setup_holder(registry, model);
  if (!holder || prompt.empty()) return std::nullopt;
  const YAML::Node setups = holder->args["uea_prompts"];
  for (const std::string& key : {prompt + "@" + dataset, prompt + "@" + language, prompt}) {
    const YAML::Node chosen = setups[key];
    if (!chosen) continue;
    const auto refuse = [&](const std::string& what) {
      throw Error(ErrorCategory::config, fmt::format("model '{}' ({}): uea_prompts: '{}' {}", holder->name,
                                                     holder->where(), key, what));
    };
    ModelSetup setup;
    if (chosen.IsScalar()) setup.prompt = chosen.Scalar();
    else if (chosen.IsMap()) {
      for (const auto& part : chosen) {
        const std::string name = part.first.Scalar();
        if (name != "prompt" && name != "evaluator" && name != "agg") refuse("has '" + name + "': give prompt, evaluator, agg");
      }
      setup.prompt = chosen["prompt"] ? chosen["prompt"].Scalar() : "";
      setup.evaluator = chosen["evaluator"] ? chosen["evaluator"].Scalar() : "";
      setup.agg = chosen["agg"] ? chosen["agg"].Scalar() : "";
    }
    if (setup.prompt.empty() || !registry.contains(Kind::prompt, setup.prompt))
      refuse("must name an UltraEval-Audio prompt entry");
    if (!setup.evaluator.empty() && !registry.contains(Kind::evaluator, setup.evaluator))
      refuse("names evaluator '" + setup.evaluator + "', which UltraEval-Audio's registry lacks");
    if (!setup.agg.empty() && !registry.contains(Kind::aggregator, setup.agg))
      refuse("names agg '" + setup.agg + "', which UltraEval-Audio's registry lacks");
    return setup;
  }
  return std::nullopt;
}

BoundTask bind_task(const registry::Registry& registry, const std::filesystem::path& uea_root, const std::string& dataset,
                    const std::string& task, const pipeline::TaskOverrides& overrides, const std::string& ref_col,
                    const std::vector<std::filesystem::path>& registry_paths, std::string language) {
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
  parts.prompt = overrides.prompt.value_or(defined.prompt);
  if (language.empty()) language = catalog_language(registry, dataset);
  if (const auto own = overrides.prompt || !overrides.model
                           ? std::nullopt
                           : model_setup(registry, *overrides.model, defined.prompt, dataset, language)) {
    bound.replaced_prompt = defined.prompt;
    parts.prompt = own->prompt;
    if (!own->evaluator.empty() && !overrides.evaluators) parts.evaluators = std::vector<std::string>{own->evaluator};
    if (!own->agg.empty() && !overrides.aggregators) parts.aggregators = std::vector<std::string>{own->agg};
  }
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
