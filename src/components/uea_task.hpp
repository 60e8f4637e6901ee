#pragma once
// A run bound as UltraEval-Audio's main.py binds it: what `aeval uea run` runs, and what a
// catalog task defined on UEA's registry (uea_dataset) runs with aeval's additions on top.
#include <filesystem>
#include <string>
#include <vector>

#include "aeval/pipeline/task_spec.hpp"
#include "registry/registry.hpp"

namespace aeval::uea {

struct BoundTask {
  pipeline::TaskSpec spec;
  // --set assignments the run needs: UEA's evaluators read the dataset's ref_col as the row stores it.
  std::vector<std::string> sets;
};

// `registry` holds the UEA folder `uea_root`'s entries (add_uea_entries). The eval task is
// `task`, else the dataset entry's default_task; each override replaces that part of it, as
// main.py's options do; `ref_col` (--dataset_ref_col) replaces the entry's. An entry aeval
// does not support is an aeval::Error (config) with UEA's kind, name and the reason.
BoundTask bind_task(const registry::Registry& registry, const std::filesystem::path& uea_root, const std::string& dataset,
                    const std::string& task, const pipeline::TaskOverrides& overrides, const std::string& ref_col = "",
                    const std::vector<std::filesystem::path>& registry_paths = {});

}  // namespace aeval::uea
