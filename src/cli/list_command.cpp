#include <cstdio>

#include "aeval/pipeline/registry.hpp"
#include "cli/commands.hpp"

namespace aeval::cli {

Action add_list_command(CLI::App& app, GlobalOptions& global) {
  auto kind = std::make_shared<std::string>();
  CLI::App* list = app.add_subcommand("list", "List registry entries: tasks, datasets, models, post-process, evaluators");
  list->add_option("kind", *kind, "Only this kind")
      ->check(CLI::IsMember({"tasks", "datasets", "models", "post-process", "evaluators"}));
  return [kind, &global]() {
    using pipeline::Kind;
    const pipeline::Registry registry(registry_folders(global));
    for (Kind k : {Kind::task, Kind::dataset, Kind::model, Kind::post_process, Kind::evaluator}) {
      if (!kind->empty() && *kind != pipeline::folder_name(k)) continue;
      std::printf("%s:\n", pipeline::folder_name(k));
      for (const auto& name : registry.names(k)) {
        const auto& e = registry.get(k, name);
        std::printf("  %-24s class %-18s %s\n", name.c_str(), e.class_id.c_str(), e.where().c_str());
      }
    }
    return 0;
  };
}

}  // namespace aeval::cli
