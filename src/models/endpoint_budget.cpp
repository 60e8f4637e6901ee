#include "aeval/models/endpoint_budget.hpp"

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

EndpointBudget::Slot::Slot(EndpointBudget& budget) : budget_(budget) {
  std::unique_lock lock(budget_.mutex_);
  budget_.freed_.wait(lock, [&] { return budget_.in_flight_ < budget_.limit_; });
  ++budget_.in_flight_;
}

EndpointBudget::Slot::~Slot() {
  const std::lock_guard lock(budget_.mutex_);
  --budget_.in_flight_;
  budget_.freed_.notify_one();
}

}  // namespace aeval::models
