#include "cluster/run_progress.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "aeval/error.hpp"
#include "run/run_store.hpp"

namespace aeval::cluster {

std::string RunProgress::state() const {
  if (planned == 0) return "starting";
  if (stored < planned) return "running or stopped";
  return failed == 0 ? "finished" : fmt::format("finished, {} failed", failed);
}

RunProgress run_progress(const std::filesystem::path& run_dir) {
  const auto file = run_dir / "run.sqlite";
  // Opening a store creates one: look first.
  if (!std::filesystem::is_regular_file(file))
    throw Error(ErrorCategory::data, fmt::format("{} is not a run folder (it holds no run.sqlite)", run_dir.string()));
  const pipeline::RunStore store(file);
  RunProgress p;
  p.run_dir = run_dir;
  if (const auto planned = store.meta("planned_samples"); planned && planned->is_number_unsigned())
    p.planned = planned->get<std::size_t>();
  if (const auto invocation = store.meta("invocation"); invocation && invocation->contains("shard")) {
    const auto& shard = (*invocation)["shard"];  // [index, count]
    if (shard.is_array() && shard.size() == 2) p.shard = fmt::format("{}/{}", shard[0].dump(), shard[1].dump());
  }
  const auto counts = store.counts();
  p.stored = counts.stored;
  p.failed = counts.failed;
  p.summarized = std::filesystem::is_regular_file(run_dir / "summary.json");
  return p;
}

std::vector<std::filesystem::path> runs_under(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> found;
  std::error_code error;
  for (std::filesystem::recursive_directory_iterator it(root, error), end; !error && it != end; it.increment(error))
    if (it->path().filename() == "run.sqlite") found.push_back(it->path().parent_path());
  std::sort(found.begin(), found.end());
  return found;
}

std::optional<std::filesystem::path> run_under(const std::filesystem::path& output) {
  const auto found = runs_under(output);
  if (found.empty()) return std::nullopt;
  return found.front();
}

}  // namespace aeval::cluster
