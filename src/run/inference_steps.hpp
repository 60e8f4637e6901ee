#pragma once
// What `aeval run` does to one sample, step by step for the scheduler:
// render the prompt, decode the audio at the model's rate, take the answer
// from the response cache or ask the model, keep the output audio next to
// the run, post-process and score.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tasks/loaded_task.hpp"
#include "response_cache/response_cache.hpp"
#include "run/scheduler.hpp"

namespace aeval::pipeline {

class InferenceSteps final : public SampleSteps {
 public:
  // `cache` null: no response cache.
  InferenceSteps(const LoadedTask& task, const nlohmann::json& model_identity, ResponseCache* cache,
                 std::filesystem::path run_dir);

  std::variant<models::Request, models::Response> prepare(Work& work) override;
  void conclude(Work& work, models::Response response) override;
  void fail(Work& work, const std::exception_ptr& error) noexcept override;

 private:
  const LoadedTask& task_;
  const nlohmann::json& model_identity_;
  ResponseCache* cache_;
  const std::filesystem::path run_dir_;
};

}  // namespace aeval::pipeline
