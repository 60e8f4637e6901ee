#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "aeval/error.hpp"
#include "cli/commands.hpp"
#include "datasets/dataset_cache.hpp"
#include "response_cache/response_cache.hpp"
#include "registry/registry.hpp"
#include "util/download.hpp"
#include "util/sha256.hpp"

namespace aeval::cli {

namespace {

using datasets::CacheItem;

void print_items(const std::vector<CacheItem>& items) {
  std::uint64_t total = 0;
  for (const auto& item : items) {
    std::string readers;
    for (const auto& r : item.used_by) readers += (readers.empty() ? "" : ", ") + r;
    std::printf("%10s  %s%s\n", human_bytes(double(item.bytes)).c_str(), item.what.c_str(),
                !readers.empty() ? fmt::format(": read by {}", readers).c_str()
                : item.prunable  ? ": read by no registry dataset (aeval cache prune)"
                                 : "");
    total += item.bytes;
  }
  std::printf("%10s  in all, under %s\n", human_bytes(double(total)).c_str(), cache_dir().string().c_str());
}

void remove(const std::vector<CacheItem>& items, bool dry_run) {
  for (const auto& item : items)
    std::printf("%s %10s  %s\n", dry_run ? "would remove" : "removing", human_bytes(double(item.bytes)).c_str(),
                item.what.c_str());
  const std::uint64_t freed = dry_run ? 0 : datasets::remove_cache_items(items);
  if (!dry_run) std::printf("freed %s\n", human_bytes(double(freed)).c_str());
}

}  // namespace

Action add_cache_command(CLI::App& app, GlobalOptions& global) {
  auto action = std::make_shared<std::string>("show");
  auto names = std::make_shared<std::vector<std::string>>();
  auto dry_run = std::make_shared<bool>(false);
  CLI::App* cache = app.add_subcommand("cache", "Show what aeval's cache holds, and free space");
  cache->footer(
      "  show (default)   every item, its size, and the registry datasets that read it\n"
      "  prune            remove dataset files that no registry dataset reads any more: Hub\n"
      "                   snapshots of older revisions, files of deleted entries, their unfinished downloads\n"
      "  remove NAME...   remove what only these datasets read (fetched again when next used)\n"
      "  import FILE...   add the responses of other response caches (the shards' of a Slurm job\n"
      "                   array, which each write their own) to this one\n"
      "The response cache, Python environments and tables are shown, never removed here.\n"
      "The cache folder is $XDG_CACHE_HOME/aeval (default ~/.cache/aeval); --registry folders count as readers.\n"
      "Examples:\n  aeval cache\n  aeval cache prune --dry-run\n  aeval cache remove librispeech-test-clean\n"
      "  aeval cache import results/T/M/20261125T101500Z-slurm/caches/*.sqlite");
  cache->add_option("action", *action, "show, prune, remove or import")
      ->check(one_of({"show", "prune", "remove", "import"}));
  cache->add_option("names", *names, "Datasets (with remove), response cache files (with import)");
  cache->add_flag("--dry-run", *dry_run, "Say what would be removed, remove nothing");
  return [=, &global]() {
    if (*action == "import") {
      if (names->empty()) throw Error(ErrorCategory::config, "cache import: name one or more response cache files");
      pipeline::ResponseCache cache(pipeline::ResponseCache::default_file());
      for (const auto& file : *names)
        std::printf("%s: %zu responses added\n", file.c_str(), cache.import(file));
      return 0;
    }
    const registry::Registry registry(registry_folders(global));
    const auto items = datasets::survey_cache(registry);
    if (*action != "remove" && !names->empty())
      throw Error(ErrorCategory::config, "cache " + *action + " takes no dataset names (did you mean `cache remove`?)");
    if (*action == "show") {
      print_items(items);
      return 0;
    }
    std::vector<CacheItem> chosen;
    if (*action == "prune") {
      std::copy_if(items.begin(), items.end(), std::back_inserter(chosen), [](const auto& i) { return i.prunable; });
    } else {
      if (names->empty()) throw Error(ErrorCategory::config, "cache remove: name one or more datasets");
      for (const auto& name : *names) registry.get(registry::Kind::dataset, name);  // unknown names: did-you-mean
      const auto named = [&](const std::string& n) { return std::count(names->begin(), names->end(), n) > 0; };
      for (const auto& item : items) {
        if (item.used_by.empty() || std::none_of(item.used_by.begin(), item.used_by.end(), named)) continue;
        if (std::all_of(item.used_by.begin(), item.used_by.end(), named))
          chosen.push_back(item);
        else
          std::printf("keeping %s: other datasets read it too\n", item.what.c_str());
      }
    }
    if (chosen.empty()) std::printf("nothing to remove\n");
    else remove(chosen, *dry_run);
    return 0;
  };
}

}  // namespace aeval::cli
