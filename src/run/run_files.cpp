#include "run/run_files.hpp"

#include <fmt/format.h>
#include <malloc.h>

#include <algorithm>
#include <set>

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

// run.json's view of the store's sessions: a session without an end was
// killed; it stored the samples the next session found beyond its own start.
json sessions_view(const json& sessions, std::size_t stored_now) {
  json view = json::array();
  for (std::size_t i = 0; i < sessions.size(); ++i) {
    json entry = sessions[i];
    const std::size_t before = entry.value("stored_before", std::size_t(0));
    entry.erase("stored_before");
    if (!entry.contains("elapsed_seconds")) {
      const std::size_t after = i + 1 < sessions.size() ? sessions[i + 1].value("stored_before", before) : stored_now;
      entry["interrupted"] = true;
      entry["samples_stored"] = after > before ? after - before : 0;
    }
    view.push_back(std::move(entry));
  }
  return view;
}

// What aggregation reads of a record (the evaluators' corpus computations, groups, UEA's results): the
// rest (the prediction as answered, prompts, audio paths, log-probabilities) is not held for it.
json aggregated_part(json record) {
  json part = json::object();
  for (const char* key : {"id", "scores", "fields", "prediction_processed", "references_processed"})
    if (const auto found = record.find(key); found != record.end()) part[key] = std::move(*found);
  return part;
}

// The corpus value of every evaluator, without groups or intervals: summary.json's metrics.
const Aggregator kCorpus;

}  // namespace

void record_session_start(RunStore& store, const Session& session, std::size_t stored_before) {
  json sessions = store.meta("sessions").value_or(json::array());
  sessions.push_back({{"started", session.started},
                      {"command_line", session.command_line},
                      {"concurrency", session.concurrency},
                      {"aeval_version", kVersion},
                      {"git_commit", kGitCommit},
                      {"stored_before", stored_before}});
  store.set_meta("sessions", sessions);
}

RunResult write_run_files(const std::filesystem::path& run_dir, RunStore& store,
                          const Positions& positions, const LoadedTask& task, const json& provenance,
                          const Session& session) {
  if (!std::is_sorted(positions.begin(), positions.end()))
    throw Error(ErrorCategory::internal, "a run's positions are not in dataset order");
  // What the samples' run freed (their records, on the workers' heaps) goes back to the system before aggregation
  // takes its rows: glibc keeps freed memory for reuse otherwise, and a million-sample run would hold both.
  ::malloc_trim(0);
  // samples.jsonl streams from the store in dataset order; aggregation keeps of each record what it reads.
  std::vector<const Aggregator*> aggregators{&kCorpus};
  for (const auto& a : task.aggregators) aggregators.push_back(&a);
  AggregationSamples taken(task.evaluators, aggregators);
  taken.reserve(positions.size());
  report::RunCounts counts;
  std::size_t next = 0, stored_count = 0;
  AtomicFile samples_file(run_dir / "samples.jsonl");
  store.each_sample([&](std::size_t position, StoredSample sample, const std::string& text) {
    ++stored_count;
    if (next == positions.size() || positions[next] != position) return;  // stored, but not part of this run
    ++next;
    samples_file.write(text + "\n");
    ++counts.samples;
    counts.failed += sample.failed;
    if (sample.failed) return;
    counts.audio_seconds += sample.record.value("audio_seconds", 0.0);
    taken.add(aggregated_part(std::move(sample.record)));
  });
  if (next != positions.size())
    throw Error(ErrorCategory::internal, fmt::format("sample at position {} was never stored", positions[next]));
  samples_file.commit();

  json aggregations = json::object();
  for (const auto& a : task.aggregators) aggregations[a.name] = a.aggregate(task.evaluators, taken);
  json metrics = kCorpus.aggregate(task.evaluators, taken);
  // An UltraEval-Audio aggregation decides its task's number (PracticeWER over every pair, not the
  // mean of per-sample rates): the metric shows it, with UEA's keys.
  std::set<std::string> decided;
  for (const auto& [aggregator, by_evaluator] : aggregations.items())
    for (const auto& [name, result] : by_evaluator.items())
      if (result.contains("uea") && metrics.contains(name) && decided.insert(name).second)
        metrics[name] = {{"value", result["value"]}, {"samples", result["samples"]}, {"uea", result["uea"]},
                         {"aggregation", aggregator}};
  const json summary = report::build_summary(counts, metrics, aggregations, provenance);
  write_file_atomically(run_dir / "summary.json", summary.dump(2) + "\n");

  json sessions = store.meta("sessions").value_or(json::array());
  json finished = session_json(session);
  if (!sessions.empty() && !sessions.back().contains("elapsed_seconds")) {  // this session's start
    finished["stored_before"] = sessions.back()["stored_before"];
    sessions.back() = std::move(finished);
  } else {
    sessions.push_back(std::move(finished));
  }
  store.set_meta("sessions", sessions);
  const json run = {{"run_id", run_dir.filename().string()}, {"task", summary["task"]}, {"model", summary["model"]},
                    {"audio_seconds", summary["audio_seconds"]}, {"sessions", sessions_view(sessions, stored_count)}};
  write_file_atomically(run_dir / "run.json", run.dump(2) + "\n");
  return {run_dir, summary, session};
}

}  // namespace aeval::pipeline
