#include "cli/interrupt_hint.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include <unistd.h>

namespace aeval::cli {

namespace {

// Written by the handler with write(2) alone: formatted before any signal can arrive.
char g_hint[4096];
std::size_t g_hint_size = 0;
struct sigaction g_previous_int, g_previous_term;

void say_and_end(int signal) {
  [[maybe_unused]] const auto written = write(STDERR_FILENO, g_hint, g_hint_size);
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
  raise(signal);
}

}  // namespace

InterruptHint::InterruptHint(const std::filesystem::path& run_dir) {
  const std::string hint = "\naeval: interrupted; the samples finished are stored: `aeval run --resume " +
                           run_dir.string() + "` continues the run\n";
  g_hint_size = std::min(hint.size(), sizeof g_hint);
  std::memcpy(g_hint, hint.data(), g_hint_size);
  struct sigaction action {};
  action.sa_handler = say_and_end;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

InterruptHint::~InterruptHint() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

void announce_run_folder(pipeline::RunOptions& options, std::unique_ptr<InterruptHint>& hint, bool quiet) {
  options.on_run_folder = [&hint, quiet](const std::filesystem::path& run_dir) {
    if (!quiet) std::fprintf(stderr, "aeval: run folder %s\n", run_dir.string().c_str());
    hint.reset();  // the handlers it replaced come back first, so that the new one saves those
    hint = std::make_unique<InterruptHint>(run_dir);
  };
}

}  // namespace aeval::cli
