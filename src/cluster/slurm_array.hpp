#pragma once
// `aeval submit slurm`: a run split into the shards of a Slurm job array, each
// an ordinary `aeval run --shard I/N` into a folder of its own on the shared
// filesystem, and a merge job that waits for all of them (afterok). Every
// submission is recorded in its folder, so submitting again sends only the
// shards that did not finish, and each continues its own run (--resume): no
// finished sample runs twice.
//
// The submission folder, OUTPUT/<task>/<model>/<UTC time>-slurm/:
//   submission.json         what is submitted, and the job ids of each sbatch
//   shard.sbatch            one array task: shard I starts, or continues its run
//   merge.sbatch            `aeval merge` of the shards, then their response caches into the user's
//   shard-I/                shard I's output folder (its run)
//   caches/shard-I.sqlite   shard I's response cache: one writer per file, since SQLite's
//                           WAL locking holds on one machine, not across a network filesystem
//   logs/                   what every job printed
//   merged/                 the merged run
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aeval::cluster {

// What sbatch is asked for; empty strings are left to the cluster's defaults.
struct SlurmResources {
  std::string partition, account, qos, time, gres, mem, cpus_per_task;
  int array_limit = 0;                   // array tasks running at once (sbatch --array=…%K); 0: no limit
  std::vector<std::string> sbatch_args;  // further sbatch options for the shards, as written (--constraint=a100)
};

struct SlurmArrayJob {
  std::filesystem::path folder;           // the submission folder (absolute)
  std::filesystem::path aeval;            // the binary every job runs (absolute, on the shared filesystem)
  std::filesystem::path working_dir;      // where the jobs run (relative paths in the arguments are from here)
  std::vector<std::string> global_args;   // aeval options before the subcommand (--registry DIR)
  std::vector<std::string> run_args;      // what a new shard's `aeval run` is given: task, components, --set, --limit
  std::vector<std::string> session_args;  // what every session is given, a resumed one too: --jobs, --max-fail-rate
  std::string task, model;
  int shards = 0;
  SlurmResources resources;

  nlohmann::json to_json() const;
  static SlurmArrayJob from_json(const nlohmann::json& j);
};

// The array task's script and the merge job's script, as written to the folder.
std::string shard_script(const SlurmArrayJob& job);
std::string merge_script(const SlurmArrayJob& job);

// "0-3", "1,3", "0-2,5": the array indices sbatch is given.
std::string array_indices(const std::vector<int>& shards);

// One sbatch of the array (when `shards` is not empty) and its merge job.
struct Submission {
  std::vector<int> shards;
  std::string array_job, merge_job;  // job ids; array_job empty when only the merge was submitted
  std::string submitted;             // UTC time
};

// Creates the folder's files (submission.json the first time) and submits `shards` as an array with a merge
// job that waits for it (or, with no shards, the merge alone); records the job ids in submission.json.
// Throws aeval::Error (config) with sbatch's own message when it refuses.
Submission submit(const SlurmArrayJob& job, const std::vector<int>& shards);

// A submission folder's job, and its submissions so far, oldest first.
SlurmArrayJob read_job(const std::filesystem::path& folder);
std::vector<Submission> read_submissions(const std::filesystem::path& folder);

// Slurm's state of the jobs in the queue (PENDING, RUNNING, ...), by "JOBID" or "JOBID_INDEX" for array tasks;
// jobs that left the queue are absent. Throws aeval::Error (config) when squeue cannot be run.
std::map<std::string, std::string> queued_jobs(const std::vector<std::string>& job_ids);

// scancel of these jobs; throws aeval::Error (config) with scancel's message when it fails.
void cancel_jobs(const std::vector<std::string>& job_ids);

}  // namespace aeval::cluster
