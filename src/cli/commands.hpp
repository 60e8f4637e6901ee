#pragma once
// Each subcommand registers its options on the CLI11 app and returns the
// action to run when it is chosen.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "aeval/pipeline/run_types.hpp"
#include "aggregators/aggregator.hpp"
#include "datasets/dataset.hpp"
#include "evaluators/evaluator.hpp"
#include "evaluators/model_loading.hpp"
#include "post_process/post_process.hpp"
#include "prompts/prompt.hpp"
#include "tasks/task.hpp"

namespace aeval::cli {

struct GlobalOptions {
  std::vector<std::filesystem::path> registries;  // --registry, after the built-in one
  std::vector<std::string> argv;
};

using Action = std::function<int()>;

// The component options shared by run and rescore.
struct ComponentOptions {
  std::string dataset, prompt, model, post_process, evaluators, aggregators;
  pipeline::TaskOverrides overrides() const;
};
void add_component_options(CLI::App* command, ComponentOptions& options, bool inference);

Action add_run_command(CLI::App& app, GlobalOptions& global);
Action add_rescore_command(CLI::App& app);
Action add_merge_command(CLI::App& app);
Action add_report_command(CLI::App& app, GlobalOptions& global);
Action add_list_command(CLI::App& app, GlobalOptions& global);
Action add_describe_command(CLI::App& app, GlobalOptions& global);
Action add_fetch_command(CLI::App& app, GlobalOptions& global);
Action add_cache_command(CLI::App& app, GlobalOptions& global);
Action add_score_command(CLI::App& app, const GlobalOptions& global);
Action add_submit_command(CLI::App& app, GlobalOptions& global);
Action add_status_command(CLI::App& app);
Action add_uea_command(CLI::App& app, GlobalOptions& global);
Action add_view_command(CLI::App& app);

// Prints a run's summary and where its files are; the exit status: 3 when more than
// `max_fail_rate` of the samples failed, or every one did.
int report_result(const pipeline::RunResult& result, double max_fail_rate);

// Option checks that make a wrong command line exit 2 before anything runs.
// A count of samples: digits only (CLI11 would read "-1" as a huge number),
// and small enough to be one.
extern const CLI::Validator kSampleCount;
// --shard: auto, or I/N with 0 <= I < N.
extern const CLI::Validator kShard;
// A value that must be one of `names`; a near miss gets "did you mean".
CLI::Validator one_of(std::vector<std::string> names);

// "did you mean: --task?" for a command line CLI11 refused (unknown options
// and commands, against those of the commands it chose), or "".
std::string command_line_suggestion(const CLI::App& app, const std::vector<std::string>& argv);

// For a command line CLI11 refused for arguments it did not expect: each, in the order written, as
// "unknown option --limt (did you mean --limit?)" or "unexpected argument foo"; "" when none is left.
std::string unexpected_arguments(const CLI::App& app, const std::vector<std::string>& argv);

// The built-in registry followed by the user's --registry folders.
std::vector<std::filesystem::path> registry_folders(const GlobalOptions& global);

}  // namespace aeval::cli
