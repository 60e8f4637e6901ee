#pragma once
// How many requests may be in flight to one endpoint, shared by every model
// entry that names it: a task's model and an evaluator's judge served by the
// same vLLM share one budget. The limit is the smallest any entry declares.
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace aeval::models {

class EndpointBudget {
 public:
  // The budget of the endpoint `base_urls` (in any order), created on first use.
  static std::shared_ptr<EndpointBudget> of(std::vector<std::string> base_urls, int max_concurrency);

  // Holds one place for its lifetime, waiting while the endpoint is full.
  class Slot {
   public:
    explicit Slot(EndpointBudget& budget);
    ~Slot();
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;

   private:
    EndpointBudget& budget_;
  };

 private:
  explicit EndpointBudget(int limit) : limit_(limit) {}

  std::mutex mutex_;
  std::condition_variable freed_;
  int limit_;
  int in_flight_ = 0;
};

}  // namespace aeval::models
