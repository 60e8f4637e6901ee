#pragma once
// The scheduler's threads. `base` of them run from the start; while some wait
// on a model (a blocking model computing, an evaluator asking a judge), more
// are added so that `base` keep going, up to `most` in all. A run against a
// remote model thus needs a thread per core, not one per request in flight.
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "aeval/models/model.hpp"

namespace aeval::pipeline {

class Workers final : public models::WaitObserver {
 public:
  // Starts `base` threads, each running `loop` until it returns.
  Workers(std::size_t base, std::size_t most, std::function<void()> loop);
  void waiting(bool started) noexcept override;
  // Waits for every thread, those added meanwhile included.
  void join();

 private:
  void add();  // with mutex_ held

  const std::size_t base_, most_;
  const std::function<void()> loop_;
  std::mutex mutex_;
  std::vector<std::thread> threads_;
  std::size_t waiting_ = 0;
};

}  // namespace aeval::pipeline
