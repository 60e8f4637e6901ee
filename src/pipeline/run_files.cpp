#include "pipeline/run_files.hpp"

#include <fmt/format.h>

#include "aeval/error.hpp"
#include "aeval/version.hpp"
#include "report/summary.hpp"
#include "util/atomic_file.hpp"

namespace aeval::pipeline {

using nlohmann::json;

namespace {

json session_json(const Session& s) {
  return {{"started", s.started},
          {"command_line", s.command_line},
          {"samples_run", s.samples_run},
          {"failed", s.failed},
          {"cached_responses", s.cached_responses},
          {"concurrency", s.concurrency},
          {"elapsed_seconds", s.elapsed_seconds},
          {"aeval_version", kVersion},
          {"git_commit", kGitCommit}};
}

}  // namespace

RunResult write_run_files(const std::filesystem::path& run_dir, RunStore& store,
                          const std::vector<std::size_t>& positions, const LoadedTask& task, const json& provenance,
                          const Session& session) {
  const auto stored = store.samples();
  std::vector<report::SampleOutcome> samples;
  std::string lines;
  for (std::size_t position : positions) {
    const auto it = stored.find(position);
    if (it == stored.end()) throw Error(ErrorCategory::internal, fmt::format("sample at position {} was never stored", position));
    samples.push_back({&it->second.record, it->second.failed});
    lines += it->second.record.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  }
  write_file_atomically(run_dir / "samples.jsonl", lines);

  const auto succeeded = report::succeeded(samples);
  json aggregations = json::object();
  for (const auto& a : task.aggregators) aggregations[a.name] = a.aggregate(task.evaluators, succeeded);
  const json summary =
      report::build_summary(samples, Aggregator{}.aggregate(task.evaluators, succeeded), aggregations, provenance);
  write_file_atomically(run_dir / "summary.json", summary.dump(2) + "\n");

  json sessions = store.meta("sessions").value_or(json::array());
  sessions.push_back(session_json(session));
  store.set_meta("sessions", sessions);
  const json run = {{"run_id", run_dir.filename().string()}, {"task", summary["task"]}, {"model", summary["model"]},
                    {"audio_seconds", summary["audio_seconds"]}, {"sessions", sessions}};
  write_file_atomically(run_dir / "run.json", run.dump(2) + "\n");
  return {run_dir, summary, session};
}

}  // namespace aeval::pipeline
