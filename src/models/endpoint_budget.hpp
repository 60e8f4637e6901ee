#pragma once
// How many requests may be in flight to one endpoint, shared by every model
// entry that names it: a task's model and an evaluator's judge served by the
// same vLLM share one budget. The limit is the smallest any entry declares.
// Waiting for a place blocks no thread: the request starts when one frees.
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace aeval::models {

class EndpointBudget {
 public:
  // The budget of the endpoint `base_urls` (in any order), created on first use.
  static std::shared_ptr<EndpointBudget> of(std::vector<std::string> base_urls, int max_concurrency);

  // Runs `start` once a place is free: at once, on this thread, when one is;
  // else on the thread whose release() frees one. What `start` begins must
  // call release() exactly once when it ends.
  void acquire(std::function<void()> start);
  void release();

 private:
  explicit EndpointBudget(int limit) : limit_(limit) {}

  std::mutex mutex_;
  std::deque<std::function<void()>> waiting_;
  int limit_;
  int in_flight_ = 0;
};

}  // namespace aeval::models
