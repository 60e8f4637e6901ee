// aeval status: how far runs have got, from their stores: the shards of a
// Slurm submission (with the queue's view of their jobs), or every run under
// a folder.
#include <fmt/format.h>

#include <cstdio>
#include <map>

#include "aeval/error.hpp"
#include "cli/commands.hpp"
#include "cluster/run_progress.hpp"
#include "cluster/slurm_array.hpp"

namespace aeval::cli {

namespace {

namespace fs = std::filesystem;

std::string samples_text(const cluster::RunProgress& p) {
  return p.planned ? fmt::format("{}/{}", p.stored, p.planned) : fmt::format("{}/?", p.stored);
}

// Slurm's view, where squeue can be asked; finished jobs leave the queue and show as "-".
std::map<std::string, std::string> queue_states(const std::vector<cluster::Submission>& submissions) {
  std::vector<std::string> ids;
  for (const auto& s : submissions)
    for (const auto& id : {s.array_job, s.merge_job})
      if (!id.empty()) ids.push_back(id);
  try {
    return cluster::queued_jobs(ids);
  } catch (const Error&) {
    return {};  // not on a Slurm node: the stores still tell the progress
  }
}

int submission_status(const fs::path& folder) {
  const auto job = cluster::read_job(folder);
  const auto submissions = cluster::read_submissions(folder);
  const auto queue = queue_states(submissions);
  std::printf("task %s, model %s: %d shards, submitted %zu time%s\n", job.task.c_str(), job.model.c_str(), job.shards,
              submissions.size(), submissions.size() == 1 ? "" : "s");
  // Each shard's latest array task, which the queue may still hold.
  std::map<int, std::string> task_of;
  for (const auto& s : submissions)
    for (int shard : s.shards) task_of[shard] = fmt::format("{}_{}", s.array_job, shard);
  std::printf("%-6s %-12s %-7s %-20s %s\n", "shard", "samples", "failed", "state", "slurm");
  int finished = 0;
  for (int i = 0; i < job.shards; ++i) {
    const auto run = cluster::run_under(folder / fmt::format("shard-{}", i));
    const auto it = task_of.count(i) ? queue.find(task_of[i]) : queue.end();
    const std::string slurm = it == queue.end() ? "-" : fmt::format("{} {}", task_of[i], it->second);
    if (!run) {
      std::printf("%-6d %-12s %-7s %-20s %s\n", i, "-", "-", "not started", slurm.c_str());
      continue;
    }
    const auto p = cluster::run_progress(*run);
    finished += p.complete();
    std::printf("%-6d %-12s %-7zu %-20s %s\n", i, samples_text(p).c_str(), p.failed, p.state().c_str(), slurm.c_str());
  }
  const std::string merge = submissions.empty() ? "" : submissions.back().merge_job;
  if (const auto merged = cluster::run_under(folder / "merged"))
    std::printf("merged: %s\n", merged->c_str());
  else if (queue.count(merge))
    std::printf("merge: job %s %s\n", merge.c_str(), queue.at(merge).c_str());
  else
    std::printf("merge: not done; %d of %d shards finished%s\n", finished, job.shards,
                finished < job.shards ? fmt::format(" (aeval submit slurm --again {})", folder.string()).c_str() : "");
  return 0;
}

int runs_status(const fs::path& root) {
  const auto runs = cluster::runs_under(root);
  if (runs.empty()) throw Error(ErrorCategory::data, fmt::format("no run under {}", root.string()));
  std::printf("%-12s %-7s %-6s %-20s %s\n", "samples", "failed", "shard", "state", "run");
  for (const auto& dir : runs) {
    const auto p = cluster::run_progress(dir);
    std::printf("%-12s %-7zu %-6s %-20s %s\n", samples_text(p).c_str(), p.failed, p.shard.c_str(), p.state().c_str(),
                dir.c_str());
  }
  return 0;
}

}  // namespace

Action add_status_command(CLI::App& app) {
  auto folder = std::make_shared<fs::path>();
  CLI::App* status = app.add_subcommand("status", "How far runs have got: the shards of a Slurm submission, or any runs");
  status->footer(
      "Reads the run stores (run.sqlite) alone, so it is quick while runs are going. Given the folder\n"
      "of `aeval submit slurm`, it shows each shard's samples and state, Slurm's view of its job\n"
      "(where squeue answers) and the merge; given any other folder, every run under it.\n\n"
      "Examples:\n"
      "  aeval status results/asr-quickstart/pocketsphinx-en/20261125T101500Z-slurm\n"
      "  aeval status results/");
  status->add_option("folder", *folder, "A submission folder, a run folder, or a folder of runs")
      ->required()
      ->check(CLI::ExistingDirectory);
  return [folder]() {
    if (fs::exists(*folder / "submission.json")) return submission_status(*folder);
    return runs_status(*folder);
  };
}

}  // namespace aeval::cli
