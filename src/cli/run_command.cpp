#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

#include "aeval/error.hpp"
#include "aeval/pipeline/runner.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt_hint.hpp"
#include "run/invocation.hpp"
#include "tasks/task.hpp"
#include "registry/registry.hpp"
#include "report/summary.hpp"
#include "uea/uea_catalog_task.hpp"
#include "uea/uea_location.hpp"

namespace aeval::cli {

namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = std::min(s.find(',', start), s.size());
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// CLI11 reads "-1" into an unsigned option as a huge number; refuse it as written.
const CLI::Validator kNotNegative(
    [](const std::string& value) { return value.starts_with('-') ? "must be 0 or more, not " + value : std::string(); },
    "", "not negative");


struct RunCommandOptions {
  std::string task, suite, shard, resume;
  ComponentOptions components;
  std::vector<std::string> sets;
  std::filesystem::path output = "results";
  std::size_t limit = 0;
  int jobs = 0;
  double max_fail_rate = 0.5;
  bool no_cache = false, quiet = false, rerun_changed = false, prompt_variants = false;
  int tasks_at_once = 1;
};

// The prompts a task runs with: its variants (its own prompt first) with --prompt-variants, else its one prompt.
std::vector<std::string> prompts_to_run(const pipeline::TaskSpec& spec, bool variants, bool in_suite) {
  if (!variants) return {spec.prompt};
  if (spec.prompt_variants.empty() && !in_suite)
    throw Error(ErrorCategory::config,
                "task '" + spec.name + "' lists no prompt_variants: add them to its entry (`aeval describe task`), "
                "or run other prompts one at a time with --prompt");
  std::vector<std::string> prompts{spec.prompt};
  for (const auto& p : spec.prompt_variants)
    if (std::find(prompts.begin(), prompts.end(), p) == prompts.end()) prompts.push_back(p);
  return prompts;
}

// Tasks (a suite's, or one with its prompt variants) in turn, each a run of its own with the same options;
// a run that cannot start is reported and the rest still run. Exit status: the worst of the runs.
int run_each(const RunCommandOptions& o, const GlobalOptions& global, const pipeline::RunOptions& options) {
  pipeline::Invocation base;
  base.registry = registry_folders(global);
  base.sets = o.sets;
  const registry::Registry registry = load_registry(base);
  const std::vector<std::string> tasks = o.suite.empty() ? std::vector<std::string>{o.task}
                                                          : pipeline::suite_tasks(registry, o.suite);
  // UEA's registry is found (downloaded, the first time) once, before runs go side by side.
  if (std::any_of(tasks.begin(), tasks.end(), [&](const std::string& t) { return uea::defined_on_uea(registry, t); }))
    base.uea = std::filesystem::absolute(uea::uea_root({}));
  const std::string what = o.suite.empty() ? "task " + o.task : "suite " + o.suite;
  int status = 0;
  std::vector<std::pair<std::string, std::string>> outcomes;  // per run: title, what happened
  // Runs may go side by side (--tasks-at-once); each prints its result whole, and progress bars,
  // which would overwrite each other, give way to a line as each run starts.
  std::mutex print;
  pipeline::RunOptions run_options = options;
  run_options.on_run_folder = nullptr;  // each run's folder is in its result; runs may go side by side
  if (o.tasks_at_once > 1) run_options.log = nullptr;
  // `bind` binds the invocation's task and gives the registry it runs with (a task on UEA's registry has its own).
  const auto attempt = [&](std::size_t index, const std::string& title,
                           const std::function<registry::Registry(pipeline::Invocation&)>& bind) {
    {
      const std::lock_guard lock(print);
      std::printf("\n== %s (%zu in %s)%s\n", title.c_str(), index + 1, what.c_str(), o.tasks_at_once > 1 ? ": started" : "");
      std::fflush(stdout);
    }
    std::string outcome;
    int run_status = 1;
    try {
      pipeline::Invocation inv = base;
      const registry::Registry registry = bind(inv);
      inv.limit = o.limit;
      if (!o.shard.empty()) inv.shard = pipeline::parse_shard(o.shard);
      const pipeline::RunResult result = pipeline::run_task(registry, inv, run_options);
      const std::lock_guard lock(print);
      if (o.tasks_at_once > 1) std::printf("\n== %s: finished\n", title.c_str());
      run_status = report_result(result, o.max_fail_rate);
      outcome = run_status == 0 ? "done" : "done, too many samples failed";
    } catch (const Error& e) {
      const std::lock_guard lock(print);
      std::fprintf(stderr, "aeval: %s: %s error: %s\n", title.c_str(), to_string(e.category()), e.what());
      outcome = std::string("stopped: ") + e.what();
    }
    const std::lock_guard lock(print);
    status = std::max(status, run_status);
    outcomes[index] = {title, outcome};
  };
  struct Run {
    std::string title, task, prompt;
  };
  std::vector<Run> runs;
  for (const auto& task : tasks) {
    std::vector<std::string> prompts{""};  // without variants a run binds its task's own prompt
    if (o.prompt_variants) try {
        pipeline::Invocation probe = base;
        pipeline::bind_task(probe, task, o.components.overrides());
        prompts = prompts_to_run(probe.task, true, !o.suite.empty());
      } catch (const Error& e) {
        if (o.suite.empty()) throw;
        // the run reports the error
      }
    for (const auto& prompt : prompts)
      runs.push_back({prompts.size() > 1 ? fmt::format("{} (prompt {})", task, prompt.empty() ? "none" : prompt) : task,
                      task, prompt});
  }
  outcomes.resize(runs.size());
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i; (i = next++) < runs.size();)
      attempt(i, runs[i].title, [&](pipeline::Invocation& inv) {
        auto overrides = o.components.overrides();
        if (o.prompt_variants) overrides.prompt = runs[i].prompt;
        return pipeline::bind_task(inv, runs[i].task, overrides);
      });
  };
  std::vector<std::thread> workers;
  for (int w = 1; w < std::min<int>(o.tasks_at_once, int(runs.size())); ++w) workers.emplace_back(worker);
  worker();
  for (auto& w : workers) w.join();
  std::printf("\n%s:\n", what.c_str());
  for (const auto& [run, outcome] : outcomes) std::printf("  %-40s %s\n", run.c_str(), outcome.c_str());
  return status;
}

}  // namespace

void add_component_options(CLI::App* command, ComponentOptions& o, bool inference) {
  if (inference) {
    command->add_option("--dataset,-d", o.dataset, "The dataset: a registry name or a .jsonl manifest");
    command->add_option("--prompt", o.prompt, "The prompt (a registry name)");
    command->add_option("--model,-m", o.model, "The model (a registry name)");
  }
  command->add_option("--post-process", o.post_process, "The post-process chain: names, comma-separated");
  command->add_option("--evaluator", o.evaluators, "The evaluators: names, comma-separated");
  command->add_option("--aggregator", o.aggregators, "The aggregators: names, comma-separated");
}

pipeline::TaskOverrides ComponentOptions::overrides() const {
  pipeline::TaskOverrides t;
  if (!dataset.empty()) t.dataset = dataset;
  if (!prompt.empty()) t.prompt = prompt;
  if (!model.empty()) t.model = model;
  if (!post_process.empty()) t.post_process = split_commas(post_process);
  if (!evaluators.empty()) t.evaluators = split_commas(evaluators);
  if (!aggregators.empty()) t.aggregators = split_commas(aggregators);
  return t;
}

// Exit status 3 when more than `max_fail_rate` of the samples failed, or every one did.
int report_result(const pipeline::RunResult& result, double max_fail_rate) {
  std::printf("\n%s", report::format_summary_table(result.summary).c_str());
  std::printf("this session: %zu samples run (%zu from the response cache) in %.1f s\n", result.session.samples_run,
              result.session.cached_responses, result.session.elapsed_seconds);
  std::printf("results: %s/{samples.jsonl,summary.json,run.json,run.sqlite}\n", result.run_dir.string().c_str());
  const auto& counts = result.summary["counts"];
  // What failed, on the terminal: the most frequent kinds, each with its first example.
  std::vector<std::pair<std::string, pipeline::Session::Failures>> kinds(result.session.failures.begin(),
                                                                          result.session.failures.end());
  std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
  for (std::size_t k = 0; k < kinds.size() && k < 3; ++k)
    std::fprintf(stderr, "aeval: %zu failed at %s, e.g. %s\n", kinds[k].second.count, kinds[k].first.c_str(),
                 kinds[k].second.first.c_str());
  if (!kinds.empty())
    std::fprintf(stderr, "aeval: each failure: %s\n", (result.run_dir / "samples.jsonl").string().c_str());
  // A run with no successful sample has no score to report, whatever limit was asked for.
  if (counts["samples"].get<std::size_t>() > 0 && counts["failed"] == counts["samples"]) {
    if (result.session.first_error.empty())
      std::fprintf(stderr, "aeval: every sample failed; samples.jsonl names each error\n");
    else
      std::fprintf(stderr, "aeval: every sample failed; the first: %s (samples.jsonl names each error)\n",
                   result.session.first_error.c_str());
    return 3;
  }
  const double fail_rate = result.summary["fail_rate"].get<double>();
  if (fail_rate > max_fail_rate) {
    std::fprintf(stderr, "aeval: fail_rate %.4f exceeds --max-fail-rate %.4f\n", fail_rate, max_fail_rate);
    return 3;
  }
  return 0;
}

Action add_run_command(CLI::App& app, GlobalOptions& global) {
  auto o = std::make_shared<RunCommandOptions>();
  CLI::App* run = app.add_subcommand("run", "Evaluate a model on a dataset (a task)");
  run->footer(
      "A task binds a dataset, a prompt, a model, post-processing, evaluators and aggregators\n"
      "(`aeval list tasks`, `aeval describe NAME`); each can be replaced on the command line,\n"
      "and --set changes one argument of any entry. Results go to OUTPUT/<task>/<model>/<run-id>/:\n"
      "  run.sqlite     every finished sample, stored the moment it finishes (resume reads it)\n"
      "  samples.jsonl  one line per sample: prediction, processed texts, scores or error\n"
      "  summary.json   corpus metrics, intervals, groups, counts, fail_rate and provenance\n"
      "  run.json       timing and command line of every session\n"
      "A sample whose audio is corrupt, whose prompt cannot render or whose model call fails\n"
      "fails alone and counts in fail_rate. A killed run continues with --resume; model\n"
      "responses are cached (content hash) so a re-run does not pay twice.\n\n"
      "Examples:\n"
      "  aeval run --task asr-quickstart\n"
      "  aeval run --task asr-quickstart --limit 50 --jobs 2 --set pocketsphinx-en.max_concurrency=1\n"
      "  aeval run --dataset my-manifest.jsonl --model pocketsphinx-en --evaluator wer,cer\n"
      "     (JSONL rows: {\"id\": ..., \"audio\": path relative to the manifest, \"text\": reference})\n"
      "  aeval run --task asr-quickstart --shard 0/4      (and 1/4, 2/4, 3/4; then `aeval merge`)\n"
      "  aeval submit slurm --task asr-quickstart --shards 4   (the same as a Slurm job array, merged)\n"
      "  aeval run --task mmau-test-mini --model my-server --prompt-variants   (each prompt wording in turn)\n"
      "  aeval run --resume results/asr-quickstart/pocketsphinx-en/20261122T101500Z\n"
      "  aeval run --resume                                (the latest run under --output)\n\n"
      "Exit status: 0 the run finished; 1 an error stopped it (its message says where);\n"
      "2 the command line is wrong; 3 more than --max-fail-rate of the samples failed,\n"
      "or every sample failed (whatever --max-fail-rate says).");
  run->add_option("--task,-t", o->task, "Task to run (`aeval list tasks`)");
  run->add_option("--suite", o->suite, "Run every task of a suite in turn (`aeval list suites`), e.g. with --model")
      ->excludes("--task");
  add_component_options(run, o->components, true);
  run->add_flag("--prompt-variants", o->prompt_variants,
                "Run the task (or each task of the suite) once per prompt it lists in prompt_variants, its own "
                "first; `aeval report` shows the spread")
      ->excludes("--prompt");
  run->add_option("--tasks-at-once", o->tasks_at_once,
                  "With --suite or --prompt-variants: runs side by side (remote models share their endpoint's "
                  "max_concurrency across them)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  run->add_option("--set", o->sets, "NAME.ARG=VALUE: change one argument of a registry entry (repeatable)");
  run->add_option("--output,-o", o->output, "Folder that receives the results")->capture_default_str();
  run->add_option("--limit,-n", o->limit, "Evaluate only the first N samples (0: all)")
      ->check(kSampleCount)
      ->capture_default_str();
  run->add_option("--shard", o->shard,
                  "I/N: evaluate only the samples whose id hashes to I of N (job arrays; `aeval merge` joins them); "
                  "auto: I and N of the Slurm array task this runs in")
      ->check(kShard);
  run->add_option("--jobs,-j", o->jobs, "Samples in flight at once (0: the model's max_concurrency)")
      ->check(kNotNegative)
      ->capture_default_str();
  CLI::Option* resume =
      run->add_option("--resume", o->resume, "Continue a killed or failed run: its folder, or nothing for the latest")
          ->expected(0, 1);
  run->add_flag("--rerun-changed", o->rerun_changed,
                "With --resume: run again the finished samples whose row or audio changed since they ran "
                "(without it, such a resume is refused and lists them)")
      ->needs(resume);
  run->add_flag("--no-cache", o->no_cache, "Neither read nor write the response cache");
  run->add_flag("--quiet,-q", o->quiet, "No progress or notes on stderr");
  run->add_option("--max-fail-rate", o->max_fail_rate,
                  "Exit with status 3 when more than this fraction of the samples failed (every sample "
                  "failed: 3 whatever this is)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();

  return [o, run, &global]() {
    pipeline::RunOptions options;
    options.output_root = o->output;
    options.jobs = o->jobs;
    options.use_cache = !o->no_cache;
    options.rerun_changed = o->rerun_changed;
    options.log = o->quiet ? nullptr : stderr;
    options.command_line = global.argv;
    std::unique_ptr<InterruptHint> hint;
    announce_run_folder(options, hint, o->quiet);
    if (run->count("--resume")) {
      // A resumed run takes all of these from its store; accepting one would silently ignore it.
      std::vector<std::string> given;
      for (const char* name : {"--task", "--suite", "--prompt-variants", "--dataset", "--prompt", "--model", "--post-process", "--evaluator",
                               "--aggregator", "--set", "--limit", "--shard"})
        if (run->count(name)) given.emplace_back(name);
      if (!global.registries.empty()) given.emplace_back("--registry");
      if (!given.empty())
        throw CLI::ValidationError(fmt::format("--resume continues a run with the task, components, registry, --set, --limit and "
                                "--shard it recorded, so {} would be ignored; leave {} out, or start a new run",
                                fmt::join(given, ", "), given.size() == 1 ? "it" : "them"));
      // As given, less any trailing separator: the folder is printed with its file names after a '/'.
      std::filesystem::path dir = o->resume.empty() ? pipeline::latest_run(o->output)
                                                    : std::filesystem::path(o->resume).lexically_normal();
      if (!dir.has_filename() && dir.has_relative_path()) dir = dir.parent_path();
      if (!o->quiet) std::fprintf(stderr, "aeval: resuming %s\n", dir.string().c_str());
      return report_result(pipeline::resume_run(dir, options), o->max_fail_rate);
    }
    if (!o->suite.empty() || o->prompt_variants) {
      if (o->task.empty() && o->suite.empty()) throw CLI::ValidationError("--prompt-variants needs --task or --suite");
      return run_each(*o, global, options);
    }
    if (o->task.empty() && o->components.dataset.empty())
      throw CLI::ValidationError("name a --task, or a --dataset (with --model and --evaluator unless the dataset has a "
                                 "default task); `aeval list tasks` shows the tasks");
    pipeline::Invocation inv;
    inv.registry = registry_folders(global);
    inv.sets = o->sets;
    const registry::Registry registry = pipeline::bind_task(inv, o->task, o->components.overrides());
    inv.limit = o->limit;
    if (!o->shard.empty()) inv.shard = pipeline::parse_shard(o->shard);
    if (!o->quiet)
      std::fprintf(stderr, "aeval: task %s: model %s on dataset %s%s\n", inv.task.name.c_str(), inv.task.model.c_str(),
                   inv.task.dataset.c_str(), inv.task.prompt.empty() ? "" : (", prompt " + inv.task.prompt).c_str());
    return report_result(pipeline::run_task(registry, inv, options), o->max_fail_rate);
  };
}

Action add_rescore_command(CLI::App& app) {
  struct Options {
    std::filesystem::path run_dir, output = "results";
    ComponentOptions components;
  };
  auto o = std::make_shared<Options>();
  CLI::App* rescore = app.add_subcommand("rescore", "Score a finished run again from its stored predictions");
  rescore->footer(
      "No inference: the predictions in RUN_DIR/run.sqlite are post-processed and scored again,\n"
      "with the run's own components unless replaced here, into a new run folder\n"
      "(<run-id>-rescored). Samples whose inference failed stay failed.\n\n"
      "Example:\n"
      "  aeval rescore results/asr-quickstart/pocketsphinx-en/20261122T101500Z --post-process whisper-basic");
  rescore->add_option("run_dir", o->run_dir, "The run folder")->required();
  add_component_options(rescore, o->components, false);
  rescore->add_option("--output,-o", o->output, "Folder that receives the new run")->capture_default_str();
  return [o]() { return report_result(pipeline::rescore_run(o->run_dir, o->components.overrides(), o->output), 1.0); };
}

Action add_merge_command(CLI::App& app) {
  struct Options {
    std::vector<std::filesystem::path> run_dirs;
    std::filesystem::path output = "results";
  };
  auto o = std::make_shared<Options>();
  CLI::App* merge = app.add_subcommand("merge", "Combine runs of one task (shards of a job array) into one");
  merge->footer(
      "The runs must share task, model and every setting; their samples are united in dataset\n"
      "order (a sample that failed in one run and succeeded in another keeps the success) and\n"
      "scored as one corpus, into a new run folder (<run-id>-merged).\n\n"
      "Example (a Slurm array of 4):  aeval run --task T --shard auto    (in each array task)\n"
      "                               aeval merge results/T/M/*\n"
      "`aeval submit slurm` writes and submits both for you (docs/cluster.md).");
  merge->add_option("run_dirs", o->run_dirs, "Run folders")->required();
  merge->add_option("--output,-o", o->output, "Folder that receives the merged run")->capture_default_str();
  return [o]() { return report_result(pipeline::merge_runs(o->run_dirs, o->output), 1.0); };
}

}  // namespace aeval::cli
