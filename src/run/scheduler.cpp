#include "run/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "run/workers.hpp"

namespace aeval::pipeline {

Scheduler::Scheduler(models::Model& model, SampleSteps& steps, PositionsToRun positions, std::size_t concurrency)
    : model_(model), steps_(steps), concurrency_(std::max<std::size_t>(1, concurrency)), todo_(std::move(positions)) {}

void Scheduler::run(const std::function<void(std::deque<Work>)>& take) {
  const std::size_t goal = todo_.size();
  const auto cores = std::size_t(std::max(2u, std::thread::hardware_concurrency()));
  Workers workers(std::min(concurrency_, cores), concurrency_, [this] { work(); });
  try {
    for (std::size_t done = 0; done < goal;) {
      std::deque<Work> batch;
      {
        std::unique_lock lock(mutex_);
        sample_done_.wait(lock, [&] { return !finished_.empty(); });
        // More samples to one transaction of the store, unless the first has waited kBatchDelay.
        sample_done_.wait_until(lock, std::chrono::steady_clock::now() + kBatchDelay,
                                [&] { return finished_.size() >= kBatchSize || all_ended(); });
        batch.swap(finished_);
        work_ready_.notify_all();  // workers held back by kUnstoredLimit start again
      }
      done += batch.size();
      take(std::move(batch));
    }
  } catch (...) {
    {  // nothing more starts; inferences still out end first, their completions use this object
      const std::lock_guard lock(mutex_);
      stop_ = true;
      work_ready_.notify_all();
    }
    workers.join();
    throw;
  }
  workers.join();
}

void Scheduler::work() {
  for (;;) {
    std::unique_lock lock(mutex_);
    work_ready_.wait(lock, [&] { return !answered_.empty() || can_start() || all_ended(); });
    if (!answered_.empty()) {
      Answer a = std::move(answered_.front());
      answered_.pop_front();
      if (stop_) {
        if (--open_ == 0) work_ready_.notify_all();
        continue;
      }
      lock.unlock();
      finish(a.work, a.error, std::move(a.response));
    } else if (can_start()) {
      Work w;
      w.position = todo_.front();
      todo_.pop_front();
      ++open_;
      lock.unlock();
      start(std::move(w));
    } else {
      return;
    }
  }
}

void Scheduler::start(Work w) {
  std::variant<models::Request, models::Response> next;
  try {
    next = steps_.prepare(w);
  } catch (...) {
    steps_.fail(w, std::current_exception());
    return end(std::move(w));
  }
  if (auto* known = std::get_if<models::Response>(&next)) return finish(w, nullptr, std::move(*known));
  // The completion may run on any thread, inside infer() included: it only queues the answer.
  model_.infer(std::move(std::get<models::Request>(next)),
               [this, w = std::move(w)](std::exception_ptr error, models::Response response) mutable {
                 const std::lock_guard lock(mutex_);
                 answered_.push_back({std::move(w), std::move(error), std::move(response)});
                 work_ready_.notify_one();
               });
}

void Scheduler::finish(Work& w, std::exception_ptr error, models::Response response) {
  if (!error) {
    try {
      steps_.conclude(w, std::move(response));
    } catch (...) {
      error = std::current_exception();
    }
  }
  if (error) steps_.fail(w, error);
  end(std::move(w));
}

void Scheduler::end(Work&& w) {
  const std::lock_guard lock(mutex_);
  finished_.push_back(std::move(w));
  --open_;
  // The running thread waits for a first sample, then for a full batch or the end: only those wake it (woken at
  // every sample, it cost a context switch a sample).
  if (finished_.size() == 1 || finished_.size() >= kBatchSize || all_ended()) sample_done_.notify_one();
  if (all_ended())
    work_ready_.notify_all();  // the last one: workers leave
  else
    work_ready_.notify_one();  // a place to start another
}

}  // namespace aeval::pipeline
