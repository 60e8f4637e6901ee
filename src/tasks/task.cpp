#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "aeval/error.hpp"
#include "registry/args.hpp"
#include "registry/classes.hpp"
#include "tasks/task.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::class_spec;
using registry::Entry;
using registry::is_manifest_path;
using registry::Kind;
using registry::Registry;
using registry::suggestion_suffix;

nlohmann::json TaskSpec::to_json() const {
  return {{"name", name},
          {"dataset", dataset},
          {"prompt", prompt},
          {"model", model},
          {"post_process", post_process},
          {"evaluators", evaluators},
          {"beside_uea", beside_uea},
          {"aggregators", aggregators}};
}

TaskSpec TaskSpec::from_json(const nlohmann::json& j) {
  TaskSpec t;
  t.name = j.at("name");
  t.dataset = j.at("dataset");
  t.prompt = j.value("prompt", "");
  t.model = j.at("model");
  t.post_process = j.value("post_process", std::vector<std::string>{});
  t.evaluators = j.at("evaluators");
  t.beside_uea = j.value("beside_uea", std::vector<std::string>{});
  t.aggregators = j.value("aggregators", std::vector<std::string>{});
  return t;
}

namespace {

// The model entry's own prompt for the task's: by "prompt@language", then by "prompt"; else the task's.
// Keys must name prompt entries, so that a misspelt one is an error rather than never chosen.
std::string model_prompt(const Registry& registry, const Entry& model, const TaskSpec& spec) {
  const YAML::Node prompts = model.args["prompts"];
  if (!prompts) return spec.prompt;
  for (const auto& item : prompts) {
    const std::string key = item.first.as<std::string>();
    if (!registry.contains(Kind::prompt, key.substr(0, key.find('@'))) || !item.second.IsScalar())
      throw Error(ErrorCategory::config,
                  fmt::format("model '{}' ({}): prompts: '{}' must be a prompt entry's name (with @LANGUAGE for one "
                              "language) mapped to another prompt entry's name",
                              model.name, model.where(), key));
  }
  if (spec.prompt.empty()) return spec.prompt;
  for (const std::string& key : {spec.prompt + "@" + spec.language, spec.prompt})
    if (const YAML::Node chosen = prompts[key]) return chosen.as<std::string>();
  return spec.prompt;
}

}  // namespace

TaskSpec resolve_task(const Registry& registry, const std::string& task, const TaskOverrides& overrides) {
  std::string task_name = task;
  if (task_name.empty() && overrides.dataset && !is_manifest_path(*overrides.dataset))
  {
    const Entry& dataset = registry.get(Kind::dataset, *overrides.dataset);
    task_name = Args(dataset, class_spec(dataset, Kind::dataset)).text("default_task");
  }

  TaskSpec spec;
  if (!task_name.empty()) spec = TaskClasses::make(registry.get(Kind::task, task_name), Kind::task);
  spec.dataset = overrides.dataset.value_or(spec.dataset);
  spec.prompt = overrides.prompt.value_or(spec.prompt);
  spec.model = overrides.model.value_or(spec.model);
  spec.post_process = overrides.post_process.value_or(spec.post_process);
  spec.evaluators = overrides.evaluators.value_or(spec.evaluators);
  spec.aggregators = overrides.aggregators.value_or(spec.aggregators);
  if (spec.name.empty()) spec.name = std::filesystem::path(spec.dataset).stem().string();
  if (!overrides.prompt && !spec.model.empty() && registry.contains(Kind::model, spec.model))
    spec.prompt = model_prompt(registry, registry.get(Kind::model, spec.model), spec);

  const auto missing = [&](const char* what, const char* option) {
    throw IncompleteTask(fmt::format("{} has no {}: give {} (or --task; `aeval list tasks`)",
                                     task_name.empty() ? "the command line" : "task '" + task_name + "'", what, option));
  };
  if (spec.dataset.empty()) missing("dataset", "--dataset");
  if (spec.model.empty()) missing("model", "--model NAME (`aeval list models`)");
  if (spec.evaluators.empty()) missing("evaluators", "--evaluator");

  // Command-line names are checked here; registry names were checked on load.
  if (!is_manifest_path(spec.dataset)) registry.get(Kind::dataset, spec.dataset);
  if (!overrides.prompt && !spec.prompt.empty() && !registry.contains(Kind::prompt, spec.prompt))
    throw Error(ErrorCategory::config, fmt::format("model '{}' ({}) names prompt '{}' in its prompts, which no prompt "
                                                   "entry has (`aeval list prompts`)",
                                                   spec.model, registry.get(Kind::model, spec.model).where(), spec.prompt));
  if (!spec.prompt.empty()) registry.get(Kind::prompt, spec.prompt);
  registry.get(Kind::model, spec.model);
  for (const auto& name : spec.post_process) registry.get(Kind::post_process, name);
  for (const auto& name : spec.evaluators) registry.get(Kind::evaluator, name);
  for (const auto& name : spec.aggregators) registry.get(Kind::aggregator, name);
  return spec;
}

std::map<std::string, std::vector<std::string>> task_suites(const Registry& registry) {
  std::map<std::string, std::vector<std::string>> suites;
  for (const auto& name : registry.names(Kind::task)) {
    const Entry& entry = registry.get(Kind::task, name);
    for (const auto& suite : Args(entry, class_spec(entry, Kind::task)).strings("suites")) suites[suite].push_back(name);
  }
  return suites;
}

std::vector<std::string> suite_tasks(const Registry& registry, const std::string& suite) {
  const auto suites = task_suites(registry);
  if (const auto found = suites.find(suite); found != suites.end()) return found->second;
  std::vector<std::string> names;
  for (const auto& [name, tasks] : suites) names.push_back(name);
  throw Error(ErrorCategory::config,
              "no suite named '" + suite + "'" + suggestion_suffix(suite, names) + " (`aeval list suites`)");
}

std::vector<report::SuiteColumn> suite_columns(const Registry& registry, const std::string& suite) {
  std::vector<report::SuiteColumn> columns;
  for (const auto& task : suite_tasks(registry, suite)) {
    const Entry& entry = registry.get(Kind::task, task);
    const std::string shared = Args(entry, class_spec(entry, Kind::task)).text("column");
    const std::string name = shared.empty() ? task : shared;
    const auto found = std::find_if(columns.begin(), columns.end(), [&](const auto& c) { return c.name == name; });
    if (found == columns.end()) columns.push_back({name, {task}});
    else found->tasks.push_back(task);
  }
  return columns;
}

namespace {

// Each number's tolerance is the precision it was printed at, half a unit of its last digit as the entry
// writes it (write 6.00 for a printed 6.00), plus the paper's sampling spread where it gives one (`spread`);
// `tolerance` states one of its own instead.
std::vector<report::PublishedResult> read_published(const Args& args) {
  std::vector<report::PublishedResult> out;
  if (!args.given("published")) return out;
  for (const auto& item : args.node("published")) {
    const auto field = [&](const char* key) {
      if (!item.IsMap() || !item[key] || !item[key].IsScalar())
        args.fail(fmt::format("published: each item is a map with model, metric, value and source (and dataset "
                              "when the task runs on several; spread or tolerance when the paper gives one); "
                              "'{}' is missing",
                              key));
      return item[key].as<std::string>();
    };
    const auto number = [&](const char* key) {
      const std::string text = field(key);
      double v = NAN;
      try {
        if (report::printed_half_unit(text)) v = std::stod(text);
      } catch (const std::exception&) {  // out of range
      }
      if (!std::isfinite(v))
        args.fail(fmt::format("published: {} must be a number as printed (digits, a point, an exponent), not '{}'",
                              key, text));
      return v;
    };
    report::PublishedResult p{field("model"), field("metric"), "", "", number("value"), 0, field("source")};
    if (item["dataset"]) p.dataset = field("dataset");
    if (item["prompt"]) {
      p.prompt = field("prompt");
      const auto variants = args.strings("prompt_variants");
      if (std::find(variants.begin(), variants.end(), p.prompt) == variants.end())
        args.fail(fmt::format("published: prompt '{}' is none of the task's prompt_variants", p.prompt));
    }
    const double spread = item["spread"] ? number("spread") : 0;
    p.tolerance = item["tolerance"] ? number("tolerance") : *report::printed_half_unit(field("value")) + spread;
    if (p.tolerance < 0 || spread < 0) args.fail("published: tolerance and spread must not be negative");
    out.push_back(std::move(p));
  }
  return out;
}

// UltraEval-Audio's EvalTaskCfg(dataset, prompt, model, agg="dump", evaluator="dump",
// post_process=[]): one evaluator and one aggregation, named as UEA names them.
std::optional<YAML::Node> uea_eval_task(const YAML::Node& uea, const std::filesystem::path&) {
  YAML::Node args;
  for (const char* key : {"dataset", "prompt", "model", "post_process"})
    if (uea[key]) args[key] = uea[key];
  args["evaluators"] = std::vector<std::string>{uea["evaluator"] ? uea["evaluator"].Scalar() : "dump"};
  args["aggregators"] = std::vector<std::string>{uea["agg"] ? uea["agg"].Scalar() : "dump"};
  for (const auto& item : uea) {
    const std::string key = item.first.Scalar();
    if (key != "dataset" && key != "prompt" && key != "model" && key != "post_process" && key != "evaluator" && key != "agg")
      throw Error(ErrorCategory::config, "EvalTaskCfg has no argument '" + key + "'");
  }
  return args;
}

const TaskClasses::Registration kTaskClass{
    {Kind::task, "task", "Binds a dataset, prompt, model, post-processing, evaluators and aggregators",
     {arg::reference("dataset", Kind::dataset, "", "a dataset entry or a .jsonl manifest path (none: give --dataset)"),
      arg::reference("prompt", Kind::prompt, "", "how a sample becomes a request (default: the sample's audio alone)"),
      arg::reference("model", Kind::model, "", "(benchmarks of the catalog name none: give --model)"),
      arg::texts("suites", {}, "suites the task belongs to: `aeval run --suite NAME` runs them all"),
      arg::text("column", "",
                "a suite leaderboard column it shares with other tasks (SpeechHSK's six levels as one): their scores "
                "pooled, each weighted by the samples it scored"),
      arg::text("language", "", "what the benchmark's audio is in (en, zh, de, en->zh...), for the catalog's table"),
      arg::references("prompt_variants", Kind::prompt, false,
                      "other wordings of the prompt: `aeval run --prompt-variants` runs each, and the report "
                      "shows the spread"),
      arg::list("published", "published results: [{model, metric, value, source, dataset?, prompt?, spread?, tolerance?}]; "
                             "`aeval report` flags runs further from them than half a unit of the value's last "
                             "printed digit (plus the paper's spread), or the tolerance given", false),
      arg::references("post_process", Kind::post_process, false, "applied in order"),
      arg::references("evaluators", Kind::evaluator, false,
                      "(required unless uea_dataset is given; with it, aeval's evaluators scored beside UEA's, each "
                      "keeping its own corpus value: e.g. utmos and dnsmos of spoken answers)"),
      arg::references("aggregators", Kind::aggregator, false, "(default: corpus values only)"),
      arg::text("uea_dataset", "",
                "an UltraEval-Audio dataset entry: the task runs UEA's definition of it (its dataset, its eval "
                "task's prompt, post-processing, evaluator and aggregation; the model's uea_prompts choose the "
                "prompt), with `aggregators` and `evaluators` added (a summary aggregator lends its bootstrap and "
                "groups to UEA's aggregation); dataset, prompt and post_process are then not given"),
      arg::text("uea_task", "", "with uea_dataset: the UEA eval_task to run (default: the entry's default_task)"),
      arg::text("license", "", "with uea_dataset: the data's licence, as its publisher states it, for the catalog's table"),
      arg::text("homepage", "", "with uea_dataset: where the benchmark's data is described"),
      arg::text("size", "", "with uea_dataset: what a user downloads, as published")},
     {},
     {{"audio_evals.base.EvalTaskCfg", uea_eval_task}}},
    [](const Args& args) {
      TaskSpec spec;
      spec.name = args.entry().name;
      spec.dataset = args.text("dataset");
      spec.prompt = args.text("prompt");
      spec.model = args.text("model");
      spec.post_process = args.strings("post_process");
      spec.evaluators = args.strings("evaluators");
      spec.aggregators = args.strings("aggregators");
      spec.language = args.text("language");
      spec.prompt_variants = args.strings("prompt_variants");
      spec.published = read_published(args);
      spec.uea_dataset = args.text("uea_dataset");
      spec.uea_task = args.text("uea_task");
      if (spec.uea_dataset.empty()) {
        if (!spec.uea_task.empty()) args.fail("uea_task is given without uea_dataset");
        if (spec.evaluators.empty()) args.fail("evaluators: give at least one (or uea_dataset)");
      } else {
        for (const char* part : {"dataset", "prompt", "post_process"})
          if (args.given(part))
            args.fail(fmt::format("{} comes from UltraEval-Audio's definition (uea_dataset); leave it out", part));
        return spec;  // published metrics are checked once UEA's evaluator is bound
      }
      for (const auto& p : spec.published)
        if (std::find(spec.evaluators.begin(), spec.evaluators.end(), p.metric) == spec.evaluators.end())
          args.fail(fmt::format("published: metric '{}' is none of the task's evaluators ({})", p.metric,
                                fmt::join(spec.evaluators, ", ")));
      return spec;
    }};
}  // namespace

}  // namespace aeval::pipeline
