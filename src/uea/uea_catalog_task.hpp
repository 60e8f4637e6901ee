#pragma once
// The run's adapter to UltraEval-Audio: a catalog task defined on UEA's registry (uea_dataset) runs UEA's
// definition of it, with UEA's entries in the registry as ordinary entries and the task's own additions on top.
#include <functional>
#include <string>

#include "aeval/pipeline/run_types.hpp"
#include "aeval/pipeline/task_spec.hpp"
#include "registry/registry.hpp"

namespace aeval::uea {

// Whether the registry's task `task` is defined on UltraEval-Audio's registry (uea_dataset).
bool defined_on_uea(const registry::Registry& registry, const std::string& task);

// The entries of the UEA folder the invocation names (none when it names none) added to `registry`: UEA's names
// win over aeval's, but the evaluators its task scores beside UEA's stay the aeval entries its author named.
void add_invocation_entries(registry::Registry& registry, const pipeline::Invocation& invocation);

// `defined` (the registry's task `task`, with a uea_dataset) bound on UEA's registry: inv.uea is set (when empty:
// $AEVAL_UEA_DIR, else the pinned download), the assignments UEA's evaluators need join inv.sets, the model's
// uea_prompts choose its prompt, the task's own evaluators are scored beside UEA's and its aggregators follow
// UEA's aggregation (or lend it their intervals and groups). `load_registry` is the run's: the invocation's
// registry with these entries and its assignments.
registry::Registry bind_catalog_task(pipeline::Invocation& inv, const std::string& task,
                                     const pipeline::TaskSpec& defined, const pipeline::TaskOverrides& overrides,
                                     const std::function<registry::Registry(const pipeline::Invocation&)>& load_registry);

}  // namespace aeval::uea
