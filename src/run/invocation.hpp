#pragma once
// An invocation recreates a run's configuration: the registry it was
// configured with, and the invocation a run directory recorded.
#include <filesystem>

#include "aeval/pipeline/run_types.hpp"
#include "aeval/pipeline/task_spec.hpp"
#include "registry/registry.hpp"

namespace aeval::pipeline {

// The invocation's registry folders with its --set assignments applied.
registry::Registry load_registry(const Invocation& invocation);

// The registry a run uses, with inv.task bound: `task` (may be empty) resolved with `overrides`
// (resolve_task). A task defined on UltraEval-Audio's registry (uea_dataset) is bound by UEA's adapter
// (uea::bind_catalog_task); the UEA folder given in inv.uea is used only by such a task.
registry::Registry bind_task(Invocation& inv, const std::string& task, const TaskOverrides& overrides);

// The invocation recorded in RUN_DIR/run.sqlite; throws aeval::Error (data)
// when `run_dir` is not a run directory.
Invocation recorded_invocation(const std::filesystem::path& run_dir);

}  // namespace aeval::pipeline
