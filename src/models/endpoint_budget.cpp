#include "models/endpoint_budget.hpp"

#include <algorithm>
#include <map>

namespace aeval::models {

std::shared_ptr<EndpointBudget> EndpointBudget::of(std::vector<std::string> base_urls, int max_concurrency) {
  std::sort(base_urls.begin(), base_urls.end());
  std::string key;
  for (const auto& url : base_urls) key.append(url).push_back('\n');
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<EndpointBudget>> budgets;  // gone when no entry uses it
  const std::lock_guard lock(mutex);
  std::shared_ptr<EndpointBudget> budget = budgets[key].lock();
  if (!budget) {
    budget.reset(new EndpointBudget(max_concurrency));
    budgets[key] = budget;
  } else {
    const std::lock_guard inner(budget->mutex_);
    budget->limit_ = std::min(budget->limit_, max_concurrency);
  }
  return budget;
}

void EndpointBudget::acquire(std::function<void()> start) {
  {
    const std::lock_guard lock(mutex_);
    if (in_flight_ >= limit_) {
      waiting_.push_back(std::move(start));
      return;
    }
    ++in_flight_;
  }
  start();
}

void EndpointBudget::release() {
  std::function<void()> next;
  {
    const std::lock_guard lock(mutex_);
    // The place passes to the first waiter, unless a lowered limit takes it back.
    if (waiting_.empty() || in_flight_ > limit_) {
      --in_flight_;
      return;
    }
    next = std::move(waiting_.front());
    waiting_.pop_front();
  }
  next();
}

}  // namespace aeval::models
