// The HTTP loop's own scheduling: tasks run on the loop thread in time order,
// and requests sent from a completion (on the loop thread, which nothing
// rouses) still go out.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "models/http_client.hpp"
#include "support/openai_test_server.hpp"

namespace {

using aeval::models::HttpRequest;
using aeval::models::HttpResponse;
using aeval::models::shared_http_client;
using aeval::testing::OpenAiTestServer;
using aeval::testing::ReceivedRequest;
using aeval::testing::ScriptedReply;

// Waits (at most 30 s) until `done` holds.
template <typename Done>
bool wait_until(std::mutex& mutex, std::condition_variable& changed, Done done) {
  std::unique_lock lock(mutex);
  return changed.wait_for(lock, std::chrono::seconds(30), done);
}

TEST(HttpClient, ScheduledTasksRunInTimeOrderOnTheLoopThread) {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<int> order;
  std::vector<std::thread::id> threads;
  const auto scheduled_at = std::chrono::steady_clock::now();
  std::chrono::steady_clock::duration first_ran{};
  for (const auto& [delay, label] : std::vector<std::pair<double, int>>{{0.15, 3}, {0.05, 1}, {0.10, 2}})
    shared_http_client().after(delay, [&, label = label] {
      const std::lock_guard lock(mutex);
      if (order.empty()) first_ran = std::chrono::steady_clock::now() - scheduled_at;
      order.push_back(label);
      threads.push_back(std::this_thread::get_id());
      changed.notify_one();
    });
  ASSERT_TRUE(wait_until(mutex, changed, [&] { return order.size() == 3; }));
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_GE(first_ran, std::chrono::milliseconds(50)) << "a task ran before it was due";
  EXPECT_EQ(threads[0], threads[1]);
  EXPECT_EQ(threads[1], threads[2]);
  EXPECT_NE(threads[0], std::this_thread::get_id());
}

TEST(HttpClient, RequestsSentFromCompletionsGoOut) {
  OpenAiTestServer server([](const ReceivedRequest&, int) { return ScriptedReply{}; });
  constexpr int kChain = 50;
  std::mutex mutex;
  std::condition_variable changed;
  int answered = 0;
  HttpRequest request;
  request.url = server.base_url() + "/chat/completions";
  request.headers = {"Content-Type: application/json"};
  request.body = R"({"model": "m", "messages": []})";
  request.timeout_seconds = 10;
  // Each answer sends the next request from the loop thread itself.
  std::function<void(HttpResponse)> next = [&](HttpResponse response) {
    const std::lock_guard lock(mutex);
    answered += response.status == 200;
    if (answered < kChain) shared_http_client().send(request, next);
    changed.notify_one();
  };
  shared_http_client().send(request, next);
  ASSERT_TRUE(wait_until(mutex, changed, [&] { return answered == kChain; }));
  EXPECT_EQ(server.requests(), kChain);
}

}  // namespace
