#include "datasets/dataset_cache.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "datasets/dataset.hpp"
#include "datasets/dataset_source.hpp"
#include "datasets/hub_split.hpp"
#include "registry/args.hpp"
#include "util/sha256.hpp"

namespace aeval::datasets {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPartial = ".partial";

std::uint64_t bytes_of(const fs::path& path) {
  std::error_code error;
  if (fs::is_regular_file(path, error)) return fs::file_size(path, error);
  std::uint64_t total = 0;
  if (fs::is_directory(path, error))
    for (auto it = fs::recursive_directory_iterator(path, error); !error && it != fs::recursive_directory_iterator();
         it.increment(error))
      if (it->is_regular_file(error)) total += it->file_size(error);
  return total;
}

registry::Args args_of(const registry::Registry& registry, const std::string& name) {
  const auto& entry = registry.get(registry::Kind::dataset, name);
  return registry::Args(entry, registry::class_spec(entry, registry::Kind::dataset));
}

// The first path-valued argument that is set: `path`, or the class's own (the Asterisk prompts' folder).
std::optional<fs::path> local_source(const registry::Args& args) {
  for (const auto& spec : registry::class_spec(args.entry(), registry::Kind::dataset).args)
    if (spec.type == registry::ArgType::path && !args.path(spec.name).empty()) return args.path(spec.name).lexically_normal();
  return std::nullopt;
}

// The files in the cache that each registry dataset reads.
std::map<fs::path, std::set<std::string>> readers_of_cached_files(const registry::Registry& registry) {
  std::map<fs::path, std::set<std::string>> readers;
  for (const auto& name : registry.names(registry::Kind::dataset)) {
    for (const auto& request : hub_splits_read(args_of(registry, name))) {
      const auto cached = cached_hub_split(request);
      if (!cached) continue;
      readers[cached->file_list].insert(name);
      if (!cached->audio_list.empty()) readers[cached->audio_list].insert(name);
      for (const auto& [file, size] : cached->files) readers[file].insert(name);
    }
  }
  return readers;
}

void survey_hub(const registry::Registry& registry, std::vector<CacheItem>& items) {
  const auto readers = readers_of_cached_files(registry);
  std::set<std::string> used_repos;
  for (const auto& name : registry.names(registry::Kind::dataset)) {
    for (const auto& request : hub_splits_read(args_of(registry, name)))
      used_repos.insert(hub_cache_dir(request.repo).filename().string());
  }
  std::error_code error;
  for (const auto& repo : fs::directory_iterator(dataset_cache_dir() / "hub", error)) {
    const std::string folder = repo.path().filename().string();
    std::string repo_name = folder;
    if (const auto at = repo_name.find("--"); at != std::string::npos) repo_name.replace(at, 2, "/");
    // One item per snapshot and set of readers: what an entry reads is kept, the rest can go.
    std::map<std::pair<std::string, std::set<std::string>>, CacheItem> groups;
    for (const auto& snapshot : fs::directory_iterator(repo.path() / "snapshots", error)) {
      const std::string commit = snapshot.path().filename().string();
      for (auto it = fs::recursive_directory_iterator(snapshot.path(), error); !error && it != fs::recursive_directory_iterator();
           it.increment(error)) {
        if (!it->is_regular_file(error)) continue;
        fs::path file = it->path();
        const bool partial = file.extension() == kPartial;
        const auto found = readers.find(partial ? fs::path(file).replace_extension() : file);
        const std::set<std::string> by = found == readers.end() ? std::set<std::string>{} : found->second;
        CacheItem& item = groups[{commit, by}];
        item.what = fmt::format("hub {}@{}", repo_name, commit.substr(0, 12));
        item.paths.push_back(file);
        item.bytes += it->file_size(error);
        item.used_by.assign(by.begin(), by.end());
        item.prunable = by.empty();
      }
    }
    for (auto& [key, item] : groups) items.push_back(std::move(item));
    if (!used_repos.count(folder)) {
      // Nothing reads this repository any more: its refs go with its files.
      CacheItem refs{fmt::format("hub {} (revisions resolved)", repo_name), {repo.path() / "refs"}, 0, {}, true};
      refs.bytes = bytes_of(refs.paths.front());
      if (fs::exists(refs.paths.front())) items.push_back(std::move(refs));
    }
  }
}

}  // namespace

DatasetCacheState dataset_cache_state(const registry::Registry& registry, const std::string& name) {
  const auto args = args_of(registry, name);
  DatasetCacheState s;
  if (const auto requests = hub_splits_read(args); !requests.empty()) {
    std::size_t present = 0, wanted = 0;
    for (const auto& request : requests) {
      s.source += fmt::format("{}hub {} {}/{}@{}", s.source.empty() ? "" : ", ", request.repo, request.config,
                              request.split, request.revision);
      const auto cached = cached_hub_split(request);
      wanted += cached ? cached->files.size() : 1;  // a split never listed: one file short at least
      if (cached)
        for (const auto& [file, size] : cached->files) {
          std::error_code error;
          const auto on_disk = fs::file_size(file, error);
          if (error || (size && on_disk != size)) continue;
          ++present;
          s.bytes += on_disk;
        }
    }
    s.state = present == 0 ? "not cached" : present == wanted ? "cached" : "partly cached";
    return s;
  }
  if (const auto& spec = registry::class_spec(args.entry(), registry::Kind::dataset);
      std::any_of(spec.args.begin(), spec.args.end(), [](const auto& a) { return a.name == "url"; }) &&
      !args.text("url").empty()) {
    s.source = args.text("url");
    const auto file = downloaded_file(name, s.source, args.text("sha256"));
    s.state = fs::is_regular_file(file) ? "cached" : fs::exists(fs::path(file.string() + kPartial)) ? "partly cached"
                                                                                                      : "not cached";
    s.bytes = bytes_of(source_cache_dir(name));
    return s;
  }
  const auto local = local_source(args);
  s.source = local ? local->string() : "";
  s.state = local && fs::exists(*local) ? "local" : "missing";
  if (local) s.bytes = bytes_of(*local);
  return s;
}

std::vector<CacheItem> survey_cache(const registry::Registry& registry) {
  std::vector<CacheItem> items;
  survey_hub(registry, items);
  std::error_code error;
  for (const auto& folder : fs::directory_iterator(dataset_cache_dir(), error)) {
    const std::string name = folder.path().filename().string();
    if (name == "hub" || !folder.is_directory(error)) continue;
    // A dataset's files, or a prompt's (one its publishers' code defines, fetched from their release).
    const bool prompt = !registry.contains(registry::Kind::dataset, name) && registry.contains(registry::Kind::prompt, name);
    const bool known = prompt || registry.contains(registry::Kind::dataset, name);
    items.push_back({fmt::format("files of {} {}{}", prompt ? "prompt" : "dataset", name, known ? "" : " (no registry entry)"),
                     {folder.path()}, bytes_of(folder.path()),
                     known ? std::vector<std::string>{name} : std::vector<std::string>{}, !known});
  }
  const auto by_size = [](const CacheItem& a, const CacheItem& b) { return a.bytes > b.bytes; };
  std::stable_sort(items.begin(), items.end(), by_size);
  // What runs keep beside the datasets: never pruned here.
  const std::pair<const char*, const char*> kept[] = {{"responses.sqlite", "response cache (model answers by content)"},
                                                      {"venvs", "Python environments of process models"},
                                                      {"whisper", "Whisper's spelling table"}};
  for (const auto& [file, what] : kept) {
    const auto path = cache_dir() / file;
    if (!fs::exists(path)) continue;
    CacheItem item{what, {path}, bytes_of(path), {}, false};
    if (std::string(file) == "responses.sqlite")
      for (const char* side : {"-wal", "-shm"}) item.bytes += bytes_of(path.string() + side);
    items.push_back(std::move(item));
  }
  return items;
}

std::uint64_t remove_cache_items(const std::vector<CacheItem>& items) {
  std::uint64_t freed = 0;
  for (const auto& item : items)
    for (const auto& path : item.paths) {
      freed += bytes_of(path);
      fs::remove_all(path);
      // Folders the removal emptied go too, up to the datasets cache itself.
      const std::string root = dataset_cache_dir().string();
      for (auto parent = path.parent_path(); parent.string().size() > root.size() && parent.string().rfind(root, 0) == 0;
           parent = parent.parent_path()) {
        std::error_code error;
        if (!fs::is_empty(parent, error) || error) break;
        fs::remove(parent, error);
      }
    }
  return freed;
}

}  // namespace aeval::datasets
