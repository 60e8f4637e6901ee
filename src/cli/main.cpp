// aeval: evaluate audio foundation models end to end.
#include <malloc.h>

#include <cstdio>
#include <cstdlib>

#include "aeval/error.hpp"
#include "aeval/version.hpp"
#include "registry/registry.hpp"
#include "cli/commands.hpp"

namespace aeval::cli {

std::vector<std::filesystem::path> registry_folders(const GlobalOptions& global) {
  std::vector<std::filesystem::path> folders{registry::builtin_registry_dir()};
  folders.insert(folders.end(), global.registries.begin(), global.registries.end());
  return folders;
}

}  // namespace aeval::cli

int main(int argc, char** argv) {
  using namespace aeval;
  // Blocks of 256 KB and more (a dataset's index, a model's index of answers, a vector grown by doubling) are mapped
  // and go back to the system when freed. glibc's threshold otherwise rises past each one freed, and later ones are
  // carved from the heap, which keeps its high-water mark: a million-sample run held 10 MB more that way.
  ::mallopt(M_MMAP_THRESHOLD, 256 << 10);
  CLI::App app{
      "aeval evaluates audio foundation models end to end: a task binds a dataset, a model,\n"
      "post-processing and evaluators (all named in the registry); `aeval run` produces\n"
      "per-sample results and a summary with full provenance.\n\n"
      "Start here:\n"
      "  aeval run --task asr-quickstart     PocketSphinx on the Asterisk prompts, WER/CER\n"
      "  aeval list                          every task, dataset, prompt, model, evaluator, ...\n"
      "  aeval describe NAME                 an entry and the arguments its class takes\n"
      "  aeval score --list                  reference-exact metrics on text files\n"
      "  aeval list benchmarks               every public benchmark: its task, suites, metric, source\n"
      "  aeval list datasets                 every dataset: source, licence, size, cached or not\n"
      "  aeval fetch dataset NAME            download a dataset once (aeval cache: what is kept)\n"
      "  aeval report results/               leaderboard tables across runs (md or html)\n"
      "  aeval submit slurm --task T --shards N   a Slurm job array of shards, merged (aeval status)\n"
      "  aeval uea check                     UltraEval-Audio's own registry: what aeval runs of it\n",
      "aeval"};
  app.set_version_flag("--version", std::string("aeval ") + kVersion + " (" + kGitCommit + ")");
  app.require_subcommand(1);
  // Global options are taken after the command too: `aeval run --registry DIR ...`.
  app.fallthrough();
  cli::GlobalOptions global;
  global.argv.assign(argv, argv + argc);
  app.add_option("--registry", global.registries,
                 "Extra registry folder (repeatable); later folders override earlier ones")
      ->check(CLI::ExistingDirectory);

  std::vector<std::pair<CLI::App*, cli::Action>> actions;
  auto remember = [&](const std::string& name, cli::Action action) {
    actions.emplace_back(app.get_subcommand(name), std::move(action));
  };
  remember("run", cli::add_run_command(app, global));
  remember("rescore", cli::add_rescore_command(app));
  remember("merge", cli::add_merge_command(app));
  remember("report", cli::add_report_command(app, global));
  remember("list", cli::add_list_command(app, global));
  remember("describe", cli::add_describe_command(app, global));
  remember("fetch", cli::add_fetch_command(app, global));
  remember("cache", cli::add_cache_command(app, global));
  remember("score", cli::add_score_command(app, global));
  remember("submit", cli::add_submit_command(app, global));
  remember("status", cli::add_status_command(app));
  remember("uea", cli::add_uea_command(app, global));
  remember("view", cli::add_view_command(app));
  for (auto& [sub, action] : actions)
    sub->footer(sub->get_footer() + (sub->get_footer().empty() ? "" : "\n\n") +
                "Global option, before or after the command: --registry DIR (an extra registry folder; repeatable).");

  // `aeval` alone is a newcomer asking what it does: the help, with its "Start here", not a parse error.
  if (argc == 1) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version succeed; every rejected command line exits 2, as documented.
    if (dynamic_cast<const CLI::ExtrasError*>(&e))
      if (const std::string unexpected = cli::unexpected_arguments(app, global.argv); !unexpected.empty()) {
        std::fprintf(stderr, "%s\nRun with --help for more information.\n", unexpected.c_str());
        return 2;
      }
    if (app.exit(e) == 0) return 0;
    if (const std::string hint = cli::command_line_suggestion(app, global.argv); !hint.empty())
      std::fprintf(stderr, "%s\n", hint.c_str());
    return 2;
  }
  // The docs test (tests/e2e/docs_commands_e2e_test.cpp): every command the docs show is read, none run.
  if (std::getenv("AEVAL_CHECK_COMMAND_LINE")) return 0;
  try {
    for (auto& [sub, action] : actions)
      if (sub->parsed()) return action();
  } catch (const CLI::Error& e) {
    // Options that cannot go together, found once the command line is read.
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const pipeline::IncompleteTask& e) {
    // An option the command line lacks (--model): a usage error, like those CLI11 finds.
    app.exit(CLI::ValidationError(e.what()));
    return 2;
  } catch (const Error& e) {
    std::fprintf(stderr, "aeval: %s error: %s\n", to_string(e.category()), e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "aeval: internal error: %s\n", e.what());
    return 1;
  }
  return 0;
}
