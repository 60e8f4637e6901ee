#include "cluster/slurm_array.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <fstream>
#include <map>
#include <sstream>

#include "aeval/error.hpp"
#include "aeval/version.hpp"
#include "run/run_id.hpp"
#include "util/atomic_file.hpp"
#include "util/subprocess.hpp"

namespace aeval::cluster {

using nlohmann::json;

namespace {

// One word for the shell, whatever it holds; quoted only when it must be.
std::string quoted(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                       "_-./:=,+@") == std::string::npos;
  if (plain) return s;
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out.append("'\\''");
    else out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

std::string quoted_all(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out.append(" ").append(quoted(w));
  return out;
}

// The #SBATCH lines both scripts share; `shard_resources` adds what only the array tasks need (GPUs, memory).
std::string sbatch_lines(const SlurmArrayJob& job, bool shard_resources) {
  const SlurmResources& r = job.resources;
  std::string out = fmt::format("#SBATCH --chdir={}\n", job.working_dir.string());
  const auto line = [&](const char* option, const std::string& value) {
    if (!value.empty()) out += fmt::format("#SBATCH --{}={}\n", option, value);
  };
  line("partition", r.partition);
  line("account", r.account);
  line("qos", r.qos);
  line("time", r.time);
  if (shard_resources) {
    line("gres", r.gres);
    line("mem", r.mem);
    line("cpus-per-task", r.cpus_per_task);
    for (const auto& a : r.sbatch_args) out.append("#SBATCH ").append(a).append("\n");
  }
  return out;
}

std::string header(const SlurmArrayJob& job, const std::string& what) {
  return fmt::format("#!/bin/bash\n# Written by `aeval submit slurm` (aeval {}): {} of task {}, model {}, in {} shards.\n"
                     "# docs/cluster.md explains the folder; `aeval status {}` shows how far the shards are.\n",
                     kVersion, what, job.task, job.model, job.shards, job.folder.string());
}

detail::Finished run_slurm(const std::vector<std::string>& argv) {
  const detail::Finished done = detail::run_to_end(argv);
  if (WIFEXITED(done.status) && WEXITSTATUS(done.status) == 127)
    throw Error(ErrorCategory::config,
                fmt::format("{} is not on PATH: run aeval submit and aeval status on a Slurm login node", argv[0]));
  if (!WIFEXITED(done.status) || WEXITSTATUS(done.status) != 0) {
    std::string message = done.err.empty() ? done.out : done.err;
    while (!message.empty() && message.back() == '\n') message.pop_back();
    throw Error(ErrorCategory::config, fmt::format("{} refused: {}", argv[0], message));
  }
  return done;
}

// sbatch --parsable prints "JOBID" or "JOBID;CLUSTER".
std::string sbatch(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv{"sbatch", "--parsable"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const std::string out = run_slurm(argv).out;
  const std::string id = out.substr(0, out.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw Error(ErrorCategory::config, fmt::format("sbatch answered '{}', not a job id", out));
  return id;
}

json read_submission_file(const std::filesystem::path& folder) {
  const auto file = folder / "submission.json";
  std::ifstream in(file);
  if (!in)
    throw Error(ErrorCategory::data,
                fmt::format("{} is not a folder of `aeval submit slurm` (it holds no submission.json)", folder.string()));
  const json j = json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("job") || !j.contains("submissions"))
    throw Error(ErrorCategory::data, fmt::format("{}: not a submission record", file.string()));
  return j;
}

json submission_json(const Submission& s) {
  return {{"shards", s.shards}, {"array_job", s.array_job}, {"merge_job", s.merge_job}, {"submitted", s.submitted}};
}

}  // namespace

json SlurmArrayJob::to_json() const {
  const SlurmResources& r = resources;
  return {{"folder", folder.string()},
          {"aeval", aeval.string()},
          {"working_dir", working_dir.string()},
          {"global_args", global_args},
          {"run_args", run_args},
          {"session_args", session_args},
          {"task", task},
          {"model", model},
          {"shards", shards},
          {"resources",
           {{"partition", r.partition}, {"account", r.account}, {"qos", r.qos}, {"time", r.time}, {"gres", r.gres},
            {"mem", r.mem}, {"cpus_per_task", r.cpus_per_task}, {"array_limit", r.array_limit},
            {"sbatch_args", r.sbatch_args}}}};
}

SlurmArrayJob SlurmArrayJob::from_json(const json& j) {
  SlurmArrayJob job;
  job.folder = j.at("folder").get<std::string>();
  job.aeval = j.at("aeval").get<std::string>();
  job.working_dir = j.at("working_dir").get<std::string>();
  job.global_args = j.at("global_args");
  job.run_args = j.at("run_args");
  job.session_args = j.at("session_args");
  job.task = j.at("task");
  job.model = j.at("model");
  job.shards = j.at("shards");
  const json& r = j.at("resources");
  job.resources = {r.at("partition"), r.at("account"), r.at("qos"),           r.at("time"),        r.at("gres"),
                   r.at("mem"),       r.at("cpus_per_task"), r.at("array_limit"), r.at("sbatch_args")};
  return job;
}

std::string shard_script(const SlurmArrayJob& job) {
  const std::string folder = quoted(job.folder.string()), aeval = quoted(job.aeval.string());
  return header(job, "one shard per array task") +
         fmt::format("#SBATCH --job-name=aeval-{}\n#SBATCH --output={}/logs/shard-%a-job%A.out\n"
                     "#SBATCH --open-mode=append\n#SBATCH --requeue\n",
                     job.task, job.folder.string()) +
         sbatch_lines(job, true) +
         fmt::format(
             "set -euo pipefail\n"
             "shard=${{SLURM_ARRAY_TASK_ID:?this script runs as a task of a Slurm job array}}\n"
             "out={}/shard-$shard\n"
             "# A response cache per shard: machines sharing one SQLite file over a network filesystem could\n"
             "# corrupt it. merge.sbatch adds these to your own cache.\n"
             "export AEVAL_RESPONSE_CACHE={}/caches/shard-$shard.sqlite\n"
             "# A shard that ran before (failed, pre-empted, requeued, submitted again) continues its run:\n"
             "# the samples it finished are not run again.\n"
             "if [ -n \"$(find \"$out\" -name run.sqlite -print -quit 2>/dev/null)\" ]; then\n"
             "  exec {} run --resume --output \"$out\"{}\n"
             "fi\n"
             "exec {}{} run{} --shard \"$shard/{}\" --output \"$out\"{}\n",
             folder, folder, aeval, quoted_all(job.session_args), aeval, quoted_all(job.global_args),
             quoted_all(job.run_args), job.shards, quoted_all(job.session_args));
}

std::string merge_script(const SlurmArrayJob& job) {
  const std::string folder = quoted(job.folder.string()), aeval = quoted(job.aeval.string());
  return header(job, "the merge") +
         fmt::format("#SBATCH --job-name=aeval-merge-{}\n#SBATCH --output={}/logs/merge-job%j.out\n", job.task,
                     job.folder.string()) +
         sbatch_lines(job, false) +
         fmt::format(
             "set -euo pipefail\n"
             "folder={}\n"
             "runs=()\n"
             "for shard in $(seq 0 {}); do\n"
             "  store=$(find \"$folder/shard-$shard\" -name run.sqlite -print -quit 2>/dev/null || true)\n"
             "  if [ -z \"$store\" ]; then echo \"aeval: shard $shard has no run in $folder/shard-$shard\" >&2; exit 1; fi\n"
             "  runs+=(\"$(dirname \"$store\")\")\n"
             "done\n"
             "{} merge --output \"$folder/merged\" \"${{runs[@]}}\"\n"
             "# The shards' responses join your response cache, so no later run pays for them again.\n"
             "caches=(\"$folder\"/caches/shard-*.sqlite)\n"
             "if [ -e \"${{caches[0]}}\" ]; then {} cache import \"${{caches[@]}}\"; fi\n",
             folder, job.shards - 1, aeval, aeval);
}

std::string array_indices(const std::vector<int>& shards) {
  std::string out;
  for (std::size_t i = 0; i < shards.size();) {
    std::size_t j = i;
    while (j + 1 < shards.size() && shards[j + 1] == shards[j] + 1) ++j;
    if (!out.empty()) out.push_back(',');
    out.append(j == i ? std::to_string(shards[i]) : fmt::format("{}-{}", shards[i], shards[j]));
    i = j + 1;
  }
  return out;
}

Submission submit(const SlurmArrayJob& job, const std::vector<int>& shards) {
  std::filesystem::create_directories(job.folder / "logs");
  std::filesystem::create_directories(job.folder / "caches");
  const auto record = job.folder / "submission.json";
  json j = std::filesystem::exists(record) ? read_submission_file(job.folder)
                                           : json{{"job", job.to_json()}, {"submissions", json::array()}};
  write_file_atomically(job.folder / "shard.sbatch", shard_script(job));
  write_file_atomically(job.folder / "merge.sbatch", merge_script(job));
  Submission s;
  s.shards = shards;
  s.submitted = pipeline::utc_now();
  std::vector<std::string> merge_args;
  if (!shards.empty()) {
    const std::string limit = job.resources.array_limit > 0 ? fmt::format("%{}", job.resources.array_limit) : "";
    const std::string array = fmt::format("--array={}{}", array_indices(shards), limit);
    s.array_job = sbatch({array, (job.folder / "shard.sbatch").string()});
    merge_args.push_back("--dependency=afterok:" + s.array_job);
  }
  merge_args.push_back((job.folder / "merge.sbatch").string());
  try {
    s.merge_job = sbatch(merge_args);
  } catch (const Error&) {
    // Recorded all the same: the array runs, and a later submit --again sends the merge.
    j["submissions"].push_back(submission_json(s));
    write_file_atomically(record, j.dump(2) + "\n");
    throw;
  }
  j["submissions"].push_back(submission_json(s));
  write_file_atomically(record, j.dump(2) + "\n");
  return s;
}

SlurmArrayJob read_job(const std::filesystem::path& folder) {
  const json j = read_submission_file(folder);
  try {
    return SlurmArrayJob::from_json(j["job"]);
  } catch (const json::exception& e) {
    throw Error(ErrorCategory::data, fmt::format("{}: not a submission record ({})", (folder / "submission.json").string(),
                                                 e.what()));
  }
}

std::vector<Submission> read_submissions(const std::filesystem::path& folder) {
  std::vector<Submission> out;
  const json record = read_submission_file(folder);
  for (const auto& s : record["submissions"])
    out.push_back({s.value("shards", std::vector<int>{}), s.value("array_job", ""), s.value("merge_job", ""),
                   s.value("submitted", "")});
  return out;
}

std::map<std::string, std::string> queued_jobs(const std::vector<std::string>& job_ids) {
  // Every job of this user (an id squeue no longer knows would make it fail), array tasks one per line.
  const std::string out = run_slurm({"squeue", "--noheader", "--me", "--array", "--format=%i %T"}).out;
  std::map<std::string, std::string> states;
  std::istringstream lines(out);
  for (std::string id, state; lines >> id >> state;) {
    const std::string job = id.substr(0, id.find('_'));
    for (const auto& wanted : job_ids)
      if (job == wanted) states[id] = state;
  }
  return states;
}

void cancel_jobs(const std::vector<std::string>& job_ids) {
  if (job_ids.empty()) return;
  std::vector<std::string> argv{"scancel"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  run_slurm(argv);
}

}  // namespace aeval::cluster
