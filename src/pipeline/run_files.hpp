#pragma once
// The files a run directory shows, rebuilt from its store after every
// session: samples.jsonl and summary.json (dataset order, nothing that
// depends on timing, so byte-identical however the samples were run) and
// run.json (every session, with its timing and command line).
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "aeval/pipeline/runner.hpp"
#include "pipeline/loaded_task.hpp"
#include "pipeline/run_store.hpp"

namespace aeval::pipeline {

// `positions`: the samples the run covers, each of them stored. Adds
// `session` to the store's sessions.
RunResult write_run_files(const std::filesystem::path& run_dir, RunStore& store,
                          const std::vector<std::size_t>& positions, const LoadedTask& task,
                          const nlohmann::json& provenance, const Session& session);

}  // namespace aeval::pipeline
