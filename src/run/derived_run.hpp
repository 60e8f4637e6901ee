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

// Writes OUTPUT/<task>/<model>/<run-id><suffix>/ with the samples of `sources`: for each dataset position, the run
// directory whose store holds the sample to take (its output audio is copied along). With `rescore`, samples that
// have a prediction are post-processed and scored again by the invocation's components, else they are kept as
// they are. The stores are read one sample at a time, and written in batches: no run is held whole.
RunResult derive_run(const registry::Registry& registry, const Invocation& invocation,
                     const std::map<std::size_t, std::filesystem::path>& sources, bool rescore,
                     const nlohmann::json& model_identity, const std::filesystem::path& output_root,
                     const std::string& suffix);

}  // namespace aeval::pipeline
