#pragma once
// A new run made from stored samples rather than inference: merge unites
// runs, rescore scores one again.
#include <cstddef>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "aeval/pipeline/run_types.hpp"
#include "run/run_store.hpp"
#include "registry/registry.hpp"

namespace aeval::pipeline {

// A stored sample and the run directory it comes from (its output audio is there).
struct StoredFrom {
  StoredSample sample;
  std::filesystem::path run_dir;
};

// Writes OUTPUT/<task>/<model>/<run-id><suffix>/ with `samples` (by dataset
// position), their output audio copied along; with `rescore`, samples that
// have a prediction are post-processed and scored again by the invocation's
// components, else they are kept as they are.
RunResult derive_run(const registry::Registry& registry, const Invocation& invocation,
                     const std::map<std::size_t, StoredFrom>& samples, bool rescore,
                     const nlohmann::json& model_identity, const std::filesystem::path& output_root,
                     const std::string& suffix);

}  // namespace aeval::pipeline
