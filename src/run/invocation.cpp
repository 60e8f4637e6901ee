#include "run/invocation.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "aeval/error.hpp"
#include "aggregators/aggregator.hpp"
#include "run/run_store.hpp"
#include "components/task.hpp"
#include "components/uea_task.hpp"
#include "registry/uea_entries.hpp"
#include "uea/uea_location.hpp"

namespace aeval::pipeline {

using registry::apply_assignment;
using registry::Entry;
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
  if (!invocation.uea.empty()) {
    // UEA's names win over aeval's, but a catalog task's own evaluators, scored beside UEA's,
    // are the aeval entries its author named (aeval's `dnsmos`, not UEA's).
    std::vector<Entry> beside;
    for (const auto& name : invocation.task.beside_uea)
      if (r.contains(Kind::evaluator, name)) beside.push_back(r.get(Kind::evaluator, name));
    uea::add_uea_entries(r, invocation.uea, invocation.uea_registry_paths);
    for (auto& entry : beside) r.add(Kind::evaluator, std::move(entry));
  }
  for (const auto& assignment : invocation.sets) apply_assignment(r, assignment);
  return r;
}

bool defined_on_uea(const Registry& registry, const std::string& task) {
  return !task.empty() && registry.contains(Kind::task, task) &&
         !TaskClasses::make(registry.get(Kind::task, task), Kind::task).uea_dataset.empty();
}

Registry bind_task(Invocation& inv, const std::string& task, const TaskOverrides& overrides) {
  Invocation own = inv;
  own.uea.clear();  // UEA's entries only for a task defined on them: their names win over aeval's
  own.sets.clear();  // --set may name UEA's entries: applied once they are there
  Registry registry = load_registry(own);
  const TaskSpec defined = task.empty() || !registry.contains(Kind::task, task)
                               ? TaskSpec{}
                               : TaskClasses::make(registry.get(Kind::task, task), Kind::task);
  if (defined.uea_dataset.empty()) {
    inv.uea.clear();
    for (const auto& assignment : inv.sets) apply_assignment(registry, assignment);
    inv.task = resolve_task(registry, task, overrides);
    return registry;
  }
  if (!overrides.model)
    throw IncompleteTask("task '" + task + "' has no model: give --model NAME (`aeval list models`)");
  if (inv.uea.empty()) inv.uea = std::filesystem::absolute(uea::uea_root({}));
  inv.task.beside_uea = overrides.evaluators ? std::vector<std::string>{} : defined.evaluators;
  registry = load_registry(inv);
  TaskOverrides parts = overrides;
  parts.dataset.reset();
  parts.aggregators.reset();
  uea::BoundTask bound = uea::bind_task(registry, inv.uea, overrides.dataset.value_or(defined.uea_dataset),
                                        defined.uea_task, parts, "", {}, defined.language);
  TaskSpec spec = std::move(bound.spec);
  // An evaluator of the task's own may not share a name with one UEA's scoring uses (an ensemble's
  // components too): one name, one entry in a run.
  std::vector<std::string> used = spec.evaluators;
  for (std::size_t k = 0; k < used.size(); ++k)
    if (const YAML::Node components = registry.get(Kind::evaluator, used[k]).args["components"])
      for (const auto& c : components) used.push_back(c.Scalar());
  for (const auto& name : inv.task.beside_uea)
    if (std::find(used.begin(), used.end(), name) != used.end())
      throw Error(ErrorCategory::config,
                  fmt::format("task '{}' ({}): evaluators: '{}' names aeval's entry, and UltraEval-Audio's scoring of "
                              "the task uses its own entry of that name; leave it out (UEA scores it already)",
                              task, registry.get(Kind::task, task).where(), name));
  if (!overrides.evaluators) {  // the task's own evaluators, beside UEA's
    spec.evaluators.insert(spec.evaluators.end(), defined.evaluators.begin(), defined.evaluators.end());
    spec.beside_uea = defined.evaluators;
  }
  spec.name = defined.name;
  spec.language = defined.language;
  spec.prompt_variants = defined.prompt_variants;
  spec.published = defined.published;
  // The task's own aggregators join UEA's; one of aeval's (no UEA aggregation of its own) lends its intervals and
  // groups to UEA's aggregation instead, so that they are of UEA's number.
  std::vector<std::string> lent;
  const std::vector<std::string> uea_aggregators = spec.aggregators;
  if (overrides.aggregators) spec.aggregators = *overrides.aggregators;
  else
    for (const auto& name : defined.aggregators) {
      const Aggregator summary = load_aggregator(registry, name);
      if (summary.uea) {
        spec.aggregators.push_back(name);
        continue;
      }
      std::string groups;
      for (const auto& field : summary.group_by) groups += (groups.empty() ? "'" : ", '") + field + "'";
      for (const auto& uea_agg : uea_aggregators)
        for (const std::string& arg : {fmt::format("group_by=[{}]", groups), fmt::format("bootstrap={}", summary.bootstrap),
                                       fmt::format("confidence={}", summary.confidence), fmt::format("seed={}", summary.seed)})
          lent.push_back("aggregator:" + uea_agg + "." + arg);
    }
  for (const auto& p : spec.published)
    if (std::find(spec.evaluators.begin(), spec.evaluators.end(), p.metric) == spec.evaluators.end())
      throw Error(ErrorCategory::config,
                  fmt::format("task '{}' ({}): published: metric '{}' is not UltraEval-Audio's evaluator of it ({})",
                              task, registry.get(Kind::task, task).where(), p.metric, fmt::join(spec.evaluators, ", ")));
  for (const auto& name : spec.aggregators) registry.get(Kind::aggregator, name);
  // UEA's assignments first, so that the command line's --set still wins over them.
  bound.sets.insert(bound.sets.end(), lent.begin(), lent.end());
  bound.sets.insert(bound.sets.end(), inv.sets.begin(), inv.sets.end());
  for (const auto& assignment : bound.sets) apply_assignment(registry, assignment);
  inv.sets = std::move(bound.sets);
  inv.task = std::move(spec);
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
