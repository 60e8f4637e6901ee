#include "run/derived_run.hpp"

#include <utility>
#include <vector>

#include "components/loaded_task.hpp"
#include "run/provenance.hpp"
#include "components/response_cache.hpp"
#include "run/run_files.hpp"
#include "run/run_id.hpp"
#include "run/sample_record.hpp"

namespace aeval::pipeline {

using registry::Registry;

RunResult derive_run(const Registry& registry, const Invocation& inv, const std::map<std::size_t, StoredFrom>& samples,
                     bool rescore, const nlohmann::json& model_identity, const std::filesystem::path& output_root,
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
  std::vector<std::size_t> positions;
  std::vector<std::pair<std::size_t, StoredSample>> stored;
  Session session;
  session.started = utc_now();
  for (const auto& [position, from] : samples) {
    StoredSample copy = from.sample;
    if (copy.record.contains("output_audio")) {
      const std::string name = copy.record["output_audio"];
      std::filesystem::create_directories(run_dir / "outputs");
      std::filesystem::copy_file(from.run_dir / name, run_dir / name, std::filesystem::copy_options::overwrite_existing);
    }
    if (rescore && copy.record.contains("prediction")) {
      score_into(copy.record, sample_of(copy.record), task, run_dir);
      copy.failed = !copy.record["error"].is_null();
    }
    positions.push_back(position);
    session.failed += copy.failed;
    stored.emplace_back(position, std::move(copy));
  }
  store.put_samples(stored);
  return write_run_files(run_dir, store, positions, task, prov, session);
}

}  // namespace aeval::pipeline
