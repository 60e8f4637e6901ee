// aeval rescore: a run's stored predictions post-processed, scored and
// aggregated again, with the overrides' components, into a new run; no inference.
#include "aeval/pipeline/runner.hpp"
#include "run/derived_run.hpp"
#include "run/invocation.hpp"

namespace aeval::pipeline {

using registry::Kind;
using registry::Registry;

RunResult rescore_run(const std::filesystem::path& run_dir, const TaskOverrides& overrides,
                      const std::filesystem::path& output_root) {
  Invocation inv = recorded_invocation(run_dir);
  RunStore store(run_dir / "run.sqlite");
  const nlohmann::json model_identity = store.meta("provenance").value_or(nlohmann::json::object())["model"];
  inv.task.post_process = overrides.post_process.value_or(inv.task.post_process);
  inv.task.evaluators = overrides.evaluators.value_or(inv.task.evaluators);
  inv.task.aggregators = overrides.aggregators.value_or(inv.task.aggregators);
  const Registry registry = load_registry(inv);
  // Unknown names fail here, with a did-you-mean, before anything is written.
  for (const auto& name : inv.task.post_process) registry.get(Kind::post_process, name);
  for (const auto& name : inv.task.evaluators) registry.get(Kind::evaluator, name);
  for (const auto& name : inv.task.aggregators) registry.get(Kind::aggregator, name);
  std::map<std::size_t, std::filesystem::path> sources;
  for (const auto& [position, state] : store.states()) sources[position] = run_dir;
  return derive_run(registry, inv, sources, true, model_identity, output_root, "-rescored");
}

}  // namespace aeval::pipeline
