#include <fmt/format.h>

#include <cstdio>
#include <optional>

#include "aeval/error.hpp"
#include "aeval/text/spelling_table.hpp"
#include "cli/commands.hpp"
#include "datasets/dataset.hpp"
#include "models/dnsmos_models.hpp"
#include "run/invocation.hpp"
#include "prompts/prompt.hpp"
#include "tasks/task.hpp"
#include "registry/registry.hpp"
#include "uea/uea_catalog_task.hpp"
#include "uea/uea_location.hpp"
#include "util/download.hpp"

namespace aeval::cli {

Action add_fetch_command(CLI::App& app, GlobalOptions& global) {
  auto what = std::make_shared<std::string>();
  auto names = std::make_shared<std::vector<std::string>>();
  auto all = std::make_shared<bool>(false);
  auto url = std::make_shared<std::string>(text::kWhisperSpellingUrl);
  CLI::App* fetch = app.add_subcommand("fetch", "Download data aeval does not ship into its cache");
  fetch->footer(
      "Every download is verified (SHA-256, size) before it enters the cache, and an interrupted one resumes.\n"
      "  dataset NAME...    the files of these registry datasets, or of the UltraEval-Audio entries catalog\n"
      "                     tasks name (--all: every dataset that downloads, every such task's);\n"
      "                     on a machine without network, copy the cache folder over and set HF_HUB_OFFLINE=1\n"
      "  model dnsmos       DNSMOS's official ONNX files (microsoft/DNS-Challenge, CC-BY-4.0), for the dnsmos\n"
      "                     evaluator and `aeval score dnsmos`\n"
      "  whisper-spelling   whisper's British->American spelling table, used by whisper-english\n"
      "  prompt NAME...     the files of prompts their publishers' code defines (caption-judge: AudioCapBench's\n"
      "                     metrics.py at its release's commit)\n"
      "  uea                UltraEval-Audio's registry at the pinned commit 9b69da6 ($AEVAL_UEA_URL: a mirror),\n"
      "                     checked by content, for `aeval uea`\n"
      "Examples:\n"
      "  aeval fetch dataset my-hub-dataset\n"
      "  aeval fetch model dnsmos\n"
      "  HF_TOKEN=hf_... aeval fetch dataset --all");
  fetch->add_option("what", *what, "What to fetch")
      ->required()
      ->check(one_of({"dataset", "prompt", "model", "whisper-spelling", "uea"}));
  fetch->add_option("names", *names, "Dataset names (with `dataset`), prompt names (with `prompt`), or dnsmos (with `model`)");
  fetch->add_flag("--all", *all, "Every registry dataset that downloads (with `dataset`)");
  fetch->add_option("--url", *url, "Download the spelling table from this address instead (a mirror)")
      ->capture_default_str();
  return [=, &global]() {
    if (*what == "whisper-spelling") {
      const auto destination = text::default_spelling_table_path();
      download_verified(*url, destination, text::kWhisperSpellingSha256);
      std::printf("fetched %s\n", destination.string().c_str());
      return 0;
    }
    if (*what == "uea") {
      std::printf("fetched %s\n", uea::fetch_pinned_uea().string().c_str());
      return 0;
    }
    if (*what == "model") {
      if (*names != std::vector<std::string>{"dnsmos"})
        throw Error(ErrorCategory::config, "fetch model: the model aeval fetches is dnsmos (`aeval fetch model dnsmos`)");
      std::printf("fetched %s\n", models::fetch_dnsmos_models().string().c_str());
      return 0;
    }
    pipeline::Invocation inv;
    inv.registry = registry_folders(global);
    const registry::Registry registry = pipeline::load_registry(inv);
    if (*what == "prompt") {
      if (names->empty()) throw Error(ErrorCategory::config, "fetch prompt: name one or more prompts (caption-judge)");
      for (const auto& name : *names) {
        pipeline::Prompt::load(registry, name);  // loading fetches what it reads
        std::printf("%s: cached\n", name.c_str());
      }
      return 0;
    }
    std::vector<std::string> chosen = *names;
    if (*all) {
      for (const auto& name : registry.names(registry::Kind::dataset))
        if (datasets::dataset_downloads(registry, name)) chosen.push_back(name);
      for (const auto& name : registry.names(registry::Kind::task))
        if (uea::defined_on_uea(registry, name)) chosen.push_back(name);
    }
    if (chosen.empty() && !*all)
      throw Error(ErrorCategory::config, "fetch dataset: name one or more datasets (or catalog tasks), or give --all");
    // A catalog task defined on UltraEval-Audio's registry fetches UEA's dataset entry of it; a name
    // aeval lacks may be such an entry itself.
    std::optional<registry::Registry> with_uea;
    for (const auto& name : chosen) {
      const bool uea_task = !registry.contains(registry::Kind::dataset, name) && uea::defined_on_uea(registry, name);
      const bool from_uea = uea_task || !registry.contains(registry::Kind::dataset, name);
      if (from_uea && !with_uea) {
        inv.uea = std::filesystem::absolute(uea::uea_root({}));
        with_uea = pipeline::load_registry(inv);
      }
      const std::string dataset =
          uea_task ? pipeline::TaskClasses::make(registry.get(registry::Kind::task, name), registry::Kind::task).uea_dataset
                   : name;
      // Loading fetches what is missing.
      const datasets::Dataset d = datasets::load_dataset(from_uea ? *with_uea : registry, dataset);
      std::printf("%s: %zu samples cached%s\n", name.c_str(), d.samples.size(),
                  d.audio_dir_missing.empty() ? "" : fmt::format(" (a run needs its audio: {})", d.audio_dir_missing).c_str());
      for (const auto& note : d.notes) std::fprintf(stderr, "note: %s: %s\n", name.c_str(), note.c_str());
    }
    return 0;
  };
}

}  // namespace aeval::cli
