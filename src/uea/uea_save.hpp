#pragma once
// UltraEval-Audio's own result files for a run, as its main.py's --save writes them, so that a UEA
// user's scripts keep reading them: <name>.jsonl, a line per stage of each sample ({"type": "prompt" |
// "inference" | "post_process" | "eval" | "error", "id", "data"}, here in dataset order), and
// <name>-overall.json, the aggregation's dict with fail_rate(%d), as Python's str() prints it.
#include <filesystem>
#include <string>

#include "aeval/pipeline/run_types.hpp"
#include "registry/registry.hpp"

namespace aeval::uea {

// `save` as main.py reads it: a path ending in .jsonl, else a name under res/<model>/<dataset>/.
// `prompt` is the task's prompt entry (its structure is what the "prompt" lines hold).
std::filesystem::path write_uea_results(const std::string& save, const std::string& model, const std::string& dataset,
                                        const std::string& prompt, const registry::Registry& registry,
                                        const pipeline::RunResult& result);

}  // namespace aeval::uea
