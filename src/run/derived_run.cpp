#include "run/derived_run.hpp"

#include <set>
#include <utility>
#include <vector>

#include "tasks/loaded_task.hpp"
#include "run/provenance.hpp"
#include "response_cache/response_cache.hpp"
#include "run/run_files.hpp"
#include "run/run_id.hpp"
#include "run/sample_record.hpp"

namespace aeval::pipeline {

using registry::Registry;

namespace {
constexpr std::size_t kBatch = 1024;  // samples written in one transaction
}  // namespace

RunResult derive_run(const Registry& registry, const Invocation& inv,
                     const std::map<std::size_t, std::filesystem::path>& sources, bool rescore,
                     const nlohmann::json& model_identity, const std::filesystem::path& output_root,
                     const std::string& suffix) {
  const LoadedTask task = LoadedTask::load(registry, inv.task, false);
  ResponseCache cache(ResponseCache::default_file());
  task.scoring->use_cache(&cache);
  const nlohmann::json prov = provenance(registry, inv, task, model_identity);
  const auto parent = output_root / inv.task.name / inv.task.model;
  const auto run_dir = parent / new_run_id(parent, suffix);
  std::filesystem::create_directories(run_dir);
  RunStore store(run_dir / "run.sqlite");
  store.set_meta("invocation", inv.to_json());
  store.set_meta("provenance", prov);
  Positions positions;
  for (const auto& [position, from] : sources) positions.push_back(Positions::value_type(position));
  std::set<std::filesystem::path> from_runs;
  for (const auto& [position, from] : sources) from_runs.insert(from);
  Session session;
  session.started = utc_now();
  std::vector<std::pair<std::size_t, StoredSample>> batch;
  const auto put = [&] {
    store.put_samples(batch);
    batch.clear();
  };
  for (const auto& from : from_runs)
    RunStore::read_only(from / "run.sqlite").each_sample([&](std::size_t position, StoredSample sample, const std::string&) {
      if (const auto it = sources.find(position); it == sources.end() || it->second != from) return;
      if (sample.record.contains("output_audio")) {
        const std::string name = sample.record["output_audio"];
        std::filesystem::create_directories(run_dir / "outputs");
        std::filesystem::copy_file(from / name, run_dir / name, std::filesystem::copy_options::overwrite_existing);
      }
      if (rescore && sample.record.contains("prediction")) {
        score_into(sample.record, sample_of(sample.record), task, run_dir);
        sample.failed = !sample.record["error"].is_null();
      }
      session.failed += sample.failed;
      batch.emplace_back(position, std::move(sample));
      if (batch.size() == kBatch) put();
    });
  put();
  return write_run_files(run_dir, store, positions, task, prov, session);
}

}  // namespace aeval::pipeline
