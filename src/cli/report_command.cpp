#include <unistd.h>

#include <cstdio>

#include "util/atomic_file.hpp"
#include "aeval/report/leaderboard.hpp"
#include "aeval/error.hpp"
#include "cli/commands.hpp"
#include "tasks/task.hpp"
#include "uea/uea_differences.hpp"
#include "registry/registry.hpp"

namespace aeval::cli {

Action add_report_command(CLI::App& app, GlobalOptions& global) {
  struct Options {
    std::filesystem::path results = "results", out;
    std::string format = "md", suite;
    bool fail_on_deviation = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* report = app.add_subcommand("report", "Leaderboard tables across runs (Markdown or self-contained HTML)");
  report->footer(
      "One table per task: a row per model, a column per metric (per dataset and metric when a\n"
      "task ran on several; each from the model's latest run) and the normalized average of the\n"
      "UltraEval-Audio paper (100 − WER, 100 × accuracy, BLEU, 20 × MOS; signal metrics and\n"
      "unbounded scores such as CIDEr-D are shown, not averaged). Codecs get a bitrate column.\n"
      "The HTML file adds a bar chart per task and, for codecs, each metric against bitrate; it\n"
      "needs no server, script or network.\n\n"
      "Examples:\n"
      "  aeval report results/\n"
      "  aeval report results/ --format html --out leaderboard.html\n"
      "  aeval report results/ --suite asr-en     (a column per task of the suite, and their average)\n\n"
      "Tasks whose registry entry lists published results (`published:`) get a table holding each\n"
      "run against them; a run further from the published value than its tolerance is marked\n"
      "DEVIATES (a different prompt, normalizer or split is the usual cause). Runs of one model\n"
      "with several prompts (`aeval run --prompt-variants`) are rows of their own, and a table\n"
      "shows how far the prompts move each metric.\n\n"
      "Exit status: 0 written; 1 no runs or a malformed summary; 2 the command line is wrong (html\n"
      "to a terminal); 3 with --fail-on-deviation when a run deviates from a published number.");
  report->add_option("results", o->results, "Folder of runs (searched recursively)")->capture_default_str();
  report->add_option("--format,-f", o->format, "md or html")->check(one_of({"md", "html"}))->capture_default_str();
  report->add_option("--out,-o", o->out, "Write here instead of standard output (html: not to a terminal)");
  report->add_option("--suite", o->suite, "One table for a suite (`aeval list suites`), as the paper's Tables 4-6");
  report->add_flag("--fail-on-deviation", o->fail_on_deviation,
                   "Exit with status 3 when a run deviates from a number its task entry publishes");
  return [o, &global]() {
    // A page is a file to open in a browser: to a terminal it is a screenful of markup (a pipe still gets it).
    if (o->format == "html" && o->out.empty() && isatty(STDOUT_FILENO))
      throw CLI::ValidationError("--format html writes a page to open in a browser, not text for a terminal: give "
                                 "--out FILE (e.g. --out leaderboard.html), or redirect standard output");
    auto boards = report::collect_leaderboards(o->results);
    const registry::Registry registry(registry_folders(global));
    const pipeline::UeaDifferences differences(registry);
    std::size_t deviations = 0;
    for (auto& board : boards) {
      if (!registry.contains(registry::Kind::task, board.task)) continue;
      board.differs_from_uea = differences(board.task);
      const pipeline::TaskSpec spec =
          pipeline::TaskClasses::make(registry.get(registry::Kind::task, board.task), registry::Kind::task);
      std::vector<std::string> variants;  // the prompts other than the task's own
      for (const auto& prompt : spec.prompt_variants)
        if (prompt != spec.prompt) variants.push_back(prompt);
      report::check_published(board, spec.published, variants);
      for (const auto& check : board.published)
        if (check.deviates()) {
          ++deviations;
          std::fprintf(stderr, "aeval: %s: %s's %s is %.4g, published %.4g ± %.4g (%s)\n", board.task.c_str(),
                       check.row.c_str(), check.published.metric.c_str(), *check.run_value, check.published.value,
                       check.published.tolerance, check.published.source.c_str());
        }
    }
    std::string text;
    if (!o->suite.empty()) {
      auto table = report::build_suite_table(o->suite, pipeline::suite_columns(registry, o->suite), boards);
      for (const auto& column : pipeline::suite_columns(registry, o->suite))
        for (const auto& task : column.tasks)
          if (auto reasons = differences(task); !reasons.empty()) table.differs_from_uea[task] = std::move(reasons);
      text = o->format == "html" ? report::render_suite_html(table) : report::render_suite_markdown(table);
    } else {
      text = o->format == "html" ? report::render_html(boards) : report::render_markdown(boards);
    }
    if (o->out.empty()) {
      std::fwrite(text.data(), 1, text.size(), stdout);
    } else {
      write_file_atomically(o->out, text);
      std::fprintf(stderr, "aeval: wrote %s\n", o->out.string().c_str());
    }
    return o->fail_on_deviation && deviations ? 3 : 0;
  };
}

}  // namespace aeval::cli
