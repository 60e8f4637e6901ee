#pragma once
// What a run is made of, apart from running it: its invocation (what recreates its configuration), shard,
// options, sessions and result. The parts of the pipeline that record, read or combine runs include this;
// runner.hpp adds the entry points that run them.
#include <cstdio>
#include <filesystem>
#include <map>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "aeval/pipeline/task_spec.hpp"

namespace aeval::pipeline {

struct Shard {
  int index = 0, count = 1;  // this run takes samples whose id hashes to index (mod count)
};
// "I/N" → Shard, or "auto": the index and size of the Slurm job array task this runs in
// (SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT); throws aeval::Error (config) otherwise.
Shard parse_shard(const std::string& text);

// What recreates a run's configuration: recorded in the store for --resume.
struct Invocation {
  std::vector<std::filesystem::path> registry;
  std::filesystem::path uea;  // an UltraEval-Audio folder whose entries join the registry (`aeval uea run`)
  std::vector<std::filesystem::path> uea_registry_paths;  // and further UEA registry folders (--registry_path)
  std::vector<std::string> sets;  // --set assignments, in order
  TaskSpec task;
  std::size_t limit = 0;  // 0: every sample
  Shard shard;
  nlohmann::json to_json() const;
  static Invocation from_json(const nlohmann::json& j);
};

struct RunOptions {
  std::filesystem::path output_root = "results";
  int jobs = 0;            // 0: the model's max_concurrency
  bool use_cache = true;   // the response cache
  bool rerun_changed = false;  // resume: run again the samples whose inputs changed, instead of refusing
  std::FILE* log = stderr; // progress and notes; nullptr: quiet
  std::vector<std::string> command_line;
  // Told the run's folder once it is known, before any sample runs (the command line prints it).
  std::function<void(const std::filesystem::path& run_dir)> on_run_folder;
};

// One session of a run: run.json keeps one entry per session.
struct Session {
  std::string started;  // UTC, ISO 8601
  std::vector<std::string> command_line;
  std::size_t samples_run = 0, failed = 0;
  std::size_t cached_responses = 0;  // of the samples run, those the response cache answered
  int concurrency = 0;               // samples in flight at most
  double elapsed_seconds = 0;
  std::string first_error;  // "ID: message" of this session's first failed sample (not in run.json)
  // This session's failed samples by kind ("infer (model)": stage and category): how many, and the first's
  // "ID: message" (not in run.json).
  struct Failures {
    std::size_t count = 0;
    std::string first;
  };
  std::map<std::string, Failures> failures;
};

struct RunResult {
  std::filesystem::path run_dir;
  nlohmann::json summary;  // as summary.json holds it
  Session session;         // the session that made this result
};

}  // namespace aeval::pipeline
