// aeval merge: runs of one task (the shards of a job array, or runs of
// different samples) united into one run and one corpus summary; no inference.
#include <fmt/format.h>

#include <set>

#include "aeval/error.hpp"
#include "aeval/pipeline/runner.hpp"
#include "run/derived_run.hpp"
#include "run/invocation.hpp"

namespace aeval::pipeline {

using nlohmann::json;

RunResult merge_runs(const std::vector<std::filesystem::path>& run_dirs, const std::filesystem::path& output_root) {
  if (run_dirs.empty()) throw Error(ErrorCategory::config, "merge needs at least one run directory");
  // Each position's sample: its id, whether it failed, and the run it comes from.
  struct Taken {
    std::string id;
    bool failed = false;
    std::filesystem::path run_dir;
  };
  std::map<std::size_t, Taken> samples;
  Invocation merged;
  json model_identity, reference_provenance;
  std::set<std::size_t> limits;
  for (const auto& dir : run_dirs) {
    Invocation inv = recorded_invocation(dir);
    limits.insert(inv.limit);
    RunStore store(dir / "run.sqlite");
    // Runs may differ in which samples they took, nothing else.
    json prov = store.meta("provenance").value_or(json::object());
    prov.erase("selection");
    if (reference_provenance.is_null()) {
      reference_provenance = prov;
      merged = inv;
      model_identity = prov["model"];
    } else if (prov != reference_provenance) {
      throw Error(ErrorCategory::config, fmt::format("{} was run with a different configuration than {}; only runs of "
                                                     "the same task, model and settings can be merged",
                                                     dir.string(), run_dirs.front().string()));
    }
    for (auto& [position, s] : store.states()) {
      const auto it = samples.find(position);
      if (it != samples.end() && it->second.id != s.id)
        throw Error(ErrorCategory::data, fmt::format("{}: position {} holds '{}' here and '{}' elsewhere", dir.string(),
                                                     position, s.id, it->second.id));
      // A success anywhere wins over a failure.
      if (it == samples.end() || it->second.failed) samples[position] = {s.id, s.failed, dir};
    }
  }
  // Shards of one run with --limit L are that run: its summary says limit L, as the run on one machine does.
  merged.shard = {};
  merged.limit = limits.size() == 1 ? *limits.begin() : 0;
  std::map<std::size_t, std::filesystem::path> sources;
  for (const auto& [position, taken] : samples) sources[position] = taken.run_dir;
  return derive_run(load_registry(merged), merged, sources, false, model_identity, output_root, "-merged");
}

}  // namespace aeval::pipeline
