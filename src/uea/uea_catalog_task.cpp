#include "uea/uea_catalog_task.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "aeval/error.hpp"
#include "aggregators/aggregator.hpp"
#include "tasks/task.hpp"
#include "uea/uea_entries.hpp"
#include "uea/uea_location.hpp"
#include "uea/uea_task.hpp"

namespace aeval::uea {

using pipeline::Aggregator;
using pipeline::IncompleteTask;
using pipeline::Invocation;
using pipeline::load_aggregator;
using pipeline::TaskClasses;
using pipeline::TaskOverrides;
using pipeline::TaskSpec;
using registry::apply_assignment;
using registry::Entry;
using registry::Kind;
using registry::Registry;

bool defined_on_uea(const Registry& registry, const std::string& task) {
  return !task.empty() && registry.contains(Kind::task, task) &&
         !TaskClasses::make(registry.get(Kind::task, task), Kind::task).uea_dataset.empty();
}

void add_invocation_entries(Registry& registry, const Invocation& invocation) {
  if (invocation.uea.empty()) return;
  std::vector<Entry> beside;
  for (const auto& name : invocation.task.beside_uea)
    if (registry.contains(Kind::evaluator, name)) beside.push_back(registry.get(Kind::evaluator, name));
  add_uea_entries(registry, invocation.uea, invocation.uea_registry_paths);
  for (auto& entry : beside) registry.add(Kind::evaluator, std::move(entry));
}

Registry bind_catalog_task(Invocation& inv, const std::string& task, const TaskSpec& defined,
                           const TaskOverrides& overrides, const std::function<Registry(const Invocation&)>& load_registry) {
  if (!overrides.model)
    throw IncompleteTask("task '" + task + "' has no model: give --model NAME (`aeval list models`)");
  if (inv.uea.empty()) inv.uea = std::filesystem::absolute(uea_root({}));
  inv.task.beside_uea = overrides.evaluators ? std::vector<std::string>{} : defined.evaluators;
  Registry registry = load_registry(inv);
  TaskOverrides parts = overrides;
  parts.dataset.reset();
  parts.aggregators.reset();
  BoundTask bound = bind_task(registry, inv.uea, overrides.dataset.value_or(defined.uea_dataset),
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

}  // namespace aeval::uea
