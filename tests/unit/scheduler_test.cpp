#include "run/scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace aeval::pipeline {
namespace {

using models::Request;
using models::Response;
using nlohmann::json;

Response text(std::string text) {
  Response r;
  r.text = std::move(text);
  return r;
}

Request request_for(std::size_t position) {
  Request r;
  r.sample_id = std::to_string(position);
  return r;
}

// Holds arrivals until `width` are held at once or all `expected` have
// arrived, then lets every held one go: a model behind it sees the most
// requests in flight that the scheduler allows, without any timing.
class Gate {
 public:
  Gate(std::size_t width, std::size_t expected) : width_(width), expected_(expected) {}

  // Whether the ones held (this arrival included) may go now.
  bool arrive(std::size_t held) {
    ++arrived_;
    most_held_ = std::max(most_held_, held);
    return held >= width_ || arrived_ == expected_;
  }
  std::size_t most_held() const { return most_held_; }

 private:
  const std::size_t width_, expected_;
  std::size_t arrived_ = 0, most_held_ = 0;
};

// A model that computes on the caller's thread (codecs, PocketSphinx): the
// scheduler's worker waits in infer(), so another must take its place.
class BlockingGateModel final : public models::BlockingModel {
 public:
  BlockingGateModel(std::size_t width, std::size_t expected) : gate_(width, expected) {}
  int input_sample_rate() const override { return 0; }
  int max_concurrency() const override { return 1; }
  json identity() const override { return {{"name", "blocking"}}; }
  std::size_t most_in_flight() {
    const std::lock_guard lock(mutex_);
    return gate_.most_held();
  }

 private:
  Response compute(const Request& request) override {
    std::unique_lock lock(mutex_);
    const std::size_t round = round_;
    if (gate_.arrive(++held_)) {
      ++round_;
      opened_.notify_all();
    } else if (!opened_.wait_for(lock, std::chrono::seconds(10), [&] { return round_ != round; })) {
      --held_;
      throw std::runtime_error("the gate never opened");  // too few workers
    }
    --held_;
    return text("answer " + request.sample_id);
  }

  std::mutex mutex_;
  std::condition_variable opened_;
  Gate gate_;
  std::size_t held_ = 0, round_ = 0;
};

// A model that answers on a thread of its own, as remote models do, after
// holding requests at a gate; `answer` may throw to fail one.
class AsyncGateModel final : public models::Model {
 public:
  AsyncGateModel(std::size_t width, std::size_t expected, std::function<Response(const Request&)> answer)
      : gate_(width, expected), answer_(std::move(answer)), thread_([this] { answer_released(); }) {}
  ~AsyncGateModel() override {
    {
      const std::lock_guard lock(mutex_);
      closing_ = true;
    }
    released_ready_.notify_one();
    thread_.join();
  }

  void infer(Request request, models::Completion done) override {
    const std::lock_guard lock(mutex_);
    held_.push_back({std::move(request), std::move(done)});
    ++in_flight_;
    most_in_flight_ = std::max(most_in_flight_, in_flight_);
    if (gate_.arrive(held_.size())) {
      for (auto& h : held_) released_.push_back(std::move(h));
      held_.clear();
      released_ready_.notify_one();
    }
  }
  int input_sample_rate() const override { return 0; }
  int max_concurrency() const override { return 1; }
  json identity() const override { return {{"name", "async"}}; }

  std::size_t most_in_flight() {
    const std::lock_guard lock(mutex_);
    return most_in_flight_;
  }
  std::size_t in_flight() {
    const std::lock_guard lock(mutex_);
    return in_flight_;
  }

 private:
  struct Held {
    Request request;
    models::Completion done;
  };

  void answer_released() {
    for (;;) {
      std::unique_lock lock(mutex_);
      released_ready_.wait(lock, [&] { return closing_ || !released_.empty(); });
      if (released_.empty()) return;
      Held h = std::move(released_.front());
      released_.pop_front();
      --in_flight_;  // before the completion, which may start the next sample
      lock.unlock();
      models::complete(h.done, [&] { return answer_(h.request); });
    }
  }

  std::mutex mutex_;
  std::condition_variable released_ready_;
  Gate gate_;
  std::function<Response(const Request&)> answer_;
  std::vector<Held> held_;
  std::deque<Held> released_;
  std::size_t in_flight_ = 0, most_in_flight_ = 0;
  bool closing_ = false;
  std::thread thread_;
};

// Each sample's fate is set by its position p: p % 5 == 1 fails before the
// model, 2 is answered without it (as from the response cache), 3 fails
// while concluding, 4 is failed by the model (when it says so); the rest are
// answered by the model.
class ScriptedSteps final : public SampleSteps {
 public:
  explicit ScriptedSteps(std::size_t samples) : prepared_(samples) {}

  std::variant<Request, Response> prepare(Work& w) override {
    ++prepared_[w.position];
    w.record = {{"position", w.position}};
    if (w.position % 5 == 1) throw std::runtime_error("no audio");
    w.stage = "infer";
    if (w.position % 5 == 2) {
      w.cached = true;
      return text("cached");
    }
    return request_for(w.position);
  }
  void conclude(Work& w, Response response) override {
    w.stage = "score";
    if (w.position % 5 == 3) throw std::runtime_error("bad score");
    w.record["prediction"] = response.text;
  }
  void fail(Work& w, const std::exception_ptr& error) noexcept override {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      w.record["error"] = w.stage + ": " + e.what();
    }
  }
  int prepared(std::size_t position) const { return prepared_[position]; }

 private:
  std::vector<std::atomic<int>> prepared_;
};

// Every sample answered by the model, its record the answer.
class EchoSteps final : public SampleSteps {
 public:
  std::variant<Request, Response> prepare(Work& w) override { return request_for(w.position); }
  void conclude(Work& w, Response response) override { w.record = response.text; }
  void fail(Work& w, const std::exception_ptr&) noexcept override { w.record = "failed"; }
};

// Every position handed over, with how often.
struct Handed {
  std::map<std::size_t, json> records;
  std::map<std::size_t, int> times;
  std::size_t cached = 0, batches = 0;

  void take(std::deque<Work> batch) {
    ++batches;
    for (Work& w : batch) {
      ++times[w.position];
      cached += w.cached;
      records[w.position] = std::move(w.record);
    }
  }
};

Positions positions(std::size_t n) {
  Positions out;
  for (std::size_t p = 0; p < n; ++p) out.push_back(std::uint32_t(p));
  return out;
}

Response answer_by_id(const Request& request) {
  if (std::stoul(request.sample_id) % 5 == 4) throw std::runtime_error("server said 500");
  return text("answer " + request.sample_id);
}

TEST(Scheduler, ConcludesEverySampleExactlyOnceWhateverItsFate) {
  const std::size_t n = 500;
  AsyncGateModel model(1, n, answer_by_id);  // answers each request as it comes, on its own thread
  ScriptedSteps steps(n);
  const auto all = positions(n);
  Scheduler scheduler(model, steps, PositionsToRun(all), 16);
  Handed handed;
  scheduler.run([&](std::deque<Work> batch) { handed.take(std::move(batch)); });

  ASSERT_EQ(handed.records.size(), n);
  for (std::size_t p = 0; p < n; ++p) {
    EXPECT_EQ(handed.times[p], 1) << p;
    EXPECT_EQ(steps.prepared(p), 1) << p;
    const json& r = handed.records[p];
    EXPECT_EQ(r["position"], p);
    switch (p % 5) {
      case 1: EXPECT_EQ(r["error"], "prompt: no audio"); break;
      case 2: EXPECT_EQ(r["prediction"], "cached"); break;
      case 3: EXPECT_EQ(r["error"], "score: bad score"); break;
      case 4: EXPECT_EQ(r["error"], "infer: server said 500"); break;
      default: EXPECT_EQ(r["prediction"], "answer " + std::to_string(p)); EXPECT_FALSE(r.contains("error"));
    }
  }
  EXPECT_EQ(handed.cached, n / 5);
  EXPECT_EQ(model.in_flight(), 0u);
}

// Runs n echoed samples through `model` and checks each got its own answer.
void expect_every_sample_answered(models::Model& model, std::size_t n, std::size_t concurrency) {
  EchoSteps steps;
  const auto all = positions(n);
  Scheduler scheduler(model, steps, PositionsToRun(all), concurrency);
  Handed handed;
  scheduler.run([&](std::deque<Work> batch) { handed.take(std::move(batch)); });
  ASSERT_EQ(handed.records.size(), n);
  for (const auto& [p, record] : handed.records) EXPECT_EQ(record, "answer " + std::to_string(p));
}

TEST(Scheduler, KeepsAsManyRequestsInFlightAsAllowedAndNoMore) {
  const std::size_t n = 200, concurrency = 12;
  AsyncGateModel model(concurrency, n, [](const Request& r) { return text("answer " + r.sample_id); });
  expect_every_sample_answered(model, n, concurrency);
  EXPECT_EQ(model.most_in_flight(), concurrency);
}

// Samples whose model occupies the worker: each waiting worker is replaced,
// so the model still sees `concurrency` at once, however few cores there are.
TEST(Scheduler, ReplacesWorkersWaitingOnAModelUpToTheConcurrency) {
  const std::size_t cores = std::max(2u, std::thread::hardware_concurrency());
  const std::size_t concurrency = cores + 3, n = 2 * concurrency;
  BlockingGateModel model(concurrency, n);
  expect_every_sample_answered(model, n, concurrency);
  EXPECT_EQ(model.most_in_flight(), concurrency) << "workers waiting on the model were not replaced";
}

// A model answering at once while each batch is stored slowly: the samples started but not yet handed over
// never exceed the limit, so a run's memory does not grow with its length while its store lags.
TEST(Scheduler, AModelFasterThanTheStoreWaitsForItInsteadOfQueueingTheRun) {
  const std::size_t n = 4 * Scheduler::kUnstoredLimit;
  AsyncGateModel model(1, n, answer_by_id);
  ScriptedSteps steps(n);
  const auto all = positions(n);
  Scheduler scheduler(model, steps, PositionsToRun(all), 16);
  std::size_t handed = 0, most_ahead = 0;
  scheduler.run([&](std::deque<Work> batch) {
    handed += batch.size();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a slow disk: without a limit, all n run ahead
    std::size_t prepared = 0;
    for (std::size_t p = 0; p < n; ++p) prepared += std::size_t(steps.prepared(p));
    most_ahead = std::max(most_ahead, prepared - handed);
  });
  EXPECT_EQ(handed, n);
  EXPECT_LE(most_ahead, Scheduler::kUnstoredLimit);
}

TEST(Scheduler, WhenTakingFailsItStopsAndEndsTheInferencesStillOut) {
  const std::size_t n = 1000;
  AsyncGateModel model(1, n, answer_by_id);
  ScriptedSteps steps(n);
  const auto all = positions(n);
  Scheduler scheduler(model, steps, PositionsToRun(all), 8);
  int batches = 0;
  EXPECT_THROW(scheduler.run([&](std::deque<Work>) {
                 ++batches;
                 throw std::runtime_error("disk full");
               }),
               std::runtime_error);
  EXPECT_EQ(batches, 1);
  EXPECT_EQ(model.in_flight(), 0u) << "run() returned with inferences still out";
}

TEST(PositionsToRun, DrawsTheAcceptedPositionsInOrderAndCountsThoseLeft) {
  const Positions run{2, 3, 5, 8, 13, 21};
  PositionsToRun odd(run, [](std::size_t p) { return p % 2 == 1; });
  std::vector<std::size_t> drawn;
  EXPECT_EQ(odd.size(), 4u);
  while (!odd.empty()) {
    drawn.push_back(odd.front());
    odd.pop_front();
  }
  EXPECT_EQ(drawn, (std::vector<std::size_t>{3, 5, 13, 21}));
  EXPECT_EQ(PositionsToRun(run).size(), run.size());
  EXPECT_TRUE(PositionsToRun(run, [](std::size_t) { return false; }).empty());
}

// The leading run of rows 0, 1, 2, … is counted, the rest listed: both read back in order, whatever the mix.
TEST(Positions, TheFirstRowsAndTheOthersReadBackInOrder) {
  for (const std::vector<std::uint32_t>& added : {std::vector<std::uint32_t>{}, {0, 1, 2, 3}, {0, 1, 2, 5, 6, 9},
                                                  {1, 2, 3}, {0, 2, 3, 4}}) {
    Positions positions;
    for (std::uint32_t p : added) positions.push_back(p);
    ASSERT_EQ(positions.size(), added.size());
    EXPECT_EQ(positions.empty(), added.empty());
    EXPECT_EQ(std::vector<std::uint32_t>(positions.begin(), positions.end()), added);
    for (std::size_t i = 0; i < added.size(); ++i) EXPECT_EQ(positions[i], added[i]);
  }
  const Positions listed{0, 1, 7};
  EXPECT_EQ(listed[2], 7u);
}

}  // namespace
}  // namespace aeval::pipeline
