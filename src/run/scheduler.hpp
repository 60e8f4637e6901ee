#pragma once
// Takes samples through an asynchronous model with at most `concurrency`
// open at once, and hands the finished ones to the thread that runs it.
// Workers (workers.hpp) start samples while fewer than `concurrency` are
// open, and conclude the samples the model has answered (first, to keep few
// open). No worker waits on a model that answers asynchronously: its
// completion queues the answer and the next free worker concludes the
// sample. A worker that does wait on a model is replaced while it waits.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "aeval/models/model.hpp"
#include "aeval/pipeline/sample.hpp"
#include "run/positions.hpp"

namespace aeval::pipeline {

// A sample between its start and its record.
struct Work {
  std::size_t position = 0;      // in the dataset
  std::optional<Sample> sample;  // its row, unpacked once for prompting and scoring (cleared once scored)
  nlohmann::json record;         // what the run store receives
  std::string stage = "prompt";  // where a failure happened
  double audio_seconds = 0;      // of the audio the model was given
  std::string inputs;            // fingerprint of the sample's row and audio (sample_inputs.hpp)
  std::string cache_key;         // empty: this answer is not cached
  bool cached = false;           // answered from the response cache
  std::string endpoint_error;    // the aeval::EndpointError that failed it: the model's endpoint serves no sample
};

// What happens to a sample at each step; called on worker threads, for
// several samples at once.
class SampleSteps {
 public:
  virtual ~SampleSteps() = default;
  // Starts the sample's record: the model's request, or a response already
  // at hand (the response cache's). May throw: the sample fails.
  virtual std::variant<models::Request, models::Response> prepare(Work& work) = 0;
  // Completes the record from the model's response. May throw: the sample fails.
  virtual void conclude(Work& work, models::Response response) = 0;
  // Records `error` as the sample's failure at its current stage.
  virtual void fail(Work& work, const std::exception_ptr& error) noexcept = 0;
};

class Scheduler {
 public:
  Scheduler(models::Model& model, SampleSteps& steps, PositionsToRun positions, std::size_t concurrency);
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Takes every position through the steps, each exactly once, and returns
  // when all are handed to `take`, on this thread, in batches (kBatchSize,
  // kBatchDelay), in the order they finished. When `take` throws, no more
  // samples start; the inferences still out end (their completions use this
  // object) before the exception leaves.
  void run(const std::function<void(std::deque<Work>)>& take);

  // Samples started but not yet handed over, at most: a model answering faster than its records are stored
  // waits for the store instead of holding the run in memory.
  static constexpr std::size_t kUnstoredLimit = 1024;
  // A batch handed to `take` is what finished within kBatchDelay of its first sample, up to kBatchSize (fewer
  // when nothing else is running): a killed run loses at most that delay's samples, each stored batch costs one
  // transaction.
  static constexpr std::size_t kBatchSize = 256;
  static constexpr std::chrono::milliseconds kBatchDelay{50};

 private:
  struct Answer {
    Work work;
    std::exception_ptr error;
    models::Response response;
  };

  void work();  // a worker's loop
  void start(Work work);
  void finish(Work& work, std::exception_ptr error, models::Response response);
  void end(Work&& work);
  // With mutex_ held.
  bool can_start() const {
    return !stop_ && !todo_.empty() && open_ < concurrency_ && finished_.size() + open_ < kUnstoredLimit;
  }
  bool all_ended() const { return open_ == 0 && (todo_.empty() || stop_); }

  models::Model& model_;
  SampleSteps& steps_;
  const std::size_t concurrency_;
  std::mutex mutex_;
  std::condition_variable work_ready_, sample_done_;
  PositionsToRun todo_;
  std::deque<Answer> answered_;  // by the model, not yet concluded
  std::deque<Work> finished_;    // not yet handed over
  std::size_t open_ = 0;         // started, not yet finished
  bool stop_ = false;            // the run is failing: nothing more starts or is recorded
};

}  // namespace aeval::pipeline
