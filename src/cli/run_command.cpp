#include <cstdio>

#include "aeval/pipeline/registry.hpp"
#include "aeval/pipeline/runner.hpp"
#include "cli/commands.hpp"

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
}  // namespace

Action add_run_command(CLI::App& app, GlobalOptions& global) {
  struct Options {
    std::string task, dataset, model, post_process, evaluators;
    std::filesystem::path output = "results";
    std::size_t limit = 0;
    int jobs = 0;
    double max_fail_rate = 1.0;
  };
  auto o = std::make_shared<Options>();
  CLI::App* run = app.add_subcommand("run", "Evaluate a model on a dataset (a task)");
  run->footer(
      "A task names a dataset, a model, post-processing and evaluators; any of them can be\n"
      "replaced on the command line. Results go to OUTPUT/<task>/<model>/<run-id>/:\n"
      "  samples.jsonl  one line per sample: reference, prediction, normalized texts, scores, error\n"
      "  summary.json   corpus metrics, counts, fail_rate, timing and provenance\n"
      "A sample whose audio is missing or corrupt fails alone and counts in fail_rate.\n\n"
      "Examples:\n"
      "  aeval run --task asr-quickstart\n"
      "  aeval run --task asr-quickstart --limit 50 --jobs 2\n"
      "  aeval run --task asr-quickstart --dataset my-manifest.jsonl\n"
      "     (JSONL rows: {\"id\": ..., \"audio\": path relative to the manifest, \"text\": reference})");
  run->add_option("--task,-t", o->task, "Task to run (see `aeval list tasks`)")->required();
  run->add_option("--dataset,-d", o->dataset, "Replace the task's dataset: a registry name or a .jsonl manifest");
  run->add_option("--model,-m", o->model, "Replace the task's model (a registry name)");
  run->add_option("--post-process", o->post_process, "Replace the post-process chain: names, comma-separated");
  run->add_option("--evaluator", o->evaluators, "Replace the evaluators: names, comma-separated");
  run->add_option("--output,-o", o->output, "Folder that receives the results")->capture_default_str();
  run->add_option("--limit,-n", o->limit, "Evaluate only the first N samples (0: all)")->capture_default_str();
  run->add_option("--jobs,-j", o->jobs, "Samples in flight at once (0: the model's max_concurrency)")
      ->capture_default_str();
  run->add_option("--max-fail-rate", o->max_fail_rate,
                  "Exit with status 3 when more than this fraction of samples failed")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();

  return [o, &global]() {
    const pipeline::Registry registry(registry_folders(global));
    pipeline::TaskOverrides overrides;
    if (!o->dataset.empty()) overrides.dataset = o->dataset;
    if (!o->model.empty()) overrides.model = o->model;
    if (!o->post_process.empty()) overrides.post_process = split_commas(o->post_process);
    if (!o->evaluators.empty()) overrides.evaluators = split_commas(o->evaluators);
    const pipeline::TaskSpec task = pipeline::resolve_task(registry, o->task, overrides);

    pipeline::RunOptions options;
    options.output_root = o->output;
    options.limit = o->limit;
    options.jobs = o->jobs;
    options.command_line = global.argv;
    std::fprintf(stderr, "aeval: task %s: model %s on dataset %s\n", task.name.c_str(), task.model.c_str(),
                 task.dataset.c_str());
    const pipeline::RunResult result = pipeline::run_task(registry, task, options);
    std::printf("\n%s", pipeline::format_summary_table(result.summary).c_str());
    std::printf("results: %s/{samples.jsonl,summary.json}\n", result.run_dir.string().c_str());
    const double fail_rate = result.summary["fail_rate"].get<double>();
    if (fail_rate > o->max_fail_rate) {
      std::fprintf(stderr, "aeval: fail_rate %.4f exceeds --max-fail-rate %.4f\n", fail_rate, o->max_fail_rate);
      return 3;
    }
    return 0;
  };
}

}  // namespace aeval::cli
