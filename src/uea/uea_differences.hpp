#pragma once
// Where a task defined on UltraEval-Audio's registry gives other numbers than UEA's own run of it, and why: the
// reasons the classes of its entries declare (ClassSpec::differs_from_uea), gathered over the dataset, prompt,
// post-processing, evaluators (an ensemble's components too) and aggregations it runs. `aeval list benchmarks`,
// `aeval describe`, `aeval report` and `aeval uea run` print these and nothing else.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aeval/pipeline/task_spec.hpp"
#include "registry/registry.hpp"

namespace aeval::pipeline {

// Each reason once, in the order the task's entries are run. `registry` holds UEA's entries the spec names.
std::vector<std::string> differences_from_uea(const registry::Registry& registry, const TaskSpec& spec);

// The catalog's tasks, each bound as UEA's registry defines it (uea_dataset); UEA's registry (uea::uea_root: the
// pinned download, or $AEVAL_UEA_DIR) is loaded once, when a task defined on it is first asked about.
class UeaDifferences {
 public:
  explicit UeaDifferences(const registry::Registry& catalog);
  ~UeaDifferences();
  // Whether the catalog's task is defined on UEA's registry.
  bool defined_on_uea(const std::string& task) const;
  // Its differences: none for a task of aeval's own; {"?"} when UEA's registry cannot be had (stderr says why,
  // once).
  std::vector<std::string> operator()(const std::string& task) const;
  // The task as UEA's registry binds it for a model of no setup of its own (UEA's generic prompt and scoring), and
  // the registry holding the UEA entries it names; nullopt for a task of aeval's own, or without UEA's registry.
  struct Bound {
    const registry::Registry& registry;
    TaskSpec spec;
  };
  std::optional<Bound> bound(const std::string& task) const;

 private:
  struct Loaded;
  const registry::Registry& catalog_;
  mutable std::unique_ptr<Loaded> loaded_;
};

}  // namespace aeval::pipeline
