#pragma once
// Runs a task end to end: stream samples, convert audio for the model, infer
// with bounded concurrency, post-process, score, and write samples.jsonl (in
// dataset order, one line per finished sample) and summary.json.
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "aeval/pipeline/components.hpp"
#include "aeval/pipeline/registry.hpp"

namespace aeval::pipeline {

struct RunOptions {
  std::filesystem::path output_root = "results";
  std::size_t limit = 0;   // 0: every sample
  int jobs = 0;            // 0: the model's max_concurrency
  std::FILE* log = stderr; // progress and notes
  std::vector<std::string> command_line;
};

struct RunResult {
  std::filesystem::path run_dir;
  nlohmann::json summary;
};

RunResult run_task(const Registry& registry, const TaskSpec& task, const RunOptions& options);

// The short table printed after a run.
std::string format_summary_table(const nlohmann::json& summary);

}  // namespace aeval::pipeline
