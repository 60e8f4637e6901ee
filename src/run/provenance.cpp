#include "run/provenance.hpp"

#include <fmt/format.h>

#include "aeval/version.hpp"
#include "registry/classes.hpp"

namespace aeval::pipeline {

using registry::Entry;
using registry::is_manifest_path;
using registry::Kind;
using registry::Registry;
using registry::yaml_to_json;

using nlohmann::json;

namespace {

// A registry entry as it was when the run used it (a manifest path names itself).
json entry_json(const Registry& registry, Kind kind, const std::string& name) {
  if (kind == Kind::dataset && is_manifest_path(name)) return {{"manifest", name}};
  const Entry& e = registry.get(kind, name);
  return {{"name", e.name}, {"class", e.class_id}, {"args", yaml_to_json(e.args)}};
}

}  // namespace

json provenance(const Registry& registry, const Invocation& inv, const LoadedTask& t, const json& model_identity) {
  json entries = {{"dataset", entry_json(registry, Kind::dataset, inv.task.dataset)},
                  {"model", entry_json(registry, Kind::model, inv.task.model)}};
  if (!inv.task.prompt.empty()) entries["prompt"] = entry_json(registry, Kind::prompt, inv.task.prompt);
  for (const auto& n : inv.task.post_process) entries["post_process"].push_back(entry_json(registry, Kind::post_process, n));
  for (const auto& n : inv.task.evaluators) entries["evaluators"].push_back(entry_json(registry, Kind::evaluator, n));
  for (const auto& n : inv.task.aggregators) entries["aggregators"].push_back(entry_json(registry, Kind::aggregator, n));
  json post_process = json::array(), evaluators = json::array(), aggregators = json::array();
  for (const auto& p : t.post_process) post_process.push_back(p.identity);
  for (const auto& e : t.evaluators) evaluators.push_back(e->identity());
  for (const auto& a : t.aggregators) aggregators.push_back(a.identity());
  return {{"aeval_version", kVersion},
          {"task", inv.task.to_json()},
          {"entries", entries},
          {"sets", inv.sets},
          {"selection", {{"limit", inv.limit}, {"shard", fmt::format("{}/{}", inv.shard.index, inv.shard.count)}}},
          {"dataset", t.dataset.description},
          {"prompt", t.prompt.identity()},
          {"model", model_identity},
          {"post_process", post_process},
          {"evaluators", evaluators},
          {"aggregators", aggregators}};
}

}  // namespace aeval::pipeline
