// aeval's own overhead on remote models: an OpenAI-compatible server with a
// fixed 20 ms latency (one epoll thread) runs in a child process; the parent drives
// make_openai_chat at concurrency 1, 16, 128 and 512 and reports requests per
// second against what the server can serve (concurrency / latency) and the
// client's CPU time per request (the curl thread, JSON, the budget; measured
// with getrusage in the parent only).
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <latch>
#include <thread>

#include "aeval/models/openai.hpp"
#include "fixed_latency_server.hpp"

namespace {

constexpr double kLatency = 0.020;

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> levels = {1, 16, 128, 512};
  if (argc > 1) levels.clear();
  for (int i = 1; i < argc; ++i) levels.push_back(std::atoi(argv[i]));
  bench::FixedLatencyServer server(std::chrono::microseconds(std::lround(kLatency * 1e6)));
  const int port = server.port();
  const pid_t child = fork();
  if (child == 0) server.serve();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));

  std::printf("%-12s %10s %10s %10s %14s\n", "concurrency", "requests", "req/s", "of ideal", "CPU us/request");
  for (int concurrency : levels) {
    aeval::models::OpenAiConfig c;
    c.name = "bench";
    c.base_urls = {fmt::format("http://127.0.0.1:{}/v1", port)};
    c.model.assign("bench-model");
    c.max_concurrency = concurrency;
    c.max_retries = 0;
    auto model = aeval::models::make_openai_chat(c);
    const int requests = std::max(200, concurrency * 12);
    aeval::models::Request request;
    request.sample_id.assign("sample-1");
    request.messages.push_back({"user", {{aeval::models::Part::Type::text, "Is there a dog barking?", 0}}});
    // Threads start, make one request each (opening their connections and
    // seeding their random generators, as long-lived runner workers do once),
    // then the clock starts.
    std::atomic<int> next{0}, failed{0};
    std::latch warm(concurrency + 1), go(1);
    std::vector<std::thread> threads;
    for (int t = 0; t < concurrency; ++t)
      threads.emplace_back([&] {
        const auto attempt = [&] {
          try {
            model->infer(request);
          } catch (...) {
            ++failed;
          }
        };
        attempt();
        warm.count_down();
        go.wait();
        while (next++ < requests) attempt();
      });
    warm.arrive_and_wait();
    const double cpu_start = cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    go.count_down();
    for (auto& t : threads) t.join();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = cpu_seconds() - cpu_start;
    const double rate = requests / wall, ideal = concurrency / kLatency;
    std::printf("%-12d %10d %10.0f %9.1f%% %14.1f%s\n", concurrency, requests, rate, 100 * rate / ideal,
                1e6 * cpu / requests, failed ? "  (failures!)" : "");
  }
  kill(child, SIGTERM);
  waitpid(child, nullptr, 0);
  return 0;
}
