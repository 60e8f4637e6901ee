#include <cstdio>

#include "util/atomic_file.hpp"
#include "aeval/report/leaderboard.hpp"
#include "aeval/error.hpp"
#include "cli/commands.hpp"
#include "pipeline/task.hpp"
#include "registry/registry.hpp"

namespace aeval::cli {

Action add_report_command(CLI::App& app, GlobalOptions& global) {
  struct Options {
    std::filesystem::path results = "results", out;
    std::string format = "md", suite;
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
      "  aeval report results/ --suite asr-en     (a column per task of the suite, and their average)");
  report->add_option("results", o->results, "Folder of runs (searched recursively)")->capture_default_str();
  report->add_option("--format,-f", o->format, "md or html")->check(CLI::IsMember({"md", "html"}))->capture_default_str();
  report->add_option("--out,-o", o->out, "Write here instead of standard output");
  report->add_option("--suite", o->suite, "One table for a suite (`aeval list suites`), as the paper's Tables 4-6 (Markdown)");
  return [o, &global]() {
    const auto boards = report::collect_leaderboards(o->results);
    std::string text;
    if (!o->suite.empty()) {
      if (o->format != "md") throw Error(ErrorCategory::config, "--suite tables are Markdown; leave out --format html");
      const pipeline::Registry registry(registry_folders(global));
      text = report::render_suite_markdown(o->suite, pipeline::suite_tasks(registry, o->suite), boards);
    } else {
      text = o->format == "html" ? report::render_html(boards) : report::render_markdown(boards);
    }
    if (o->out.empty()) {
      std::fwrite(text.data(), 1, text.size(), stdout);
    } else {
      write_file_atomically(o->out, text);
      std::fprintf(stderr, "aeval: wrote %s\n", o->out.string().c_str());
    }
    return 0;
  };
}

}  // namespace aeval::cli
