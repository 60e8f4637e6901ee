#include "run/invocation.hpp"

#include <fmt/format.h>

#include "aeval/error.hpp"
#include "run/run_store.hpp"
#include "tasks/task.hpp"
#include "uea/uea_catalog_task.hpp"

namespace aeval::pipeline {

using registry::apply_assignment;
using registry::Kind;
using registry::Registry;

using nlohmann::json;

json Invocation::to_json() const {
  json folders = json::array();
  for (const auto& f : registry) folders.push_back(std::filesystem::absolute(f).string());
  json j{{"registry", folders}, {"sets", sets}, {"task", task.to_json()}, {"limit", limit},
         {"shard", {shard.index, shard.count}}};
  if (!uea.empty()) j["uea"] = std::filesystem::absolute(uea).string();
  if (!uea_registry_paths.empty()) {
    j["uea_registry_paths"] = json::array();
    for (const auto& f : uea_registry_paths) j["uea_registry_paths"].push_back(std::filesystem::absolute(f).string());
  }
  return j;
}

Invocation Invocation::from_json(const json& j) {
  Invocation inv;
  for (const auto& f : j.at("registry")) inv.registry.emplace_back(f.get<std::string>());
  inv.sets = j.at("sets").get<std::vector<std::string>>();
  inv.task = TaskSpec::from_json(j.at("task"));
  inv.limit = j.at("limit");
  inv.shard = {j.at("shard")[0], j.at("shard")[1]};
  if (j.contains("uea")) inv.uea = j["uea"].get<std::string>();
  if (j.contains("uea_registry_paths"))
    for (const auto& f : j["uea_registry_paths"]) inv.uea_registry_paths.emplace_back(f.get<std::string>());
  return inv;
}

Registry load_registry(const Invocation& invocation) {
  Registry r(invocation.registry);
  uea::add_invocation_entries(r, invocation);
  for (const auto& assignment : invocation.sets) apply_assignment(r, assignment);
  return r;
}

Registry bind_task(Invocation& inv, const std::string& task, const TaskOverrides& overrides) {
  // The task's definition says whether UEA's entries join (their names win over aeval's); --set may name them, so
  // the assignments wait until they are there.
  Registry registry(inv.registry);
  const TaskSpec defined = task.empty() || !registry.contains(Kind::task, task)
                               ? TaskSpec{}
                               : TaskClasses::make(registry.get(Kind::task, task), Kind::task);
  if (!defined.uea_dataset.empty()) return uea::bind_catalog_task(inv, task, defined, overrides, load_registry);
  inv.uea.clear();  // a UEA folder given is used only by a task defined on it
  for (const auto& assignment : inv.sets) apply_assignment(registry, assignment);
  inv.task = resolve_task(registry, task, overrides);
  return registry;
}

Invocation recorded_invocation(const std::filesystem::path& run_dir) {
  const auto file = run_dir / "run.sqlite";
  if (!std::filesystem::exists(file))
    throw Error(ErrorCategory::data, fmt::format("{} is not a run directory (no run.sqlite)", run_dir.string()));
  RunStore store(file);
  const auto inv = store.meta("invocation");
  if (!inv) throw Error(ErrorCategory::data, fmt::format("{}: the run store has no recorded invocation", file.string()));
  return Invocation::from_json(*inv);
}

}  // namespace aeval::pipeline
