#include "datasets/hub_split.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "aeval/error.hpp"
#include "util/download.hpp"
#include "datasets/dataset.hpp"
#include "datasets/hub_client.hpp"
#include "datasets/hub_data_files.hpp"
#include "registry/registry.hpp"
#include "util/atomic_file.hpp"
#include "util/sha256.hpp"

namespace aeval::datasets {

namespace {

constexpr const char* kConversionBranch = "refs/convert/parquet";

bool is_commit(const std::string& revision) { return is_commit_id(revision); }

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

std::string choices(const std::string& what, const std::string& wanted, const std::set<std::string>& known) {
  if (known.empty()) return "";
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  std::string text = fmt::format("; its {}: {}", what, list);
  const auto closest = registry::did_you_mean(wanted, {known.begin(), known.end()});
  if (!closest.empty()) text += fmt::format(" (did you mean '{}'?)", closest.front());
  return text;
}

struct Resolved {
  std::string source, source_commit;
  std::vector<HubFile> files;
};

// A text field of the dataset card's YAML (as the Hub gives it in JSON), or `fallback` when absent: a
// number written bare (`config_name: 2024`) is its text; a list or a map there is a malformed card.
std::string card_text(const nlohmann::json& object, const char* key, const std::string& fallback) {
  if (!object.contains(key) || object[key].is_null()) return fallback;
  const nlohmann::json& v = object[key];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number() || v.is_boolean()) return v.dump();
  throw Error(ErrorCategory::data, fmt::format("the dataset card's configs: '{}' is {}, not text", key, v.type_name()));
}

// The configs the dataset's README declares (cardData.configs), or an empty array.
nlohmann::json card_configs(const nlohmann::json& info) {
  const auto configs = info.contains("cardData") && info["cardData"].is_object()
                           ? info["cardData"].value("configs", nlohmann::json::array())
                           : nlohmann::json::array();
  return configs.is_array() ? configs : nlohmann::json::array();
}

// The declared config a request names, or null. "default" is the one `datasets` takes when
// none is named: the config named so, else the one marked `default: true`, else the only one.
const nlohmann::json* card_config(const nlohmann::json& configs, const std::string& wanted) {
  const nlohmann::json *marked = nullptr, *only = nullptr;
  int count = 0;
  for (const auto& c : configs) {
    if (!c.is_object()) continue;
    if (card_text(c, "config_name", "default") == wanted) return &c;
    if (c.contains("default") && c["default"] == true) marked = &c;
    only = &c;
    ++count;
  }
  if (wanted != "default") return nullptr;
  return marked ? marked : count == 1 ? only : nullptr;
}

struct DeclaredSplit {
  std::string data_dir;                              // the folder the config's files are in ("" for all)
  std::optional<std::vector<std::string>> patterns;  // none: the split's files are inferred inside data_dir
};

// The split as the dataset's README declares it; none when it declares no configs.
std::optional<DeclaredSplit> declared_split(const nlohmann::json& info, const HubSplitRequest& r) {
  const nlohmann::json configs = card_configs(info);
  if (configs.empty()) return std::nullopt;
  std::set<std::string> names, splits;
  for (const auto& c : configs)
    if (c.is_object()) names.insert(card_text(c, "config_name", "default"));
  const nlohmann::json* c = card_config(configs, r.config);
  if (!c)
    throw Error(ErrorCategory::data, fmt::format("the dataset {} has no config '{}'{}", r.repo, r.config,
                                                 choices("configs", r.config, names)));
  DeclaredSplit declared{card_text(*c, "data_dir", ""), std::nullopt};
  while (!declared.data_dir.empty() && declared.data_dir.back() == '/') declared.data_dir.pop_back();
  const auto data_files = c->contains("data_files") ? (*c)["data_files"] : nlohmann::json();
  if (data_files.is_null()) return declared;  // a data_dir alone: `datasets` infers the splits inside it
  const auto patterns_of = [](const nlohmann::json& p) {
    std::vector<std::string> out;
    if (p.is_string()) out.push_back(p.get<std::string>());
    if (p.is_array())
      for (const auto& x : p)
        if (x.is_string()) out.push_back(x.get<std::string>());
    return out;
  };
  if (data_files.is_string() || (data_files.is_array() && !data_files.empty() && data_files[0].is_string())) {
    splits.insert("train");  // a bare list of files is the train split
    if (r.split == "train") return DeclaredSplit{declared.data_dir, patterns_of(data_files)};
  } else if (data_files.is_array()) {
    for (const auto& d : data_files) {
      if (!d.is_object()) continue;
      const std::string split = card_text(d, "split", "train");
      splits.insert(split);
      if (split == r.split) return DeclaredSplit{declared.data_dir, patterns_of(d.contains("path") ? d["path"] : nlohmann::json())};
    }
  }
  throw Error(ErrorCategory::data, fmt::format("the dataset {} (config '{}') has no split '{}'{}", r.repo, r.config,
                                               r.split, choices("splits", r.split, splits)));
}

// The split's files among the repository's: those its declared patterns match, or, without declared configs,
// those `datasets` would infer for it (inside a folder named after the config, when one is asked for: aeval's
// way to a config of a repository that declares none).
std::vector<std::string> split_files(const std::vector<std::string>& paths, const nlohmann::json& info,
                                     const HubSplitRequest& r) {
  if (const auto declared = declared_split(info, r)) {
    // Patterns and inference are relative to the config's data_dir.
    const std::string prefix = declared->data_dir.empty() ? "" : declared->data_dir + "/";
    std::vector<std::string> inside, files;
    for (const auto& path : paths)
      if (path.rfind(prefix, 0) == 0) inside.push_back(path.substr(prefix.size()));
    if (declared->patterns)
      files = hub_glob(*declared->patterns, inside);
    else
      for (auto& [split, found] : inferred_splits(inside))
        if (split == r.split) files = std::move(found);
    for (auto& f : files) f = prefix + f;
    return files;
  }
  std::vector<std::string> in_config;
  for (const auto& path : paths)
    if (r.config == "default" || path.find(r.config + "/") == 0 || path.find("/" + r.config + "/") != std::string::npos)
      in_config.push_back(path);
  for (auto& [split, files] : inferred_splits(in_config))
    if (split == r.split) return files;
  return {};
}

Resolved resolve(const HubClient& hub, const nlohmann::json& info, const std::string& commit,
                 const HubSplitRequest& r) {
  std::vector<HubFile> listed = hub.list_files(r.repo, commit, "");
  std::vector<std::string> paths;
  for (const auto& file : listed) paths.push_back(file.path);
  const std::vector<std::string> files = split_files(paths, info, r);
  std::vector<HubFile> chosen;
  for (auto& file : listed)
    if (ends_with(file.path, ".parquet") && std::binary_search(files.begin(), files.end(), file.path))
      chosen.push_back(std::move(file));
  if (!chosen.empty()) {
    std::sort(chosen.begin(), chosen.end(), [](const HubFile& a, const HubFile& b) { return a.path < b.path; });
    return {"repository", commit, std::move(chosen)};
  }
  // Not stored as Parquet: the Hub's automatic conversion (its branch refs/convert/parquet), read as
  // `datasets` reads it: only when the dataset viewer says it is made from this very commit and is whole,
  // its files in the viewer's order. The conversion follows main and can lag it or be cut short.
  const auto refused = [&](const std::string& why) {
    return Error(ErrorCategory::data, fmt::format("the dataset {} stores no Parquet files for config '{}', split '{}', "
                                                  "and {}",
                                                  r.repo, r.config, r.split, why));
  };
  ParquetExport exported;
  try {
    exported = hub.parquet_export(r.repo);
  } catch (const Error& e) {
    throw Error(e.category(), refused(fmt::format("the Hub's dataset viewer cannot say which commit its Parquet "
                                                  "conversion is made from: {}",
                                                  e.what()))
                                  .what());
  }
  if (exported.revision != commit)
    throw refused(fmt::format("the Hub's Parquet conversion of it is made from {}, not from {} that revision '{}' names: "
                              "it may hold other data, so `datasets` does not read it, and neither does aeval. Read the "
                              "revision it is made from, or a copy stored as Parquet",
                              exported.revision.empty() ? "a commit the dataset viewer does not name"
                                                        : "commit " + exported.revision.substr(0, 7),
                              commit.substr(0, 7), r.revision));
  using Incomplete = ParquetExport::Incomplete;
  if (exported.incomplete != Incomplete::no)
    throw refused(fmt::format(
        "the Hub's Parquet conversion of it is {}: `datasets` does not read it, and neither does aeval. {}",
        exported.incomplete == Incomplete::partial ? "partial (it holds the rows of the first 5 GB of some splits)"
        : exported.incomplete == Incomplete::pending ? "still being made (pending)"
        : exported.incomplete == Incomplete::failed  ? "failed for some configs or splits"
                                                     : "of a state the dataset viewer does not say",
        exported.incomplete == Incomplete::pending ? "Try again later" : "Read a copy stored as Parquet"));
  std::set<std::string> configs, splits;
  std::vector<std::string> wanted;
  for (const auto& file : exported.files) {
    configs.insert(file.config);
    if (file.config != r.config) continue;
    splits.insert(file.split);
    if (file.split == r.split) wanted.push_back(file.path);
  }
  if (!configs.count(r.config))
    throw Error(ErrorCategory::data, fmt::format("the dataset {} has no config '{}'{}", r.repo, r.config,
                                                 choices("configs", r.config, configs)));
  if (wanted.empty())
    throw Error(ErrorCategory::data, fmt::format("the dataset {} (config '{}') has no split '{}'{}", r.repo, r.config,
                                                 r.split, choices("splits", r.split, splits)));
  // The branch's commit, fixed now in case it moves meanwhile, and its sizes and hashes.
  const std::string conversion = hub.dataset_info(r.repo, kConversionBranch)["sha"].get<std::string>();
  std::map<std::string, HubFile> branch;
  for (auto& file : hub.list_files(r.repo, conversion, r.config)) branch[file.path] = std::move(file);
  for (const auto& path : wanted) {
    const auto file = branch.find(path);
    if (file == branch.end())
      throw Error(ErrorCategory::data,
                  fmt::format("the Hub's dataset viewer lists {} in the Parquet conversion of {}, which its branch "
                              "(commit {}) does not hold: the conversion is changing; try again later",
                              path, r.repo, conversion.substr(0, 7)));
    chosen.push_back(file->second);
  }
  return {"parquet conversion", conversion, std::move(chosen)};
}

// The splits of the config in the order `datasets` gives them when no split is named (a
// DatasetDict of every split): the README's order where it declares the config; otherwise the
// Hub's conversion must hold one split, since any order of several would be a guess.
std::vector<std::string> all_splits(const HubClient& hub, const nlohmann::json& info, const HubSplitRequest& r) {
  const nlohmann::json configs = card_configs(info);
  if (const nlohmann::json* c = card_config(configs, r.config)) {
    const auto data_files = c->contains("data_files") ? (*c)["data_files"] : nlohmann::json();
    if (!data_files.is_array() || data_files.empty() || !data_files[0].is_object()) return {"train"};
    std::vector<std::string> splits;
    for (const auto& d : data_files) {
      const std::string split = d.is_object() ? card_text(d, "split", "train") : "train";
      if (std::find(splits.begin(), splits.end(), split) == splits.end()) splits.push_back(split);
    }
    return splits;
  }
  if (!configs.empty()) declared_split(info, r);  // throws: no such config, naming those there are
  std::set<std::string> splits;
  try {  // the conversion's splits as the dataset viewer lists them, as resolve reads its files
    for (const auto& file : hub.parquet_export(r.repo).files)
      if (file.config == r.config) splits.insert(file.split);
  } catch (const Error&) {
  }
  if (splits.size() == 1) return {*splits.begin()};
  std::string listed;
  for (const auto& s : splits) listed += (listed.empty() ? "" : ", ") + s;
  throw Error(ErrorCategory::data,
              fmt::format("the dataset {} (config '{}') declares no split order{}{}; with no split named, `datasets` "
                          "reads every split in an order aeval cannot tell: name a split",
                          r.repo, r.config, splits.empty() ? "" : "; its splits: ", listed));
}

// Every split of the config, one after the other (split "").
Resolved resolve_all(const HubClient& hub, const nlohmann::json& info, const std::string& commit, HubSplitRequest r) {
  Resolved all;
  for (const auto& split : all_splits(hub, info, r)) {
    r.split = split;
    Resolved part = resolve(hub, info, commit, r);
    if (!all.source.empty() && all.source_commit != part.source_commit)
      throw Error(ErrorCategory::data, fmt::format("the dataset {} (config '{}') keeps some splits as Parquet and "
                                                   "others only in the Hub's conversion; name a split",
                                                   r.repo, r.config));
    all.source = part.source;
    all.source_commit = part.source_commit;
    for (auto& f : part.files) all.files.push_back(std::move(f));
  }
  return all;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

std::filesystem::path ref_path(const std::filesystem::path& root, const std::string& revision) {
  return root / "refs" / url_encode(revision, false);
}

std::filesystem::path file_list_path(const std::filesystem::path& root, const std::string& commit,
                                     const HubSplitRequest& r) {
  return root / "snapshots" / commit / ".aeval" / r.config / (r.split.empty() ? ".all-splits.json" : r.split + ".json");
}

// A file as the Hub listed it (path, size, SHA-256 or git blob id), fetched from `commit` into the snapshot under `root`.
RemoteFile listed_file(const HubClient& hub, const std::string& repo, const std::string& commit, const nlohmann::json& f,
                       const std::filesystem::path& root) {
  const std::string path = f.value("path", "");
  const auto size = f.value("size", std::uint64_t(0));
  return {hub.file_url(repo, commit, path), root / "snapshots" / commit / path, f.value("sha256", ""),
          size ? std::optional<std::uint64_t>(size) : std::nullopt, f.value("git_blob_id", "")};
}

// Downloads with the Hub's credentials and offline switch, saying how to get access or fetch elsewhere.
DownloadOptions hub_download_options(const HubClient& hub, const HubSplitRequest& r) {
  DownloadOptions options;
  options.headers = hub.headers();
  options.offline = hub.offline();
  options.prefetch_hint = r.prefetch_hint;
  options.denied_hint = hub.access_hint(r.repo);
  return options;
}

nlohmann::json read_file_list(const std::filesystem::path& path) {
  try {
    return nlohmann::json::parse(read_text(path));
  } catch (const nlohmann::json::exception&) {
    std::filesystem::remove(path);
    throw Error(ErrorCategory::data, path.string() + ": damaged file list, removed: run again");
  }
}

// A file the Hub listed with neither SHA-256 nor git blob id (a mirror's listing may carry none) is checked by
// its length alone when first downloaded. Its SHA-256 is then recorded in the file list `list_file`, so any later
// download of it (the cache cleared, the list copied to another machine) must bring the same bytes.
void record_digests_of_undigested(const std::filesystem::path& list_file, const std::filesystem::path& snapshot) {
  nlohmann::json list = read_file_list(list_file);
  bool recorded = false;
  for (auto& f : list["files"]) {
    const std::filesystem::path file = snapshot / f.value("path", "");
    if (f.value("missing", false) || !f.value("sha256", "").empty() || !f.value("git_blob_id", "").empty() ||
        !std::filesystem::is_regular_file(file))
      continue;
    f["sha256"] = sha256_of_file(file);
    f["sha256_from"] = "first download";  // not the Hub's: says where the digest came from
    recorded = true;
  }
  if (recorded) write_file_atomically(list_file, list.dump(1) + "\n");
}

}  // namespace

namespace {

std::map<std::string, HubSplitsOf>& hub_split_declarations() {
  static std::map<std::string, HubSplitsOf> declared;  // built before the first declaration uses it
  return declared;
}

}  // namespace

HubSplitsDeclaration::HubSplitsDeclaration(const std::string& class_id, HubSplitsOf splits) {
  hub_split_declarations().emplace(class_id, std::move(splits));
}

std::vector<HubSplitRequest> hub_splits_read(const registry::Args& args) {
  const auto found = hub_split_declarations().find(args.entry().class_id);
  return found == hub_split_declarations().end() ? std::vector<HubSplitRequest>{} : found->second(args);
}

std::filesystem::path hub_cache_dir(const std::string& repo) {
  std::string name = repo;
  for (std::size_t at; (at = name.find('/')) != std::string::npos;) name.replace(at, 1, "--");
  return dataset_cache_dir() / "hub" / name;
}

HubSplit fetch_hub_split(const HubSplitRequest& r) {
  const HubClient hub(r.token_env);
  const auto root = hub_cache_dir(r.repo);
  const auto ref_file = ref_path(root, r.revision);
  const auto offline_error = [&](const std::string& what) {
    return Error(ErrorCategory::network,
                 fmt::format("offline (HF_HUB_OFFLINE is set) and {} of {}@{} is not in the cache ({}){}", what, r.repo,
                             r.revision, root.string(), r.prefetch_hint.empty() ? "" : ". " + r.prefetch_hint));
  };
  nlohmann::json info;
  std::string commit = is_commit(r.revision) ? r.revision : "";
  const auto manifest_of = [&] { return file_list_path(root, commit, r); };
  try {  // the Hub's API: the revision's commit, then the split's files
    if (commit.empty() && hub.offline()) {
      commit = read_text(ref_file);
      if (!is_commit(commit)) throw offline_error("the revision");
    } else if (commit.empty()) {
      info = hub.dataset_info(r.repo, r.revision);
      commit = info["sha"].get<std::string>();
      write_file_atomically(ref_file, commit + "\n");
    }
    if (!std::filesystem::exists(manifest_of())) {
      if (hub.offline()) throw offline_error(fmt::format("the file list of config '{}', split '{}'", r.config, r.split));
      if (info.is_null()) info = hub.dataset_info(r.repo, commit);
      const Resolved resolved = r.split.empty() ? resolve_all(hub, info, commit, r) : resolve(hub, info, commit, r);
      nlohmann::json files = nlohmann::json::array();
      for (const auto& f : resolved.files)
        files.push_back({{"path", f.path}, {"size", f.size}, {"sha256", f.sha256}, {"git_blob_id", f.git_blob_id}});
      write_file_atomically(manifest_of(), nlohmann::json{{"source", resolved.source},
                                                          {"source_commit", resolved.source_commit},
                                                          {"files", files}}.dump(1) + "\n");
    }
  } catch (const Error& e) {
    // Without network, whatever the revision: where the cache is and how to fill it.
    if (e.category() != ErrorCategory::network || std::string(e.what()).find("cannot reach") == std::string::npos) throw;
    throw Error(ErrorCategory::network, std::string(e.what()) + " (cache folder " + root.string() + ")" +
                                            (r.prefetch_hint.empty() ? "" : ". " + r.prefetch_hint));
  }
  const auto manifest = manifest_of();

  const nlohmann::json listed = read_file_list(manifest);
  HubSplit split{commit, listed.value("source", ""), listed.value("source_commit", commit), {}, {}};
  std::vector<RemoteFile> remote;
  if (!is_commit(split.source_commit))
    throw Error(ErrorCategory::data, manifest.string() + ": names no commit id; delete it and run again");
  for (const auto& f : listed.value("files", nlohmann::json::array())) {
    const std::string path = f.value("path", "");
    if (!safe_repository_path(path))
      throw Error(ErrorCategory::data, fmt::format("{}: names '{}', a path outside the repository; delete it and run "
                                                   "again", manifest.string(), path.substr(0, 200)));
    remote.push_back(listed_file(hub, r.repo, split.source_commit, f, root));
    split.files.push_back(remote.back().destination);
    split.repository_paths.push_back(path);
  }
  download_files(remote, hub_download_options(hub, r));
  record_digests_of_undigested(manifest, root / "snapshots" / split.source_commit);
  return split;
}

std::vector<std::filesystem::path> fetch_hub_repository_files(const HubSplitRequest& r, const std::string& commit,
                                                              const std::vector<std::string>& paths,
                                                              std::vector<std::string>* unfetched) {
  const HubClient hub(r.token_env);
  const auto root = hub_cache_dir(r.repo);
  // What the Hub lists for the files the rows name, kept beside the split's file list so a later run
  // (offline too) needs no listing; listed again when the rows name a file it does not hold.
  auto manifest = file_list_path(root, commit, r);
  manifest.replace_extension(".audio.json");
  std::map<std::string, nlohmann::json> listed;  // null: not in the repository
  if (std::filesystem::exists(manifest))
    for (const auto& f : read_file_list(manifest).value("files", nlohmann::json::array()))
      listed[f.value("path", "")] = f.value("missing", false) ? nlohmann::json() : f;
  const bool complete = std::all_of(paths.begin(), paths.end(), [&](const auto& p) { return listed.count(p) > 0; });
  if (!complete) {
    if (hub.offline())
      throw Error(ErrorCategory::network,
                  fmt::format("offline (HF_HUB_OFFLINE is set) and the audio files {}@{} names are not in the cache "
                              "({}){}", r.repo, commit.substr(0, 12), root.string(),
                              r.prefetch_hint.empty() ? "" : ". " + r.prefetch_hint));
    std::map<std::string, HubFile> in_repository;  // the whole listing: a folder the rows name may not exist
    for (auto& f : hub.list_files(r.repo, commit, "")) in_repository[f.path] = f;
    nlohmann::json files = nlohmann::json::array();
    for (const auto& p : std::set<std::string>(paths.begin(), paths.end())) {
      const auto found = in_repository.find(p);  // a listed path is inside the repository (hub_listing_files)
      if (found == in_repository.end()) {
        files.push_back({{"path", p}, {"missing", true}});
        listed[p] = nullptr;
        continue;
      }
      const HubFile& f = found->second;
      files.push_back({{"path", f.path}, {"size", f.size}, {"sha256", f.sha256}, {"git_blob_id", f.git_blob_id}});
      listed[f.path] = files.back();
    }
    write_file_atomically(manifest, nlohmann::json{{"files", files}}.dump(1) + "\n");
  }
  std::vector<RemoteFile> remote;
  std::vector<std::filesystem::path> local;
  std::set<std::string> queued;
  for (const auto& p : paths) {
    if (listed[p].is_null()) {  // not in the repository (nor, then, outside it): its sample fails alone
      local.emplace_back();
      continue;
    }
    local.push_back(root / "snapshots" / commit / p);
    if (queued.insert(p).second) remote.push_back(listed_file(hub, r.repo, commit, listed[p], root));
  }
  if (!unfetched) {
    download_files(remote, hub_download_options(hub, r));
    record_digests_of_undigested(manifest, root / "snapshots" / commit);
    return local;
  }
  const std::vector<std::string> failed = download_each(remote, hub_download_options(hub, r));
  record_digests_of_undigested(manifest, root / "snapshots" / commit);
  std::map<std::filesystem::path, std::string> why;  // by local path: a path the rows name twice is fetched once
  for (std::size_t k = 0; k < remote.size(); ++k) why[remote[k].destination] = failed[k];
  unfetched->assign(paths.size(), "");
  for (std::size_t k = 0; k < paths.size(); ++k)
    if (!local[k].empty()) (*unfetched)[k] = why[local[k]];
  return local;
}

std::optional<CachedHubSplit> cached_hub_split(const HubSplitRequest& r) {
  const auto root = hub_cache_dir(r.repo);
  const std::string commit = is_commit(r.revision) ? r.revision : read_text(ref_path(root, r.revision));
  if (!is_commit(commit)) return std::nullopt;
  CachedHubSplit cached{commit, file_list_path(root, commit, r), {}, {}};
  if (!std::filesystem::exists(cached.file_list)) return std::nullopt;
  const nlohmann::json listed = read_file_list(cached.file_list);
  const std::string source_commit = listed.value("source_commit", commit);
  for (const auto& f : listed.value("files", nlohmann::json::array()))
    cached.files.emplace_back(root / "snapshots" / source_commit / f.value("path", ""), f.value("size", std::uint64_t(0)));
  // The audio files its rows name (fetch_hub_repository_files), at the repository's commit.
  if (auto referenced = cached.file_list; std::filesystem::exists(referenced.replace_extension(".audio.json"))) {
    cached.audio_list = referenced;
    for (const auto& f : read_file_list(referenced).value("files", nlohmann::json::array()))
      if (!f.value("missing", false))  // a path the repository does not hold is nothing to cache
        cached.files.emplace_back(root / "snapshots" / commit / f.value("path", ""), f.value("size", std::uint64_t(0)));
  }
  return cached;
}

}  // namespace aeval::datasets
