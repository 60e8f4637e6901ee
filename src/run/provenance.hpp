#pragma once
// Everything that determines a run's numbers, recorded in the store and in
// summary.json: resume refuses to continue and merge to unite runs when it
// differs.
#include <nlohmann/json.hpp>

#include "aeval/pipeline/run_types.hpp"
#include "tasks/loaded_task.hpp"
#include "registry/registry.hpp"

namespace aeval::pipeline {

nlohmann::json provenance(const registry::Registry& registry, const Invocation& invocation, const LoadedTask& task,
                          const nlohmann::json& model_identity);

}  // namespace aeval::pipeline
