#include "uea/uea_differences.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include "aeval/error.hpp"
#include "tasks/task.hpp"
#include "uea/uea_catalog_task.hpp"
#include "uea/uea_task.hpp"
#include "registry/classes.hpp"
#include "uea/uea_entries.hpp"
#include "uea/uea_location.hpp"

namespace aeval::pipeline {

std::vector<std::string> differences_from_uea(const registry::Registry& registry, const TaskSpec& spec) {
  using registry::Kind;
  std::vector<std::string> reasons;
  const auto visit = [&](Kind kind, const std::string& name) {
    if (name.empty() || !registry.contains(kind, name)) return;
    const registry::Entry& entry = registry.get(kind, name);
    const registry::ClassSpec& declared = registry::class_spec(entry, kind);
    if (!declared.differs_from_uea) return;
    const std::string reason = declared.differs_from_uea(entry.args);
    if (!reason.empty() && std::find(reasons.begin(), reasons.end(), reason) == reasons.end()) reasons.push_back(reason);
  };
  visit(Kind::dataset, spec.dataset);
  visit(Kind::prompt, spec.prompt);
  for (const auto& name : spec.post_process) visit(Kind::post_process, name);
  std::vector<std::string> evaluators;
  for (const auto& name : spec.evaluators)  // aeval's own, scored beside UEA's, are no part of UEA's run
    if (std::find(spec.beside_uea.begin(), spec.beside_uea.end(), name) == spec.beside_uea.end())
      evaluators.push_back(name);
  for (std::size_t k = 0; k < evaluators.size(); ++k) {
    visit(Kind::evaluator, evaluators[k]);
    if (registry.contains(Kind::evaluator, evaluators[k]))
      for (const auto& c : registry.get(Kind::evaluator, evaluators[k]).args["components"]) evaluators.push_back(c.Scalar());
  }
  for (const auto& name : spec.aggregators) visit(Kind::aggregator, name);
  return reasons;
}

struct UeaDifferences::Loaded {
  std::filesystem::path root;  // empty: UEA's registry could not be had
  std::optional<registry::Registry> registry;
  std::map<std::string, TaskSpec> bound;  // by catalog task: binding one reads UEA's files, so once per task
};

UeaDifferences::UeaDifferences(const registry::Registry& catalog) : catalog_(catalog) {}

UeaDifferences::~UeaDifferences() = default;

bool UeaDifferences::defined_on_uea(const std::string& task) const { return uea::defined_on_uea(catalog_, task); }

std::optional<UeaDifferences::Bound> UeaDifferences::bound(const std::string& task) const {
  if (!defined_on_uea(task)) return std::nullopt;
  if (!loaded_) {
    loaded_ = std::make_unique<Loaded>();
    try {
      loaded_->root = std::filesystem::absolute(uea::uea_root({}));
      loaded_->registry.emplace(catalog_);
      uea::add_uea_entries(*loaded_->registry, loaded_->root);
    } catch (const Error& e) {
      std::fprintf(stderr, "aeval: %s\naeval: without UltraEval-Audio's registry, how its tasks differ reads '?'\n",
                   e.what());
      loaded_->root.clear();
    }
  }
  if (loaded_->root.empty()) return std::nullopt;
  auto known = loaded_->bound.find(task);
  if (known == loaded_->bound.end()) {
    const TaskSpec defined = TaskClasses::make(catalog_.get(registry::Kind::task, task), registry::Kind::task);
    // Bound for a model of no setup of its own (uea_task.hpp's model_setup): UEA's generic prompt and scoring.
    TaskOverrides any_model;
    any_model.model = "pocketsphinx-en";
    known = loaded_->bound
                .emplace(task, uea::bind_task(*loaded_->registry, loaded_->root, defined.uea_dataset, defined.uea_task,
                                              any_model)
                                   .spec)
                .first;
  }
  return Bound{*loaded_->registry, known->second};
}

std::vector<std::string> UeaDifferences::operator()(const std::string& task) const {
  if (!defined_on_uea(task)) return {};
  const auto defined = bound(task);
  if (!defined) return {"?"};
  return differences_from_uea(defined->registry, defined->spec);
}

}  // namespace aeval::pipeline
