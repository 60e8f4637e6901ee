#include "run/workers.hpp"

#include <pthread.h>

#include <algorithm>
#include <system_error>

namespace aeval::pipeline {

Workers::Workers(std::size_t base, std::size_t most, std::function<void()> loop)
    : base_(base), most_(std::max(base, most)), loop_(std::move(loop)) {
  const std::lock_guard lock(mutex_);
  while (threads_.size() < base_) add();
}

void Workers::waiting(bool started) noexcept {
  const std::lock_guard lock(mutex_);
  waiting_ = started ? waiting_ + 1 : waiting_ - 1;
  if (started && threads_.size() - waiting_ < base_ && threads_.size() < most_) {
    try {
      add();
    } catch (const std::system_error&) {
      // No thread to be had: the ones there carry on.
    }
  }
}

void Workers::join() {
  for (std::size_t k = 0;; ++k) {
    std::thread t;
    {
      const std::lock_guard lock(mutex_);
      if (k == threads_.size()) return;
      t = std::move(threads_[k]);
    }
    t.join();
  }
}

void Workers::add() {
  threads_.emplace_back([this] {
    pthread_setname_np(pthread_self(), "aeval-worker");  // visible in top -H and perf
    models::observe_waits(this);
    loop_();
    models::observe_waits(nullptr);
  });
}

}  // namespace aeval::pipeline
