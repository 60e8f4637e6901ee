#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "aeval/error.hpp"
#include "datasets/dataset_cache.hpp"
#include "registry/args.hpp"
#include "registry/classes.hpp"
#include "tasks/task.hpp"
#include "uea/uea_task_metrics.hpp"
#include "uea/uea_differences.hpp"
#include "registry/registry.hpp"
#include "cli/commands.hpp"
#include "util/download.hpp"

namespace aeval::cli {

namespace {

// The kinds of entries, suites (the groups tasks name) and the benchmark catalog.
std::vector<std::string> listable() {
  std::vector<std::string> out;
  for (auto k : registry::kAllKinds) out.push_back(registry::folder_name(k));
  out.push_back("suites");
  out.push_back("benchmarks");
  return out;
}

void print_class(const registry::ClassSpec& spec) {
  std::printf("class %s (%s): %s\n", spec.id.c_str(), registry::kind_name(spec.kind), spec.summary.c_str());
  for (const auto& a : spec.args) {
    std::string meta = registry::type_name(a.type);
    if (a.required) meta += ", required";
    if (const std::string shown = a.shown_default(); !shown.empty()) meta += ", default " + shown;
    if (!a.choices.empty()) meta += fmt::format(", one of {}", fmt::join(a.choices, ", "));
    if (const std::string range = a.range_text(); !range.empty()) meta += ", " + range;
    if (a.refers_to) meta += fmt::format(", {} entries", registry::kind_name(*a.refers_to));
    std::printf("  %-18s %s%s%s\n", a.name.c_str(), meta.c_str(), a.help.empty() ? "" : "\n                     ",
                a.help.c_str());
  }
}

// Datasets with what a user needs before a run: where from, under which
// licence, how large, and whether it is already here.
void print_datasets(const registry::Registry& registry) {
  std::printf("%-28s %-16s %-13s %-10s %-14s %s\n", "dataset", "class", "cached", "on disk", "license", "source");
  for (const auto& name : registry.names(registry::Kind::dataset)) {
    const auto& e = registry.get(registry::Kind::dataset, name);
    const auto state = datasets::dataset_cache_state(registry, name);
    const auto text_arg = [&](const char* key) { return e.args[key] ? e.args[key].as<std::string>() : std::string(); };
    const std::string license = text_arg("license"), size = text_arg("size");
    std::printf("%-28s %-16s %-13s %-10s %-14s %s%s\n", name.c_str(), e.class_id.c_str(), state.state.c_str(),
                state.bytes ? human_bytes(double(state.bytes)).c_str() : "-", license.empty() ? "-" : license.c_str(),
                state.source.c_str(), size.empty() ? "" : fmt::format(" ({})", size).c_str());
  }
}

// A model told apart from the other entries of its class (the class's summary is the same for all): the endpoint's
// model at its base_url, the command it runs, else the arguments written as single values; the summary when it
// has none.
std::string model_description(const registry::Entry& e, const registry::ClassSpec& spec) {
  const YAML::Node& args = e.args;
  if (args["model"] && args["model"].IsScalar() && args["base_url"]) {
    const YAML::Node url = args["base_url"];
    std::string at = url.IsSequence() ? (url.size() ? url[0].Scalar() : "") : url.Scalar();
    if (url.IsSequence() && url.size() > 1) at += fmt::format(" (and {} more)", url.size() - 1);
    return args["model"].Scalar() + " at " + at;
  }
  std::vector<std::string> said;
  if (args["command"] && args["command"].IsSequence()) {
    for (const auto& part : args["command"]) said.push_back(part.Scalar());
    return "runs " + fmt::format("{}", fmt::join(said, " "));
  }
  if (args.IsMap())
    for (const auto& arg : args)
      if (arg.second.IsScalar()) said.push_back(arg.first.Scalar() + " " + arg.second.Scalar());
  return said.empty() ? spec.summary : fmt::format("{}", fmt::join(said, ", "));
}

// What an entry is, in a line: a task by what it binds, any other entry by its
// own `description` argument, else a model by what tells it apart, anything else by its class's summary.
std::string entry_description(const registry::Entry& e, registry::Kind kind) {
  const auto& spec = registry::class_spec(e, kind);
  if (kind == registry::Kind::task) {
    const registry::Args args(e, spec);
    std::string out = args.text("dataset").empty() ? "" : "dataset " + args.text("dataset");
    if (!args.text("uea_dataset").empty()) out = "UltraEval-Audio's " + args.text("uea_dataset");
    if (!args.text("model").empty()) out += ", model " + args.text("model");
    if (const auto evaluators = args.strings("evaluators"); !evaluators.empty())
      out += fmt::format(", {}", fmt::join(evaluators, ", "));
    return out;
  }
  if (const auto own = e.args["description"]; own && own.IsScalar()) return own.as<std::string>();
  if (kind == registry::Kind::model) return model_description(e, spec);
  return spec.summary;
}

// How a catalog task stands to UltraEval-Audio: "exactly", the differences its classes declare, or that it is
// aeval's own.
std::string uea_fidelity(const pipeline::UeaDifferences& differences, const std::string& name) {
  if (!differences.defined_on_uea(name)) return "aeval's own task";
  const auto reasons = differences(name);
  return reasons.empty() ? "exactly" : fmt::format("differs: {}", fmt::join(reasons, "; "));
}

// What a task reports: for one defined on UltraEval-Audio's registry, what UEA's eval task computes as aeval binds it
// (the eval task's name when UEA's registry cannot be had) and then aeval's evaluators scored beside it; for any
// other task, its evaluators.
std::string task_metrics(const pipeline::UeaDifferences& differences, const registry::Entry& task) {
  const registry::Args args(task, registry::class_spec(task, registry::Kind::task));
  std::vector<std::string> metrics;
  if (const auto bound = differences.bound(task.name))
    metrics = pipeline::uea_task_metrics(bound->registry, bound->spec);
  else if (differences.defined_on_uea(task.name))
    metrics.push_back("UltraEval-Audio's " +
                      (args.text("uea_task").empty() ? "default task" : "`" + args.text("uea_task") + "`"));
  for (const auto& evaluator : args.strings("evaluators")) metrics.push_back(evaluator);
  return fmt::format("{}", fmt::join(metrics, ", "));
}

// The catalog (every task that belongs to a suite) as a Markdown table: docs/benchmarks.md
// holds this output, and a test keeps it so.
void print_benchmarks(const registry::Registry& registry) {
  std::set<std::string> catalog;
  for (const auto& [suite, tasks] : pipeline::task_suites(registry)) catalog.insert(tasks.begin(), tasks.end());
  const pipeline::UeaDifferences differences(registry);
  std::printf("| task | suites | language | metrics | as UltraEval-Audio | source | licence | size |\n"
              "|---|---|---|---|---|---|---|---|\n");
  for (const auto& name : catalog) {
    const auto& task = registry.get(registry::Kind::task, name);
    const registry::Args args(task, registry::class_spec(task, registry::Kind::task));
    const std::string dataset = args.text("dataset");
    std::string source, license = args.text("license"), size = args.text("size");
    if (const std::string uea = args.text("uea_dataset"); !uea.empty()) {
      source = "UltraEval-Audio `" + uea + "`";  // defined on UltraEval-Audio's registry
    } else if (registry.contains(registry::Kind::dataset, dataset)) {
      const auto& d = registry.get(registry::Kind::dataset, dataset);
      const registry::Args dargs(d, registry::class_spec(d, registry::Kind::dataset));
      source = datasets::dataset_cache_state(registry, dataset).source;
      license = dargs.text("license");
      size = dargs.text("size");
    }
    std::printf("| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", name.c_str(),
                fmt::format("{}", fmt::join(args.strings("suites"), ", ")).c_str(), args.text("language").c_str(),
                task_metrics(differences, task).c_str(), uea_fidelity(differences, name).c_str(), source.c_str(),
                license.c_str(), size.c_str());
  }
}

}  // namespace

Action add_list_command(CLI::App& app, GlobalOptions& global) {
  auto kind = std::make_shared<std::string>();
  CLI::App* list = app.add_subcommand("list", "List registry entries: tasks, datasets, prompts, models, ...");
  list->add_option("kind", *kind, "Only this kind, or suites")->check(one_of(listable()));
  list->footer(
      "Each entry is listed with its class and what it is; `aeval describe NAME` shows its file and arguments.\n"
      "`aeval list datasets` also shows each dataset's cache state, size on disk, licence and source\n"
      "(a Hub split, a URL, a local path); it never uses the network. `aeval list suites` shows\n"
      "the groups of tasks `aeval run --suite NAME` runs; `aeval list benchmarks` the catalog as the\n"
      "Markdown table of docs/benchmarks.md.");
  return [kind, &global]() {
    const registry::Registry registry(registry_folders(global));
    if (*kind == "datasets") {
      print_datasets(registry);
      return 0;
    }
    if (*kind == "benchmarks") {
      print_benchmarks(registry);
      return 0;
    }
    if (*kind == "suites") {
      for (const auto& [suite, tasks] : pipeline::task_suites(registry))
        std::printf("%-16s %zu tasks: %s\n", suite.c_str(), tasks.size(), fmt::format("{}", fmt::join(tasks, ", ")).c_str());
      return 0;
    }
    for (auto k : registry::kAllKinds) {
      if (!kind->empty() && *kind != registry::folder_name(k)) continue;
      std::printf("%s:\n", registry::folder_name(k));
      int width = 28;  // the longest name of the kind, so that the columns stay aligned
      for (const auto& name : registry.names(k)) width = std::max(width, int(name.size()));
      for (const auto& name : registry.names(k)) {
        const auto& e = registry.get(k, name);
        std::string description = entry_description(e, k);
        if (description.size() > 100) {  // cut at a character's first byte
          std::size_t cut = 97;
          while (cut > 0 && (static_cast<unsigned char>(description[cut]) & 0xC0) == 0x80) --cut;
          description = description.substr(0, cut) + "...";
        }
        std::printf("  %-*s %-18s %s\n", width, name.c_str(), e.class_id.c_str(), description.c_str());
      }
    }
    if (kind->empty())
      std::printf("\n`aeval describe NAME` shows an entry, its file and line, and every argument of its class.\n");
    return 0;
  };
}

namespace {

// The models a task's evaluators ask (judges, ASR for generated speech, ...), which the user must be able to
// reach besides --model: where each one points, and how to point it elsewhere.
void print_models_called(const registry::Registry& registry, const registry::Entry& task) {
  const registry::Args args(task, registry::class_spec(task, registry::Kind::task));
  bool first = true;
  for (const auto& evaluator_name : args.strings("evaluators")) {
    const auto& evaluator = registry.get(registry::Kind::evaluator, evaluator_name);
    const auto& spec = registry::class_spec(evaluator, registry::Kind::evaluator);
    const registry::Args evaluator_args(evaluator, spec);
    for (const auto& arg : spec.args) {
      if (arg.type != registry::ArgType::reference || arg.refers_to != registry::Kind::model) continue;
      const std::string model_name = evaluator_args.text(arg.name);
      if (model_name.empty() || !registry.contains(registry::Kind::model, model_name)) continue;
      const auto& model = registry.get(registry::Kind::model, model_name);
      if (first) std::printf("models its evaluators call, besides --model:\n"), first = false;
      std::string where = "class " + model.class_id;
      if (const auto url = model.args["base_url"]) {
        where += " at " + (url.IsSequence() ? url[0].as<std::string>() : url.as<std::string>());
        if (const auto key = model.args["api_key_env"]) where += ", key from $" + key.as<std::string>();
        where += "; elsewhere: --set " + model_name + ".base_url=URL";
      } else if (const auto command = model.args["command"]; command && command.IsSequence()) {
        where += ", runs";
        for (const auto& part : command) where += " " + part.as<std::string>();
        if (model.args["requirements"])
          where += " in an environment of its own (built on first use; weights downloaded on first use)";
      }
      std::printf("  %s (evaluator %s, %s): %s\n", model_name.c_str(), evaluator_name.c_str(), arg.name.c_str(),
                  where.c_str());
    }
  }
}

}  // namespace

Action add_describe_command(CLI::App& app, GlobalOptions& global) {
  auto name = std::make_shared<std::string>();
  CLI::App* describe = app.add_subcommand("describe", "Show a registry entry, its class and the arguments it takes");
  describe->footer(
      "NAME is an entry (`aeval list`) or a class id; for an entry, its file, its arguments as\n"
      "written, and every argument its class accepts.\n\n"
      "Examples:\n  aeval describe asr-quickstart\n  aeval describe choice");
  describe->add_option("name", *name, "Entry or class")->required();
  return [name, &global]() {
    const registry::Registry registry(registry_folders(global));
    bool found = false;
    for (auto k : registry::kAllKinds) {
      if (!registry.contains(k, *name)) continue;
      const auto& e = registry.get(k, *name);
      std::printf("%s '%s' (%s)\n", registry::kind_name(k), name->c_str(), e.where().c_str());
      std::printf("  args as written: %s\n", registry::yaml_to_json(e.args).dump().c_str());
      print_class(registry::class_spec(e, k));
      if (k == registry::Kind::task) {
        print_models_called(registry, e);
        const pipeline::UeaDifferences differences(registry);
        std::printf("  metrics: %s\n", task_metrics(differences, e).c_str());
        if (differences.defined_on_uea(*name))
          std::printf("  as UltraEval-Audio: %s\n", uea_fidelity(differences, *name).c_str());
      }
      found = true;
    }
    for (const auto* spec : registry::class_catalog())
      if (spec->id == *name) print_class(*spec), found = true;
    if (!found) {
      std::vector<std::string> all;
      for (auto k : registry::kAllKinds)
        for (const auto& n : registry.names(k)) all.push_back(n);
      for (const auto* spec : registry::class_catalog()) all.push_back(spec->id);
      throw Error(ErrorCategory::config,
                  "no entry or class named '" + *name + "'" + registry::suggestion_suffix(*name, all));
    }
    return 0;
  };
}

}  // namespace aeval::cli
