#pragma once
// Runs a task end to end: render each sample's prompt, infer with bounded
// concurrency (through the response cache), post-process and score, storing
// every finished sample in the run store at once. samples.jsonl (dataset
// order) and summary.json are regenerated from the store, so they are
// byte-identical whatever the concurrency and however often the run was
// interrupted and resumed. Timing and command lines go to run.json.
#include <filesystem>
#include <vector>

#include "aeval/pipeline/run_types.hpp"
#include "aeval/pipeline/task_spec.hpp"

namespace aeval::registry {
class Registry;  // the registry an invocation names (src/registry/registry.hpp)
}  // namespace aeval::registry

namespace aeval::pipeline {

// A new run in OUTPUT/<task>/<model>/<run-id>/. `registry` is the one the
// invocation names (its folders with its --set assignments applied), which
// the caller has loaded to resolve the task.
RunResult run_task(const registry::Registry& registry, const Invocation& invocation, const RunOptions& options);
// Continues RUN_DIR with the configuration its store recorded, redoing only
// samples that are missing or failed.
RunResult resume_run(const std::filesystem::path& run_dir, const RunOptions& options);
// The run directory most recently written under `output_root`.
std::filesystem::path latest_run(const std::filesystem::path& output_root);
// Combines runs of one task (shards, or runs of different samples) into a
// new run directory; no inference.
RunResult merge_runs(const std::vector<std::filesystem::path>& run_dirs, const std::filesystem::path& output_root);
// Recomputes post-processing, scores and aggregates from a run's stored
// predictions, with the overrides' post-process/evaluators/aggregators, into
// a new run directory; no inference.
RunResult rescore_run(const std::filesystem::path& run_dir, const TaskOverrides& overrides,
                      const std::filesystem::path& output_root);

}  // namespace aeval::pipeline
