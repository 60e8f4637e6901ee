// aeval's own overhead on remote models: an OpenAI-compatible server with a
// fixed 20 ms latency (one epoll thread) runs in a child process; the parent
// keeps 1, 16, 128 or 512 make_openai_chat inferences in flight (each
// completion starts the next, as the runner's workers do) and reports
// requests per second against what the server can serve: concurrency /
// latency, and what wrk (a C load generator, when installed) gets from the
// same server at the same concurrency. CPU time per request is the client's
// (the HTTP loop, request JSON, reply parsing, the endpoint budget), measured
// with the parent's CPU clock only.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <thread>

#include "models/openai.hpp"
#include "fixed_latency_server.hpp"

namespace {

constexpr double kLatency = 0.020;
const char* kQuestion = "Is there a dog barking?";

// The process's CPU time (all threads, user and system), from the scheduler's
// nanosecond accounting.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

// Keeps `concurrency` inferences in flight until `requests` have ended; returns the failures.
int drive(aeval::models::Model& model, const aeval::models::Request& request, int concurrency, int requests) {
  struct State {
    std::atomic<int> started{0}, ended{0}, failed{0};
    std::promise<void> all_done;
  };
  auto state = std::make_shared<State>();
  std::function<void()> next = [&] {
    if (state->started++ >= requests) return;
    model.infer(request, [&, state](std::exception_ptr error, aeval::models::Response) {
      if (error) ++state->failed;
      next();
      if (++state->ended == requests) state->all_done.set_value();  // the last use of this frame
    });
  };
  for (int k = 0; k < concurrency; ++k) next();
  state->all_done.get_future().wait();
  return state->failed;
}

// wrk's requests per second against `url` at `concurrency`; 0 when wrk is not installed.
double wrk_rate(const std::string& url, int concurrency) {
  if (std::system("command -v wrk >/dev/null 2>&1") != 0) return 0;
  const auto dir = std::filesystem::temp_directory_path();
  const auto script = dir / "aeval-bench-wrk.lua", out = dir / "aeval-bench-wrk.txt";
  std::ofstream(script) << "wrk.method = \"POST\"\n"
                        << "wrk.headers[\"Content-Type\"] = \"application/json\"\n"
                        << "wrk.body = '{\"model\":\"bench-model\",\"messages\":[{\"role\":\"user\",\"content\":"
                        << "[{\"type\":\"text\",\"text\":\"" << kQuestion << "\"}]}]}'\n";
  const std::string command = fmt::format("wrk -t1 -c{} -d3s -s {} {} > {} 2>&1", concurrency, script.string(), url, out.string());
  if (std::system(command.c_str()) != 0) return 0;
  std::ifstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("Requests/sec:", 0) == 0) return std::atof(line.c_str() + 13);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bench::FixedLatencyServer server(std::chrono::microseconds(std::lround(kLatency * 1e6)));
  if (argc == 2 && std::string(argv[1]) == "--serve") {  // the server alone, for run_throughput.sh
    std::printf("%d\n", server.port());
    std::fflush(stdout);
    server.serve();
  }
  std::vector<int> levels = {1, 16, 128, 512};
  if (argc > 1) levels.clear();
  for (int i = 1; i < argc; ++i) levels.push_back(std::atoi(argv[i]));
  const int port = server.port();
  const pid_t child = fork();
  if (child == 0) server.serve();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const std::string base = fmt::format("http://127.0.0.1:{}/v1", port);

  std::printf("%-12s %9s %9s %9s %10s %9s %15s\n", "concurrency", "requests", "req/s", "of ideal", "wrk req/s", "of wrk",
              "CPU us/request");
  for (int concurrency : levels) {
    aeval::models::OpenAiConfig c;
    c.name = "bench";
    c.base_urls = {base};
    c.model.assign("bench-model");
    c.max_concurrency = concurrency;
    c.max_retries = 0;
    auto model = aeval::models::make_openai_chat(c);
    aeval::models::Request request;
    request.sample_id.assign("sample-1");
    request.messages.push_back({"user", {{aeval::models::Part::Type::text, kQuestion, 0}}});
    // One untimed round opens the connections, as the first samples of a run do.
    drive(*model, request, concurrency, concurrency);
    const int requests = std::max(300, concurrency * 40);
    const double cpu_start = cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    const int failed = drive(*model, request, concurrency, requests);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = cpu_seconds() - cpu_start;
    const double rate = requests / wall, ideal = concurrency / kLatency;
    const double wrk = wrk_rate(base + "/chat/completions", concurrency);
    std::printf("%-12d %9d %9.0f %8.1f%% %10.0f %8s %15.1f%s\n", concurrency, requests, rate, 100 * rate / ideal, wrk,
                wrk > 0 ? fmt::format("{:.1f}%", 100 * rate / wrk).c_str() : "-", 1e6 * cpu / requests,
                failed ? "  (failures!)" : "");
  }
  kill(child, SIGTERM);
  waitpid(child, nullptr, 0);
  return 0;
}
