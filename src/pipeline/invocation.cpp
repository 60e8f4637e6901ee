#include "pipeline/invocation.hpp"

#include <fmt/format.h>

#include "aeval/error.hpp"
#include "pipeline/run_store.hpp"
#include "registry/uea_entries.hpp"

namespace aeval::pipeline {

using nlohmann::json;

json Invocation::to_json() const {
  json folders = json::array();
  for (const auto& f : registry) folders.push_back(std::filesystem::absolute(f).string());
  json j{{"registry", folders}, {"sets", sets}, {"task", task.to_json()}, {"limit", limit},
         {"shard", {shard.index, shard.count}}};
  if (!uea.empty()) j["uea"] = std::filesystem::absolute(uea).string();
  return j;
}

Invocation Invocation::from_json(const json& j) {
  Invocation inv;
  for (const auto& f : j.at("registry")) inv.registry.emplace_back(f.get<std::string>());
  inv.sets = j.at("sets").get<std::vector<std::string>>();
  inv.task = TaskSpec::from_json(j.at("task"));
  inv.limit = j.at("limit");
  inv.shard = {j.at("shard")[0], j.at("shard")[1]};
  if (j.contains("uea")) inv.uea = j["uea"].get<std::string>();
  return inv;
}

Registry load_registry(const Invocation& invocation) {
  Registry r(invocation.registry);
  if (!invocation.uea.empty()) uea::add_uea_entries(r, invocation.uea);
  for (const auto& assignment : invocation.sets) apply_assignment(r, assignment);
  return r;
}

Invocation recorded_invocation(const std::filesystem::path& run_dir) {
  const auto file = run_dir / "run.sqlite";
  if (!std::filesystem::exists(file))
    throw Error(ErrorCategory::data, fmt::format("{} is not a run directory (no run.sqlite)", run_dir.string()));
  RunStore store(file);
  const auto inv = store.meta("invocation");
  if (!inv) throw Error(ErrorCategory::data, fmt::format("{}: the run store has no recorded invocation", file.string()));
  return Invocation::from_json(*inv);
}

}  // namespace aeval::pipeline
