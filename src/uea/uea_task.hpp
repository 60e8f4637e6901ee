#pragma once
// A run bound as UltraEval-Audio's main.py binds it: what `aeval uea run` runs, and what a
// catalog task defined on UEA's registry (uea_dataset) runs with aeval's additions on top.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "aeval/pipeline/task_spec.hpp"
#include "registry/registry.hpp"

namespace aeval::uea {

struct BoundTask {
  pipeline::TaskSpec spec;
  // --set assignments the run needs: UEA's evaluators read the dataset's ref_col as the row stores it.
  std::vector<std::string> sets;
  // The prompt of UEA's eval task when the model's own replaced it (model_setup), else empty.
  std::string replaced_prompt;
};

// What a model's publisher runs in place of UEA's eval task prompt (seed 004 §5: "the prompts and parameters
// provided by the publisher"), from the uea_prompts of the model's aeval entry, or of the aeval entry naming it
// among its uea_models (UEA's own entries of the same model). Keys: PROMPT@DATASET, PROMPT@LANGUAGE, PROMPT;
// a value names UEA's prompt entry, or {prompt, evaluator, agg} where that prompt needs its own scoring.
struct ModelSetup {
  std::string prompt, evaluator, agg;
};
std::optional<ModelSetup> model_setup(const registry::Registry& registry, const std::string& model,
                                      const std::string& prompt, const std::string& dataset,
                                      const std::string& language);

// `registry` holds the UEA folder `uea_root`'s entries (add_uea_entries). The eval task is
// `task`, else the dataset entry's default_task; each override replaces that part of it, as
// main.py's options do, and the model's setup replaces what no option gives; `ref_col` (--dataset_ref_col)
// replaces the entry's. `language` keys the model's setup (default: the language of the catalog task on the
// dataset). An entry aeval does not support is an aeval::Error (config) with UEA's kind, name and the reason.
BoundTask bind_task(const registry::Registry& registry, const std::filesystem::path& uea_root, const std::string& dataset,
                    const std::string& task, const pipeline::TaskOverrides& overrides, const std::string& ref_col = "",
                    const std::vector<std::filesystem::path>& registry_paths = {}, std::string language = "");

}  // namespace aeval::uea
