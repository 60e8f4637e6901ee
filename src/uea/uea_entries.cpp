#include "uea/uea_entries.hpp"

#include <fmt/format.h>

#include "aeval/error.hpp"
#include "registry/classes.hpp"

namespace aeval::uea {

using registry::Kind;

std::optional<Kind> aeval_kind(const std::string& uea_kind) {
  if (uea_kind == "dataset") return Kind::dataset;
  if (uea_kind == "prompt") return Kind::prompt;
  if (uea_kind == "eval_task") return Kind::task;
  if (uea_kind == "evaluator") return Kind::evaluator;
  if (uea_kind == "process") return Kind::post_process;
  if (uea_kind == "agg") return Kind::aggregator;
  if (uea_kind == "model") return Kind::model;
  return std::nullopt;
}

Translation translate(const UeaRegistry& uea, const UeaEntry& entry) {
  const auto kind = aeval_kind(entry.kind);
  const std::string path = entry.class_path.empty() ? "(no class)" : entry.class_path;
  if (!kind) return {std::nullopt, "unsupported: " + path + " (aeval's run store records every run)"};
  if (!entry.has_args)
    return {std::nullopt, "unsupported: " + path + " (the entry has no args, so UltraEval-Audio cannot build it either)"};
  std::string refused;
  // Classes naming the entry's class exactly first, then those standing for a whole package ("prefix.*").
  const auto names = [&](const registry::UeaClass& mapping, bool any) {
    if (!any) return mapping.path == entry.class_path;
    return mapping.path.ends_with(".*") && entry.class_path.starts_with(mapping.path.substr(0, mapping.path.size() - 1));
  };
  for (bool any : {false, true})
    for (const registry::ClassSpec* spec : registry::class_catalog()) {
      if (spec->kind != *kind) continue;
      for (const auto& mapping : spec->uea) {
        if (!names(mapping, any)) continue;
        registry::Entry e;
        e.name = entry.name;
        e.class_id = spec->id;
        e.file = entry.file;
        e.line = entry.line;
        try {
          std::optional<YAML::Node> args;
          if (any) args = mapping.translate_any(entry.args, uea.root(), entry.class_path);
          else if (!mapping.translate) args = YAML::Clone(entry.args);
          else args = mapping.translate(entry.args, uea.root());
          if (!args) continue;
          e.args = *args;
          if (!e.args.IsMap()) e.args = YAML::Node(YAML::NodeType::Map);
          return {e, ""};
        } catch (const Error& error) {
          refused = error.what();
        }
      }
    }
  if (!refused.empty()) return {std::nullopt, "unsupported: " + path + " (" + refused + ")"};
  if (uea.has_python() && !uea.has_python_module(entry.class_path))
    return {std::nullopt, "unsupported: " + path + " (UltraEval-Audio's own code has no such module at this commit)"};
  return {std::nullopt, "unsupported: " + path};
}

TranslatedRegistry translate_registry(const UeaRegistry& uea) {
  TranslatedRegistry out;
  std::map<std::pair<Kind, std::string>, std::string> uea_kind_of;
  for (const char* kind : kKinds)
    for (const auto& [name, entry] : uea.entries(kind)) {
      Translation t = translate(uea, entry);
      if (!t.entry) {
        out.unsupported[kind][name] = t.reason;
        continue;
      }
      uea_kind_of[{*aeval_kind(kind), name}] = kind;
      out.registry.add(*aeval_kind(kind), std::move(*t.entry));
    }
  // A task's dataset and model only say what UEA's main.py replaces (--dataset and --model are
  // required there): a task naming ones aeval cannot read keeps none rather than failing.
  for (const auto& name : out.registry.names(Kind::task)) {
    registry::Entry task = out.registry.get(Kind::task, name);
    task.args = YAML::Clone(task.args);
    for (const auto& [key, kind] : {std::pair{"model", Kind::model}, std::pair{"dataset", Kind::dataset}})
      if (task.args[key] && !out.registry.contains(kind, task.args[key].Scalar())) task.args.remove(key);
    out.registry.add(Kind::task, task);
  }
  // Validate until nothing changes: an entry that names an unsupported one is unsupported too.
  const auto uea_kind_name = [](Kind kind) {
    for (const char* k : kKinds)
      if (aeval_kind(k) == kind) return std::string(k);
    return std::string();
  };
  // "its evaluator 'x' is unsupported" for a reference to an entry UEA has and aeval cannot run.
  const auto unsupported_reference = [&](const registry::Entry& entry, Kind kind) -> std::string {
    const registry::ClassSpec& spec = registry::class_spec(entry, kind);
    for (const auto& arg : spec.args) {
      if (!arg.refers_to || !entry.args[arg.name]) continue;
      const YAML::Node value = entry.args[arg.name];
      std::vector<std::string> names;
      if (value.IsScalar()) names.push_back(value.Scalar());
      if (value.IsSequence())
        for (const auto& v : value) names.push_back(v.Scalar());
      const std::string referred = uea_kind_name(*arg.refers_to);
      for (const auto& n : names) {
        if (out.unsupported.count(referred) && out.unsupported.at(referred).count(n))
          return fmt::format("its {} '{}' is unsupported", referred, n);
        if (!uea.entries(referred).count(n))
          return fmt::format("its {} '{}' is not in UltraEval-Audio's registry either", referred, n);
      }
    }
    return "";
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (Kind kind : registry::kAllKinds)
      for (const auto& name : out.registry.names(kind)) {
        const std::string& uea_kind = uea_kind_of.at({kind, name});
        std::string reason = unsupported_reference(out.registry.get(kind, name), kind);
        if (reason.empty()) {
          try {
            registry::validate_entry(out.registry, out.registry.get(kind, name), kind);
            continue;
          } catch (const Error& e) {
            reason = e.what();
          }
        }
        out.unsupported[uea_kind][name] = "unsupported: " + uea.get(uea_kind, name).class_path + " (" + reason + ")";
        out.registry.remove(kind, name);
        changed = true;
      }
  }
  return out;
}

void add_uea_entries(registry::Registry& registry, const std::filesystem::path& uea_root,
                     const std::vector<std::filesystem::path>& registry_paths) {
  TranslatedRegistry translated = translate_registry(UeaRegistry(uea_root, registry_paths));
  for (Kind kind : registry::kAllKinds)
    for (const auto& name : translated.registry.names(kind)) registry.add(kind, translated.registry.get(kind, name));
  registry::validate_registry(registry);
}

}  // namespace aeval::uea
