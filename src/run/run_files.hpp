#pragma once
// The files a run directory shows, rebuilt from its store after every
// session: samples.jsonl and summary.json (dataset order, nothing that
// depends on timing, so byte-identical however the samples were run) and
// run.json (every session, with its timing and command line).
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "aeval/pipeline/run_types.hpp"
#include "tasks/loaded_task.hpp"
#include "run/positions.hpp"
#include "run/run_store.hpp"

namespace aeval::pipeline {

// Lists `session` in the store the moment it starts, with the number of
// samples stored before it, so run.json names it even if it is killed.
void record_session_start(RunStore& store, const Session& session, std::size_t stored_before);

// `positions`: the samples the run covers, each of them stored. Completes
// `session`, the store's last, and writes run.json from every session the
// store lists: one killed before its end shows `"interrupted": true` and the
// samples it stored.
RunResult write_run_files(const std::filesystem::path& run_dir, RunStore& store,
                          const Positions& positions, const LoadedTask& task,
                          const nlohmann::json& provenance, const Session& session);

}  // namespace aeval::pipeline
