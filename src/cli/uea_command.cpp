// aeval uea: UltraEval-Audio's registry, read as it is (docs/uea.md).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "aeval/error.hpp"
#include "aeval/pipeline/runner.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt_hint.hpp"
#include "uea/uea_save.hpp"
#include "run/invocation.hpp"
#include "tasks/task.hpp"
#include "registry/classes.hpp"
#include "uea/uea_entries.hpp"
#include "uea/uea_location.hpp"
#include "uea/uea_differences.hpp"
#include "uea/uea_task.hpp"

namespace aeval::cli {

namespace {

using Json = nlohmann::ordered_json;

struct UeaOptions {
  std::filesystem::path dir;
  std::string name, row = "{}", answer;
  bool json = false;
  // uea run: UltraEval-Audio's main.py options
  std::string dataset, dataset_ref_col, model, task, prompt, evaluator, agg, resume, registry_path, save;
  std::vector<std::string> post_process, sets;
  std::size_t limit = 0;
  int workers = 0;
  std::filesystem::path output = "results";
  double max_fail_rate = 0.5;
  bool quiet = false, no_cache = false;
};

void add_dir_option(CLI::App* command, UeaOptions& options) {
  command->add_option("--uea-dir", options.dir,
                      "An UltraEval-Audio checkout (or its registry/ folder) instead of the pinned commit "
                      "(also $AEVAL_UEA_DIR)");
}

// main.py's --registry_path: further registry folders, separated by spaces.
std::vector<std::filesystem::path> registry_paths(const std::string& text) {
  std::vector<std::filesystem::path> folders;
  std::istringstream words(text);
  for (std::string folder; words >> folder;) folders.push_back(std::filesystem::absolute(folder));
  return folders;
}

// One UEA entry as an aeval registry of that entry alone, or an error saying why it is unsupported.
registry::Registry single_entry(const uea::UeaRegistry& registry, const std::string& kind, const std::string& name) {
  const uea::Translation t = uea::translate(registry, registry.get(kind, name));
  if (!t.entry) throw Error(ErrorCategory::config, fmt::format("UltraEval-Audio {} '{}': {}", kind, name, t.reason));
  registry::Registry single;
  const registry::Kind aeval_kind = *uea::aeval_kind(kind);
  single.add(aeval_kind, *t.entry);
  registry::validate_entry(single, single.get(aeval_kind, name), aeval_kind);
  return single;
}

Json parse_row(const std::string& text) {
  Json row = Json::parse(text, nullptr, false);
  if (row.is_discarded() || !row.is_object())
    throw Error(ErrorCategory::config, "--row must be a JSON object, e.g. '{\"WavPath\": \"a.wav\"}'");
  return row;
}

int prompt_command(const UeaOptions& o) {
  const uea::UeaRegistry registry(uea::uea_root(o.dir));
  const pipeline::Prompt prompt = pipeline::Prompt::load(single_entry(registry, "prompt", o.name), o.name);
  std::printf("%s\n", prompt.render_structure(parse_row(o.row)).dump().c_str());
  return 0;
}

int process_command(const UeaOptions& o) {
  const uea::UeaRegistry registry(uea::uea_root(o.dir));
  const pipeline::PostProcess process = pipeline::load_post_process(single_entry(registry, "process", o.name), o.name);
  const pipeline::Sample sample{"cli", {}, std::nullopt, nlohmann::json::object()};
  const Json out = process.value ? process.value(Json(o.answer), sample) : Json(process.apply(o.answer, sample));
  std::printf("%s\n", out.dump().c_str());
  return 0;
}

int check_command(const UeaOptions& o) {
  const uea::UeaRegistry registry(uea::uea_root(o.dir), registry_paths(o.registry_path));
  const uea::TranslatedRegistry translated = uea::translate_registry(registry);
  const std::string digest = uea::registry_digest(registry.registry_dir());
  Json report = {{"registry", registry.registry_dir().string()},
                 {"digest", digest},
                 {"pinned_commit", digest == uea::kPinnedRegistryDigest ? Json(uea::kPinnedCommit) : Json(nullptr)},
                 {"kinds", Json::object()}};
  for (const char* kind : uea::kKinds) {
    const std::size_t total = registry.entries(kind).size();
    const auto found = translated.unsupported.find(kind);
    Json unsupported = Json::object();
    if (found != translated.unsupported.end())
      for (const auto& [name, reason] : found->second) unsupported[name] = reason;
    report["kinds"][kind] = {{"entries", total}, {"supported", total - unsupported.size()}, {"unsupported", unsupported}};
  }
  if (o.json) {
    std::printf("%s\n", report.dump(2).c_str());
    return 0;
  }
  std::printf("UltraEval-Audio registry %s\n%s\n\n", registry.registry_dir().c_str(),
              digest == uea::kPinnedRegistryDigest
                  ? fmt::format("content of the pinned commit {}", std::string(uea::kPinnedCommit).substr(0, 7)).c_str()
                  : fmt::format("content digest {}: not the pinned commit", digest).c_str());
  std::printf("%-10s %8s %10s %12s\n", "kind", "entries", "supported", "unsupported");
  for (const auto& [kind, k] : report["kinds"].items())
    std::printf("%-10s %8zu %10zu %12zu\n", kind.c_str(), k["entries"].get<std::size_t>(),
                k["supported"].get<std::size_t>(), k["unsupported"].size());
  for (const auto& [kind, k] : report["kinds"].items())
    for (const auto& [name, reason] : k["unsupported"].items())
      std::printf("%s %s: %s\n", kind.c_str(), name.c_str(), reason.get<std::string>().c_str());
  return 0;
}

// main.py: the eval task is --task, else the dataset's default_task; every option given
// replaces that part of it (uea/uea_task.hpp).
int run_command(const UeaOptions& o, const GlobalOptions& global) {
  pipeline::RunOptions options;
  options.output_root = o.output;
  options.jobs = o.workers;
  options.use_cache = !o.no_cache;
  options.log = o.quiet ? nullptr : stderr;
  options.command_line = global.argv;
  std::unique_ptr<InterruptHint> hint;
  announce_run_folder(options, hint, o.quiet);
  if (!o.resume.empty()) return report_result(pipeline::resume_run(o.resume, options), o.max_fail_rate);
  if (o.dataset.empty() || o.model.empty())
    throw CLI::ValidationError("uea run needs --dataset and --model, as UltraEval-Audio's main.py does");

  pipeline::Invocation inv;
  inv.registry = registry_folders(global);
  inv.uea = std::filesystem::absolute(uea::uea_root(o.dir));
  inv.uea_registry_paths = registry_paths(o.registry_path);
  registry::Registry registry = pipeline::load_registry(inv);
  pipeline::TaskOverrides overrides;
  overrides.model = o.model;
  if (!o.prompt.empty()) overrides.prompt = o.prompt;
  if (!o.post_process.empty()) overrides.post_process = o.post_process;
  if (!o.evaluator.empty()) overrides.evaluators = std::vector<std::string>{o.evaluator};
  if (!o.agg.empty()) overrides.aggregators = std::vector<std::string>{o.agg};
  uea::BoundTask bound =
      uea::bind_task(registry, inv.uea, o.dataset, o.task, overrides, o.dataset_ref_col, inv.uea_registry_paths);
  inv.task = std::move(bound.spec);
  inv.sets = std::move(bound.sets);
  inv.sets.insert(inv.sets.end(), o.sets.begin(), o.sets.end());
  for (const auto& assignment : inv.sets) registry::apply_assignment(registry, assignment);
  inv.limit = o.limit;
  if (!o.quiet) {
    const std::string own = bound.replaced_prompt.empty()
                                ? ""
                                : fmt::format(" (the model's publisher's, in place of UEA's {0}: --prompt {0} sends UEA's)",
                                              bound.replaced_prompt);
    std::fprintf(stderr, "aeval: UltraEval-Audio task %s: model %s on dataset %s, prompt %s%s\n", inv.task.name.c_str(),
                 inv.task.model.c_str(), inv.task.dataset.c_str(), inv.task.prompt.c_str(), own.c_str());
    if (const auto differences = pipeline::differences_from_uea(registry, inv.task); !differences.empty())
      std::fprintf(stderr, "aeval: differs from UltraEval-Audio's own run: %s\n",
                   fmt::format("{}", fmt::join(differences, "; ")).c_str());
  }
  const pipeline::RunResult result = pipeline::run_task(registry, inv, options);
  if (!o.save.empty()) {
    const auto log = uea::write_uea_results(o.save, inv.task.model, inv.task.dataset, inv.task.prompt, registry, result);
    if (!o.quiet) std::fprintf(stderr, "aeval: UltraEval-Audio's result files: %s and its -overall.json\n", log.c_str());
  }
  return report_result(result, o.max_fail_rate);
}

}  // namespace

Action add_uea_command(CLI::App& app, GlobalOptions& global) {
  auto o = std::make_shared<UeaOptions>();
  CLI::App* uea = app.add_subcommand("uea", "UltraEval-Audio's own registry, read as it is");
  uea->require_subcommand(1);
  uea->footer(
      "aeval reads UltraEval-Audio's registry (dataset, prompt, eval_task, evaluator, process, agg, model)\n"
      "unchanged: the pinned commit 9b69da6, downloaded once (`aeval fetch uea`), or a checkout given with\n"
      "--uea-dir or $AEVAL_UEA_DIR. Each UEA class maps to an aeval class taking UEA's arguments; one aeval\n"
      "does not have is reported as unsupported, never replaced.\n"
      "Examples:\n"
      "  aeval uea check\n"
      "  aeval uea run --dataset catdog --model my-endpoint --limit 20\n"
      "  aeval uea prompt asr --row '{\"WavPath\": \"a.wav\"}'\n"
      "  aeval uea process first_option --answer 'The answer is (B).'");
  add_dir_option(uea, *o);

  CLI::App* prompt = uea->add_subcommand("prompt", "What UEA's Prompt.load(**row) returns for a prompt entry, as JSON");
  prompt->add_option("name", o->name, "The prompt entry")->required();
  prompt->add_option("--row", o->row, "The row, a JSON object (missing variables are errors, as with StrictUndefined)")
      ->capture_default_str();
  add_dir_option(prompt, *o);

  CLI::App* process = uea->add_subcommand("process", "What a UEA process entry returns for an answer, as JSON");
  process->add_option("name", o->name, "The process entry")->required();
  process->add_option("--answer", o->answer, "The model's answer")->required();
  add_dir_option(process, *o);

  CLI::App* run = uea->add_subcommand("run", "Run an UltraEval-Audio benchmark as UEA's main.py defines it");
  run->footer(
      "The eval task is --task, else the dataset's default_task; --prompt, --evaluator, --agg and --post_process\n"
      "replace its parts, as in UltraEval-Audio. --model names any model aeval runs (`aeval list models`): UEA's own\n"
      "model entries are local Python models aeval does not load. The run folder, response cache and --resume are\n"
      "aeval's. Example:\n"
      "  aeval uea run --dataset catdog --model my-endpoint --limit 20");
  run->add_option("--dataset", o->dataset, "A UEA dataset entry")->required();
  run->add_option("--model", o->model, "The model (an aeval model entry)")->required();
  run->add_option("--task", o->task, "A UEA eval_task entry (default: the dataset's default_task)");
  run->add_option("--dataset_ref_col", o->dataset_ref_col, "The column holding the reference instead of ref_col");
  run->add_option("--registry_path", o->registry_path,
                  "Further UltraEval-Audio registry folders, separated by spaces, as main.py takes them (a name "
                  "defined twice is UEA's duplicate-entry error)");
  run->add_option("--prompt", o->prompt, "A UEA prompt entry instead of the task's");
  run->add_option("--evaluator", o->evaluator, "A UEA evaluator entry instead of the task's");
  run->add_option("--agg", o->agg, "A UEA agg entry instead of the task's");
  run->add_option("--post_process", o->post_process, "UEA process entries instead of the task's, in order");
  run->add_option("--set", o->sets,
                  "NAME.ARG=VALUE: replace one argument of an entry as aeval reads it (repeatable), e.g. "
                  "chatbot_eval.as_uea_calls=true");
  run->add_option("--limit", o->limit, "At most this many samples (0: all)")->check(kSampleCount);
  run->add_option("--workers", o->workers, "Requests in flight (0: the model's max_concurrency)");
  run->add_option("--output", o->output, "Where run folders go")->capture_default_str();
  run->add_option("--save", o->save,
                  "Also write UltraEval-Audio's own result files, as main.py's --save does: NAME.jsonl (a path ending "
                  "in .jsonl, else res/MODEL/DATASET/NAME.jsonl) and NAME-overall.json");
  run->add_option("--resume", o->resume, "Continue this run folder where it stopped");
  run->add_option("--max-fail-rate", o->max_fail_rate, "Exit 3 when more than this share of samples failed")
      ->capture_default_str();
  run->add_flag("--no-cache", o->no_cache, "Neither read nor write the response cache");
  run->add_flag("--quiet", o->quiet, "No progress on stderr");
  add_dir_option(run, *o);
  // --resume takes everything from the run's store; --dataset and --model are then not asked for.
  run->get_option("--dataset")->required(false);
  run->get_option("--model")->required(false);

  CLI::App* check = uea->add_subcommand("check", "Load every entry and report, per kind, what aeval supports");
  check->add_flag("--json", o->json, "The report as JSON");
  check->add_option("--registry_path", o->registry_path, "Further UltraEval-Audio registry folders, separated by spaces");
  add_dir_option(check, *o);

  return [=, &global]() {
    if (run->parsed()) return run_command(*o, global);
    if (prompt->parsed()) return prompt_command(*o);
    if (process->parsed()) return process_command(*o);
    return check_command(*o);
  };
}

}  // namespace aeval::cli
