// aeval view: a local web app over a results folder (src/view).
#include <cstdio>

#include "cli/commands.hpp"
#include "view/view_server.hpp"

namespace aeval::cli {

Action add_view_command(CLI::App& app) {
  struct Options {
    std::filesystem::path results = "results";
    view::ServerOptions server;
  };
  auto o = std::make_shared<Options>();
  CLI::App* view = app.add_subcommand("view", "Look at and listen to results in a browser: runs, leaderboards, samples");
  view->footer(
      "Serves a page app and a JSON API over a folder of runs, on this machine only unless --host\n"
      "says otherwise. It reads the runs (their summaries and run stores) and never writes them;\n"
      "runs still going show what they have stored so far.\n\n"
      "  Runs          every run, with task, model, dataset, date, samples, failures and metrics\n"
      "  Leaderboards  aeval report's boards; any metric charted, with its bootstrap interval\n"
      "  Samples       a run's samples, sorted and filtered in its store (any size); each one\n"
      "                with its audio as players (input, the model's audio, audio fields), the\n"
      "                prompt sent, the raw and processed answer, and the word alignment WER counted\n"
      "  Compare       two runs of one dataset sample by sample, by the difference of a score\n\n"
      "Examples:\n"
      "  aeval view                      (results/ at http://127.0.0.1:8470/)\n"
      "  aeval view runs/ --port 0       (any free port; the address is printed)\n\n"
      "API: GET /api/runs, /api/boards, /api/runs/<id>/samples?sort=wer&order=desc&failed=1&q=...,\n"
      "/api/runs/<id>/samples/<position>[/audio/<role>], /api/compare?a=<id>&b=<id>&metric=wer.\n"
      "Audio is served decoded, as 16-bit WAV at its own rate, whatever the dataset stored.");
  view->add_option("results", o->results, "Folder of runs (searched recursively)")->capture_default_str();
  view->add_option("--port", o->server.port, "Port to listen on; 0: any free one")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  view->add_option("--host", o->server.host, "Address to listen on (0.0.0.0 shares it with the network)")
      ->capture_default_str();
  return [o]() {
    const view::ResultsFolder results(o->results);
    view::serve(results, o->server, [&](const std::string& url) {
      std::printf("aeval view: %s at %s (Ctrl-C stops it)\n", results.root().c_str(), url.c_str());
      std::fflush(stdout);
    });
    return 0;
  };
}

}  // namespace aeval::cli
