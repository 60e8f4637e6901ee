#pragma once
// An invocation recreates a run's configuration: the registry it was
// configured with, and the invocation a run directory recorded.
#include <filesystem>

#include "aeval/pipeline/runner.hpp"
#include "registry/registry.hpp"

namespace aeval::pipeline {

// The invocation's registry folders with its --set assignments applied.
Registry load_registry(const Invocation& invocation);

// The invocation recorded in RUN_DIR/run.sqlite; throws aeval::Error (data)
// when `run_dir` is not a run directory.
Invocation recorded_invocation(const std::filesystem::path& run_dir);

}  // namespace aeval::pipeline
