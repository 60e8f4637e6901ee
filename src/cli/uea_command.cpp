// aeval uea: UltraEval-Audio's registry, read as it is (docs/uea.md).
#include <fmt/format.h>

#include <cstdio>
#include <iostream>

#include "aeval/error.hpp"
#include "cli/commands.hpp"
#include "registry/classes.hpp"
#include "uea/uea_entries.hpp"
#include "uea/uea_location.hpp"

namespace aeval::cli {

namespace {

using Json = nlohmann::ordered_json;

struct UeaOptions {
  std::filesystem::path dir;
  std::string name, row = "{}", answer;
  bool json = false;
};

void add_dir_option(CLI::App* command, UeaOptions& options) {
  command->add_option("--uea-dir", options.dir,
                      "An UltraEval-Audio checkout (or its registry/ folder) instead of the pinned commit "
                      "(also $AEVAL_UEA_DIR)");
}

// One UEA entry as an aeval registry of that entry alone, or an error saying why it is unsupported.
pipeline::Registry single_entry(const uea::UeaRegistry& registry, const std::string& kind, const std::string& name) {
  const uea::Translation t = uea::translate(registry, registry.get(kind, name));
  if (!t.entry) throw Error(ErrorCategory::config, fmt::format("UltraEval-Audio {} '{}': {}", kind, name, t.reason));
  pipeline::Registry single;
  const pipeline::Kind aeval_kind = *uea::aeval_kind(kind);
  single.add(aeval_kind, *t.entry);
  pipeline::validate_entry(single, single.get(aeval_kind, name), aeval_kind);
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
  const uea::UeaRegistry registry(uea::uea_root(o.dir));
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

}  // namespace

Action add_uea_command(CLI::App& app, GlobalOptions&) {
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

  CLI::App* check = uea->add_subcommand("check", "Load every entry and report, per kind, what aeval supports");
  check->add_flag("--json", o->json, "The report as JSON");
  add_dir_option(check, *o);

  return [=]() {
    if (prompt->parsed()) return prompt_command(*o);
    if (process->parsed()) return process_command(*o);
    return check_command(*o);
  };
}

}  // namespace aeval::cli
