#pragma once
// Each subcommand registers its options on the CLI11 app and returns the
// action to run when it is chosen.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace aeval::cli {

struct GlobalOptions {
  std::vector<std::filesystem::path> registries;  // --registry, after the built-in one
  std::vector<std::string> argv;
};

using Action = std::function<int()>;

Action add_run_command(CLI::App& app, GlobalOptions& global);
Action add_list_command(CLI::App& app, GlobalOptions& global);
Action add_fetch_command(CLI::App& app);
Action add_score_command(CLI::App& app);

// The built-in registry followed by the user's --registry folders.
std::vector<std::filesystem::path> registry_folders(const GlobalOptions& global);

}  // namespace aeval::cli
