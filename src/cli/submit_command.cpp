// aeval submit slurm: a task as a Slurm job array of shards and a merge job
// (src/cluster/slurm_array.hpp), or, with --again, the shards of an earlier
// submission that did not finish.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <set>

#include "aeval/error.hpp"
#include "cli/commands.hpp"
#include "cluster/run_progress.hpp"
#include "cluster/slurm_array.hpp"
#include "datasets/dataset.hpp"
#include "run/invocation.hpp"
#include "run/run_id.hpp"
#include "run/shard.hpp"

namespace aeval::cli {

namespace {

namespace fs = std::filesystem;
using cluster::SlurmArrayJob;

struct SubmitOptions {
  std::string task;
  ComponentOptions components;
  std::vector<std::string> sets;
  std::size_t limit = 0;
  int shards = 0, jobs = 0;
  double max_fail_rate = 0.5;
  bool no_cache = false, dry_run = false;
  fs::path output = "results", again, aeval;
  cluster::SlurmResources resources;
};

// The options a new shard's `aeval run` is given, as the user wrote them.
std::vector<std::string> run_arguments(const SubmitOptions& o, const CLI::App& command) {
  std::vector<std::string> args;
  const auto pass = [&](const char* option, const std::string& value) {
    if (!value.empty()) args.insert(args.end(), {option, value});
  };
  pass("--task", o.task);
  pass("--dataset", o.components.dataset);
  pass("--prompt", o.components.prompt);
  pass("--model", o.components.model);
  pass("--post-process", o.components.post_process);
  pass("--evaluator", o.components.evaluators);
  pass("--aggregator", o.components.aggregators);
  for (const auto& s : o.sets) pass("--set", s);
  if (command.count("--limit")) pass("--limit", std::to_string(o.limit));
  return args;
}

// What every session of a shard is given, a resumed one too.
std::vector<std::string> session_arguments(const SubmitOptions& o, const CLI::App& command) {
  std::vector<std::string> args;
  if (command.count("--jobs")) args.insert(args.end(), {"--jobs", std::to_string(o.jobs)});
  if (command.count("--max-fail-rate")) args.insert(args.end(), {"--max-fail-rate", fmt::format("{}", o.max_fail_rate)});
  if (o.no_cache) args.push_back("--no-cache");
  return args;
}

fs::path this_binary() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) throw Error(ErrorCategory::config, "cannot tell where the aeval binary is: give --aeval PATH");
  return self;
}

// Every shard must hold a sample: an empty one would fail its array task, and the merge would never run.
void refuse_empty_shards(const datasets::Dataset& dataset, const pipeline::Invocation& base, int shards) {
  std::vector<int> empty;
  for (int i = 0; i < shards; ++i) {
    pipeline::Invocation inv = base;
    inv.shard = {i, shards};
    if (pipeline::select_positions(dataset, inv).empty()) empty.push_back(i);
  }
  if (!empty.empty())
    throw Error(ErrorCategory::config,
                fmt::format("{} of the {} shards would hold no sample ({} samples{}): give fewer --shards",
                            empty.size(), shards, dataset.samples.size(),
                            base.limit ? fmt::format(", --limit {}", base.limit) : ""));
}

// #SBATCH lines take their values unquoted, and Slurm reads % in --output as a pattern.
void refuse_unusable_path(const fs::path& path, const char* what) {
  if (path.string().find_first_of(" \t\n%\\\"'") != std::string::npos)
    throw Error(ErrorCategory::config,
                fmt::format("{} '{}' holds a space, quote, backslash or %, which sbatch cannot take in its scripts; "
                            "choose another {}",
                            what, path.string(), what == std::string("folder") ? "--output" : "folder to submit from"));
}

void print_scripts(const SlurmArrayJob& job, const std::vector<int>& shards) {
  if (!shards.empty())
    std::printf("==> %s/shard.sbatch  (sbatch --array=%s%s)\n%s\n", job.folder.c_str(),
                cluster::array_indices(shards).c_str(),
                job.resources.array_limit ? fmt::format("%{}", job.resources.array_limit).c_str() : "",
                cluster::shard_script(job).c_str());
  std::printf("==> %s/merge.sbatch  (sbatch%s)\n%s", job.folder.c_str(),
              shards.empty() ? "" : " --dependency=afterok:<the array's job id>", cluster::merge_script(job).c_str());
}

void print_submitted(const SlurmArrayJob& job, const cluster::Submission& s) {
  if (!s.array_job.empty())
    std::printf("submitted task %s, model %s: array job %s (shards %s of %d), merge job %s (once every shard "
                "succeeds)\n",
                job.task.c_str(), job.model.c_str(), s.array_job.c_str(), cluster::array_indices(s.shards).c_str(),
                job.shards, s.merge_job.c_str());
  else
    std::printf("submitted the merge of task %s, model %s: job %s\n", job.task.c_str(), job.model.c_str(),
                s.merge_job.c_str());
  std::printf("folder:     %s\n"
              "progress:   aeval status %s\n"
              "the result: %s/merged/%s/%s/<time>-merged, once job %s ends\n"
              "a shard failed or was pre-empted? aeval submit slurm --again %s\n",
              job.folder.c_str(), job.folder.c_str(), job.folder.c_str(), job.task.c_str(), job.model.c_str(),
              s.merge_job.c_str(), job.folder.c_str());
}

int submit_new(const SubmitOptions& o, const CLI::App& command, const GlobalOptions& global) {
  if (o.shards < 1) throw CLI::ValidationError("submit slurm: give --shards N (or --again FOLDER)");
  if (o.task.empty() && o.components.dataset.empty())
    throw CLI::ValidationError("submit slurm: name a --task (or a --dataset with --model and --evaluator)");
  // Everything a shard would stop on stops here instead, before anything is queued.
  pipeline::Invocation inv;
  inv.registry = registry_folders(global);
  inv.sets = o.sets;
  const registry::Registry registry = pipeline::bind_task(inv, o.task, o.components.overrides());
  inv.limit = o.limit;
  // Loading the dataset here downloads what it needs once, into the cache the shards then read.
  std::fprintf(stderr, "aeval: loading dataset %s, which every shard reads from the cache\n", inv.task.dataset.c_str());
  refuse_empty_shards(datasets::load_dataset(registry, inv.task.dataset), inv, o.shards);

  SlurmArrayJob job;
  job.aeval = o.aeval.empty() ? this_binary() : fs::absolute(o.aeval);
  job.working_dir = fs::current_path();
  for (const auto& folder : global.registries)
    job.global_args.insert(job.global_args.end(), {"--registry", fs::absolute(folder).string()});
  job.run_args = run_arguments(o, command);
  job.session_args = session_arguments(o, command);
  job.task = inv.task.name;
  job.model = inv.task.model;
  job.shards = o.shards;
  job.resources = o.resources;
  const fs::path parent = fs::absolute(o.output) / job.task / job.model;
  refuse_unusable_path(parent, "folder");
  refuse_unusable_path(job.working_dir, "working folder");
  std::vector<int> all(std::size_t(o.shards));
  for (int i = 0; i < o.shards; ++i) all[std::size_t(i)] = i;
  if (o.dry_run) {
    job.folder = parent / (pipeline::utc_now("%Y%m%dT%H%M%SZ") + "-slurm");
    print_scripts(job, all);
    return 0;
  }
  job.folder = parent / pipeline::new_run_id(parent, "-slurm");
  try {
    print_submitted(job, cluster::submit(job, all));
  } catch (const Error&) {
    // sbatch refused the array: nothing is queued, so no folder is left to puzzle over.
    if (!fs::exists(job.folder / "submission.json")) fs::remove_all(job.folder);
    throw;
  }
  return 0;
}

// The shards of FOLDER that have not finished: never begun, stopped part way, or with failed samples
// (which a resumed run tries again).
std::vector<int> unfinished_shards(const SlurmArrayJob& job) {
  std::vector<int> out;
  for (int i = 0; i < job.shards; ++i) {
    const auto run = cluster::run_under(job.folder / fmt::format("shard-{}", i));
    if (!run || !cluster::run_progress(*run).complete()) out.push_back(i);
  }
  return out;
}

int submit_again(const SubmitOptions& o) {
  const fs::path folder = fs::absolute(o.again);
  const SlurmArrayJob job = cluster::read_job(folder);
  std::vector<std::string> ids;
  std::set<std::string> merges;
  for (const auto& s : cluster::read_submissions(folder)) {
    if (!s.array_job.empty()) ids.push_back(s.array_job);
    if (!s.merge_job.empty()) ids.push_back(s.merge_job), merges.insert(s.merge_job);
  }
  // A shard still queued or running must not get a second process on its run.
  std::vector<std::string> busy, waiting_merges;
  for (const auto& [id, state] : cluster::queued_jobs(ids)) {
    if (merges.count(id)) waiting_merges.push_back(id);
    else busy.push_back(fmt::format("{} ({})", id, state));
  }
  if (!busy.empty())
    throw Error(ErrorCategory::config,
                fmt::format("array tasks {} of {} are still queued or running: wait for them to end, or scancel "
                            "them, then submit again",
                            fmt::join(busy, ", "), folder.string()));
  const std::vector<int> shards = unfinished_shards(job);
  if (shards.empty() && !waiting_merges.empty()) {
    std::printf("every shard has finished; merge job %s is in the queue\n", fmt::format("{}", fmt::join(waiting_merges, ", ")).c_str());
    return 0;
  }
  if (const auto merged = cluster::run_under(folder / "merged"); shards.empty() && merged) {
    std::printf("every shard has finished and is merged: %s\n", merged->c_str());
    return 0;
  }
  if (o.dry_run) {
    if (!waiting_merges.empty()) std::printf("would cancel merge job %s (it waits on shards that failed)\n",
                                             fmt::format("{}", fmt::join(waiting_merges, ", ")).c_str());
    print_scripts(job, shards);
    return 0;
  }
  // A merge waiting (afterok) on an array with a failed task never runs: a new one waits on the new array.
  cluster::cancel_jobs(waiting_merges);
  print_submitted(job, cluster::submit(job, shards));
  return 0;
}

}  // namespace

Action add_submit_command(CLI::App& app, GlobalOptions& global) {
  auto o = std::make_shared<SubmitOptions>();
  CLI::App* submit = app.add_subcommand("submit", "Run a task on a cluster: a job array of shards, then their merge");
  submit->require_subcommand(1);
  CLI::App* slurm = submit->add_subcommand("slurm", "Submit a task to Slurm as a job array of shards and a merge job");
  slurm->footer(
      "Each array task is an ordinary `aeval run --shard I/N` into the submission folder on your\n"
      "shared filesystem (OUTPUT/<task>/<model>/<time>-slurm/); a merge job waits for all of them\n"
      "(afterok) and writes the merged run, identical to a run on one machine, to its merged/ folder.\n"
      "The task is resolved and its dataset loaded (downloaded once, into the cache the shards read)\n"
      "before anything is queued, so a mistake stops here. A shard that fails or is pre-empted is\n"
      "sent again with --again: it continues its run, and no finished sample runs twice.\n"
      "Every shard writes a response cache of its own (SQLite locks hold on one machine, not across\n"
      "a network filesystem); the merge job adds them to yours. docs/cluster.md has the details.\n\n"
      "Examples:\n"
      "  aeval submit slurm --task librispeech-test-clean --model my-server --shards 8 --partition gpu \\\n"
      "      --gres gpu:1 --time 02:00:00 --array-limit 4\n"
      "  aeval submit slurm --task asr-quickstart --shards 4 --dry-run     (print the scripts)\n"
      "  aeval status results/asr-quickstart/pocketsphinx-en/20261125T101500Z-slurm\n"
      "  aeval submit slurm --again results/asr-quickstart/pocketsphinx-en/20261125T101500Z-slurm");
  slurm->add_option("--task,-t", o->task, "Task to run (`aeval list tasks`)");
  add_component_options(slurm, o->components, true);
  slurm->add_option("--set", o->sets, "NAME.ARG=VALUE: change one argument of a registry entry (repeatable)");
  slurm->add_option("--limit,-n", o->limit, "Only the first N samples (0: all)")->check(kSampleCount);
  slurm->add_option("--shards", o->shards, "Array tasks to split the task into")->check(CLI::PositiveNumber);
  slurm->add_option("--output,-o", o->output, "Results folder on the shared filesystem")->capture_default_str();
  slurm->add_option("--jobs,-j", o->jobs, "Samples in flight at once in each shard (0: the model's max_concurrency)")
      ->check(CLI::NonNegativeNumber);
  slurm->add_option("--max-fail-rate", o->max_fail_rate,
                    "A shard where more than this fraction of samples failed fails its array task (so no merge)")
      ->check(CLI::Range(0.0, 1.0));
  slurm->add_flag("--no-cache", o->no_cache, "Shards neither read nor write a response cache");
  slurm->add_option("--partition,-p", o->resources.partition, "sbatch --partition");
  slurm->add_option("--account,-A", o->resources.account, "sbatch --account");
  slurm->add_option("--qos", o->resources.qos, "sbatch --qos");
  slurm->add_option("--time", o->resources.time, "sbatch --time of each job (e.g. 02:00:00)");
  slurm->add_option("--gres", o->resources.gres, "sbatch --gres of each shard (e.g. gpu:1)");
  slurm->add_option("--mem", o->resources.mem, "sbatch --mem of each shard");
  slurm->add_option("--cpus-per-task,-c", o->resources.cpus_per_task, "sbatch --cpus-per-task of each shard");
  slurm->add_option("--array-limit", o->resources.array_limit, "Shards running at once (sbatch --array=…%K)")
      ->check(CLI::PositiveNumber);
  slurm->add_option("--sbatch-arg", o->resources.sbatch_args,
                    "Another sbatch option for the shards, as written: --sbatch-arg=--constraint=a100 (repeatable)");
  slurm->add_option("--aeval", o->aeval, "The aeval binary the jobs run (default: this one; it must be on the shared "
                                         "filesystem)");
  slurm->add_option("--again", o->again, "A submission folder: submit its shards that did not finish, and a new merge")
      ->check(CLI::ExistingDirectory);
  slurm->add_flag("--dry-run", o->dry_run, "Print the scripts and what would be submitted; submit nothing");
  return [o, slurm, &global]() {
    if (!o->again.empty()) {
      // The folder recorded the job; accepting another setting would silently ignore it.
      std::vector<std::string> given;
      for (const CLI::Option* option : slurm->get_options())
        if (option->count() && option->get_name() != "--again" && option->get_name() != "--dry-run")
          given.push_back(option->get_name());
      if (!given.empty())
        throw CLI::ValidationError(fmt::format("--again submits the job its folder recorded, so {} would be ignored; leave {} out, "
                                "or submit a new job",
                                fmt::join(given, ", "), given.size() == 1 ? "it" : "them"));
      return submit_again(*o);
    }
    return submit_new(*o, *slurm, global);
  };
}

}  // namespace aeval::cli
