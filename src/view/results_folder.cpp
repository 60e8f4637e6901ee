#include "view/results_folder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "aeval/error.hpp"
#include "run/run_store.hpp"
#include "util/file_lock.hpp"

namespace aeval::view {

using nlohmann::json;

namespace {

bool is_run_dir(const std::filesystem::path& dir) {
  std::error_code error;
  return std::filesystem::is_regular_file(dir / "summary.json", error) ||
         std::filesystem::is_regular_file(dir / "run.sqlite", error);
}

json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return nullptr;
  return json::parse(in, nullptr, false);  // a malformed file reads as discarded, shown as unknown
}

// Why a run's summary.json cannot be read as one ("" when it can, or when there is none).
std::string summary_problem(const std::filesystem::path& file) {
  std::error_code missing;
  if (!std::filesystem::exists(file, missing)) return "";
  try {
    const json summary = json::parse(std::ifstream(file));
    for (const char* key : {"task", "model", "dataset", "counts", "metrics", "provenance"})
      if (!summary.is_object() || !summary.contains(key)) return fmt::format("summary.json: no '{}'", key);
    return "";
  } catch (const json::exception& e) {
    return fmt::format("summary.json: {}", e.what());
  }
}

// What the runs table shows of one run: from its summary when the run has finished a session,
// otherwise (a first session still running, or stopped) from the store's counts. Its state: finished,
// running (a session holds the store's lock), interrupted (stopped before its summary: resumable), or broken
// (a summary or store that cannot be read, with the file and why).
json describe(const std::string& id, const std::filesystem::path& dir) {
  json run = {{"id", id}, {"run_id", dir.filename().string()}};
  const bool running = FileLock::held(pipeline::session_lock_file(dir));
  std::string problem = summary_problem(dir / "summary.json");
  std::optional<pipeline::RunStore::Counts> counts;
  try {
    counts = pipeline::RunStore::read_only(dir / "run.sqlite").counts();
  } catch (const std::exception& e) {
    if (problem.empty()) problem = fmt::format("run.sqlite: {}", e.what());
  }
  const json summary = problem.empty() ? read_json(dir / "summary.json") : json();
  const json sessions = read_json(dir / "run.json");
  if (!problem.empty()) {
    run["state"] = "broken";
    run["error"] = problem;
  } else {
    run["state"] = running ? "running" : summary.is_object() ? "finished" : "interrupted";
  }
  if (summary.is_object()) {
    for (const char* key : {"task", "model", "dataset", "fail_rate"}) run[key] = summary.value(key, json());
    const json counts = summary.value("counts", json::object());
    run["samples"] = counts.value("samples", json());
    run["failed"] = counts.value("failed", json());
    json metrics = json::object(), scores = json::array();
    const json summary_metrics = summary.value("metrics", json::object());
    for (const auto& [name, m] : summary_metrics.items())
      if (m.is_object() && m.contains("value")) metrics[name] = m["value"];
    const json provenance = summary.value("provenance", json::object());
    for (const auto& e : provenance.value("evaluators", json::array()))
      if (e.is_object() && e.contains("name")) scores.push_back(e["name"]);
    run["metrics"] = metrics;
    run["scores"] = scores;
    run["prompt"] = provenance.value("task", json::object()).value("prompt", "");
  } else if (counts) {
    run["samples"] = counts->stored;
    run["failed"] = counts->failed;
    run["in_progress"] = running;
  }
  // The start of its first session; a run id is that time already (UTC, compact) when run.json is missing.
  std::string date = dir.filename().string();
  if (sessions.is_object() && sessions.contains("sessions") && sessions["sessions"].is_array() &&
      !sessions["sessions"].empty() && sessions["sessions"][0].is_object())
    date = sessions["sessions"][0].value("started", date);
  run["date"] = date;
  return run;
}

}  // namespace

ResultsFolder::ResultsFolder(const std::filesystem::path& root) {
  std::error_code error;
  if (!std::filesystem::is_directory(root, error))
    throw Error(ErrorCategory::config, fmt::format("{} is not a folder of results (aeval run writes one: results/)",
                                                   root.string()));
  root_ = std::filesystem::canonical(root);
}

json ResultsFolder::runs() const {
  json out = json::array();
  std::error_code error;
  auto it = std::filesystem::recursive_directory_iterator(
      root_, std::filesystem::directory_options::skip_permission_denied, error);
  for (; !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (!it->is_directory(error) || !is_run_dir(it->path())) continue;
    it.disable_recursion_pending();  // a run's outputs/ may hold a file per sample
    const std::string id = std::filesystem::relative(it->path(), root_).generic_string();
    if (!run_dir(id)) continue;  // a link out of the folder: never served, so not listed
    try {
      out.push_back(describe(id, it->path()));
    } catch (const std::exception& e) {  // one unreadable run is listed with why, the others still are
      out.push_back({{"id", id}, {"state", "broken"}, {"error", e.what()}});
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const json& a, const json& b) { return a.value("date", "") > b.value("date", ""); });
  return out;
}

std::optional<std::filesystem::path> ResultsFolder::run_dir(const std::string& id) const {
  const std::filesystem::path relative(id);
  if (id.empty() || relative.is_absolute()) return std::nullopt;
  for (const auto& part : relative)
    if (part == "..") return std::nullopt;
  std::error_code error;
  const auto dir = std::filesystem::canonical(root_ / relative, error);
  if (error) return std::nullopt;
  // A link inside the folder may point anywhere: the resolved folder must still be inside.
  const auto [r, d] = std::mismatch(root_.begin(), root_.end(), dir.begin(), dir.end());
  if (r != root_.end() || !is_run_dir(dir)) return std::nullopt;
  return dir;
}

}  // namespace aeval::view
