// aeval run: a new run or a resumed one. Each session runs the samples not
// yet stored (or stored as failed) through the scheduler, stores them as they
// finish, and rebuilds the run's files from the store.
#include "aeval/pipeline/runner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <map>
#include <set>

#include "aeval/error.hpp"
#include "audio/decoder_messages.hpp"
#include "run/inference_steps.hpp"
#include "run/invocation.hpp"
#include "tasks/loaded_task.hpp"
#include "run/progress.hpp"
#include "util/file_lock.hpp"
#include "run/provenance.hpp"
#include "response_cache/response_cache.hpp"
#include "run/run_files.hpp"
#include "run/run_id.hpp"
#include "run/run_store.hpp"
#include "run/sample_inputs.hpp"
#include "run/scheduler.hpp"
#include "run/shard.hpp"

namespace aeval::pipeline {

using registry::Registry;

using nlohmann::json;

namespace {

// Stores what the scheduler hands over, each batch in one transaction, and
// keeps the session's counts and the progress line.
class SessionRecorder {
 public:
  SessionRecorder(RunStore& store, const LoadedTask& task, Session& session, Progress& progress, std::size_t already)
      : store_(store), task_(task), session_(session), progress_(progress), done_(already) {}

  void take(std::deque<Work> batch) {
    std::vector<std::pair<std::size_t, StoredSample>> stored;
    std::string dead_endpoint;
    for (Work& w : batch) {
      // The model's endpoint failing sample after sample the same way stops the run.
      endpoint_failures_ = w.endpoint_error.empty() ? 0 : endpoint_failures_ + 1;
      if (endpoint_failures_ == kDeadEndpointRun) dead_endpoint = w.endpoint_error;
      const bool failed = !w.record["error"].is_null();
      stored.push_back({w.position, StoredSample{task_.dataset.samples.id(w.position), std::move(w.record), failed,
                                                 std::move(w.inputs)}});
      session_.cached_responses += w.cached;
    }
    store_.put_samples(stored);
    for (const auto& [position, sample] : stored) {
      ++session_.samples_run;
      session_.failed += sample.failed;
      if (sample.failed) {
        const json& error = sample.record["error"];
        const std::string example = sample.id + ": " + error.value("message", std::string());
        if (session_.first_error.empty()) session_.first_error = example;
        auto& kind = session_.failures[fmt::format("{} ({})", error.value("stage", "?"), error.value("category", "?"))];
        if (kind.count++ == 0) kind.first = example;
        last_failure_ = example;
        ++failed_at_[error.value("stage", "?")];
        store_.log({{"event", "sample_failed"}, {"position", position}, {"id", sample.id}, {"error", sample.record["error"]}});
      }
    }
    done_ += stored.size();
    if (dead_endpoint.empty()) return progress_.update(done_, session_.failed, detail());
    progress_.finish(done_, session_.failed, detail());
    throw Error(ErrorCategory::network,
                fmt::format("{} ({} samples in a row failed so, and the run stopped; once that is fixed, "
                            "`aeval run --resume {}` continues it)",
                            dead_endpoint, kDeadEndpointRun, store_.file().parent_path().string()));
  }

  void finish() { progress_.finish(done_, session_.failed, detail()); }

 private:
  std::string detail() const {
    std::string d = fmt::format("{} cached", session_.cached_responses);
    for (const auto& [stage, count] : failed_at_) d += fmt::format(", failed at {}: {}", stage, count);
    // The latest failure's cause, so that a run failing sample after sample says why while it goes on.
    if (!last_failure_.empty()) {
      std::size_t cut = std::min<std::size_t>(last_failure_.size(), 100);
      while (cut < last_failure_.size() && (static_cast<unsigned char>(last_failure_[cut]) & 0xC0) == 0x80) --cut;
      d += ", last: " + last_failure_.substr(0, cut) + (cut < last_failure_.size() ? "..." : "");
    }
    return d;
  }

  RunStore& store_;
  const LoadedTask& task_;
  Session& session_;
  Progress& progress_;
  std::size_t done_;                             // of the run's samples, earlier sessions' included
  std::map<std::string, std::size_t> failed_at_;  // stage → failures
  std::string last_failure_;                      // "ID: message" of the latest failed sample
  int endpoint_failures_ = 0;                     // samples in a row failed by models::EndpointError
};

// Runs every position not yet stored, stored as failed or in `again`, storing each as it finishes.
Session execute(RunStore& store, const Positions& positions, const std::set<std::size_t>& again,
                const LoadedTask& task, const json& model_identity, const RunOptions& options, const std::string& label) {
  Session session;
  session.started = utc_now();
  session.command_line = options.command_line;
  session.concurrency = std::max(1, options.jobs > 0 ? options.jobs : task.model->max_concurrency());
  const auto stored = store.states();
  record_session_start(store, session, stored.size());
  PositionsToRun todo(positions, [&stored, &again](std::size_t p) {
    const auto it = stored.find(p);
    return it == stored.end() || it->second.failed || again.count(p) > 0;
  });
  if (todo.empty()) return session;

  std::unique_ptr<ResponseCache> cache;
  if (options.use_cache) cache = std::make_unique<ResponseCache>(ResponseCache::default_file());
  task.scoring->use_cache(cache.get());
  struct Detach {
    ScoringModels& scoring;
    ~Detach() { scoring.use_cache(nullptr); }
  } detach{*task.scoring};
  Progress progress(label, positions.size(), options.log);
  SessionRecorder recorder(store, task, session, progress, positions.size() - todo.size());
  InferenceSteps steps(task, model_identity, cache.get(), store.file().parent_path());
  Scheduler scheduler(*task.model, steps, std::move(todo), std::size_t(session.concurrency));
  scheduler.run([&](std::deque<Work> batch) { recorder.take(std::move(batch)); });
  recorder.finish();
  return session;
}

void print_notes(const LoadedTask& task, std::FILE* log) {
  if (!log) return;
  for (const auto& note : task.dataset.notes) std::fprintf(log, "note: %s\n", note.c_str());
  for (const auto& p : task.post_process)
    for (const auto& note : p.notes) std::fprintf(log, "note: %s\n", note.c_str());
}

// Resuming with another configuration would mix results in one run.
void refuse_changed_configuration(const RunStore& store, const json& provenance, const std::filesystem::path& run_dir) {
  const auto recorded = store.meta("provenance");
  if (!recorded || *recorded == provenance) return;
  std::string changed;
  for (const auto& [key, value] : provenance.items())
    if (!recorded->contains(key) || (*recorded)[key] != value) changed += (changed.empty() ? "" : ", ") + key;
  throw Error(ErrorCategory::config,
              fmt::format("{}: the configuration changed since this run began ({}); resuming would mix results. "
                          "Start a new run instead.",
                          run_dir.string(), changed));
}

// The finished samples whose row or audio differs from what they were run on
// (the dataset was edited since): resuming would mix two versions of it.
std::set<std::size_t> changed_inputs(const RunStore& store, const Positions& positions,
                                     const LoadedTask& task) {
  const auto stored = store.states();
  std::set<std::size_t> changed;
  for (std::size_t p : positions) {
    const auto it = stored.find(p);
    if (it == stored.end() || it->second.failed || it->second.inputs.empty()) continue;
    const Sample sample = task.dataset.samples[p];
    std::string now;
    try {
      now = sample_inputs(sample, task.prompt.render(sample)).fingerprint;
    } catch (const Error&) {  // its prompt no longer renders: changed too
    }
    if (now != it->second.inputs || sample.id != it->second.id) changed.insert(p);
  }
  return changed;
}

void refuse_changed_inputs(const std::set<std::size_t>& changed, const LoadedTask& task,
                           const std::filesystem::path& run_dir) {
  if (changed.empty()) return;
  std::vector<std::string> ids;
  for (std::size_t p : changed) {
    if (ids.size() == 10) {
      ids.push_back(fmt::format("and {} more", changed.size() - 10));
      break;
    }
    ids.push_back(task.dataset.samples.id(p));
  }
  throw Error(ErrorCategory::data,
              fmt::format("{}: {} finished sample{} changed since {} run (reference, fields or audio bytes): {}. "
                          "Resuming would mix two versions of the dataset; add --rerun-changed to run exactly "
                          "those again, or start a new run.",
                          run_dir.string(), changed.size(), changed.size() == 1 ? "" : "s",
                          changed.size() == 1 ? "it was" : "they were", fmt::join(ids, ", ")));
}

// An evaluator comparing with references that no sample has would score every
// sample against nothing: stop before any inference, naming what the rows hold.
void refuse_missing_references(const LoadedTask& task, const Positions& positions,
                               const std::string& dataset) {
  for (const auto& e : task.evaluators) {
    if (!e->compares_with_references()) continue;
    const std::string& field = e->references_field;
    const auto has = [&](const Sample& s) {
      return field.empty() ? s.reference.has_value() : s.fields.is_object() && s.fields.contains(field);
    };
    std::set<std::string> fields;
    for (std::size_t p : positions) {
      const Sample s = task.dataset.samples[p];
      if (has(s)) return;
      if (s.fields.is_object())
        for (const auto& [key, value] : s.fields.items()) fields.insert(key);
    }
    throw Error(ErrorCategory::data,
                fmt::format("no sample of dataset '{}' has {} that evaluator '{}' compares with; the rows have the "
                            "fields {}{}",
                            dataset, field.empty() ? "a reference text" : "the field '" + field + "'", e->name,
                            fmt::join(fields, ", "),
                            field.empty() ? " (a jsonl dataset's text_field argument names the reference field)" : ""));
  }
}

RunResult run_in(const std::filesystem::path& run_dir, const Registry& registry, const Invocation& inv,
                 const RunOptions& options, bool resuming) {
  LoadedTask task = LoadedTask::load(registry, inv.task, true);
  print_notes(task, options.log);
  const auto positions = select_positions(task.dataset, inv);
  if (positions.empty())
    throw Error(ErrorCategory::data, fmt::format("dataset '{}' has no samples for this run (limit {}, shard {}/{})",
                                                 inv.task.dataset, inv.limit, inv.shard.index, inv.shard.count));
  refuse_missing_references(task, positions, inv.task.dataset);
  const json model_identity = task.model->identity();
  const json prov = provenance(registry, inv, task, model_identity);
  RunStore store(run_dir / "run.sqlite");
  // Held while the run runs, so `aeval view` tells a running run from one that was stopped, and a second session of
  // the same run is refused. A file of its own: closing any descriptor of run.sqlite would drop SQLite's own locks.
  if (FileLock::held(session_lock_file(run_dir)))
    throw Error(ErrorCategory::config, fmt::format("{} is running in another aeval process now; resume it once that "
                                                   "one has stopped", run_dir.string()));
  const FileLock running(session_lock_file(run_dir));
  std::set<std::size_t> changed;
  if (resuming) {
    refuse_changed_configuration(store, prov, run_dir);
    changed = changed_inputs(store, positions, task);
    if (!options.rerun_changed) refuse_changed_inputs(changed, task, run_dir);
  }
  store.set_meta("invocation", inv.to_json());
  store.set_meta("provenance", prov);
  // How many samples this run covers, for `aeval status` (which reads stores without loading datasets).
  store.set_meta("planned_samples", positions.size());
  store.log({{"event", resuming ? "resume" : "start"}, {"command_line", options.command_line}});
  if (options.on_run_folder) options.on_run_folder(run_dir);
  for (std::size_t p : changed)
    store.log({{"event", "inputs_changed"}, {"position", p}, {"id", task.dataset.samples.id(p)}});
  // The model's own events (a process's stderr) go to this run's log while the store lives.
  task.model->set_log([&store](const json& event) { store.log(event); });
  struct Detach {
    std::unique_ptr<models::Model>& model;
    ~Detach() {
      if (model) model->set_log(nullptr);
    }
  } detach{task.model};
  // So do the decoders' own messages about the files it reads (mpg123 on a damaged MP3).
  const detail::ScopedDecoderMessageSink decoder_messages(
      [&store](const std::filesystem::path& file, const std::string& library, const std::string& message) {
        store.log({{"event", "decoder_message"}, {"file", file.string()}, {"library", library}, {"message", message}});
      });
  const auto start = std::chrono::steady_clock::now();
  Session session = execute(store, positions, changed, task, model_identity, options, inv.task.name);
  session.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  store.log({{"event", "finish"}, {"samples_run", session.samples_run}, {"failed", session.failed}});
  // Aggregation needs neither the model nor the dataset's rows: they go first (a million-sample run would hold a
  // model's index of answers and the rows beside the statistics), the model's process stopped and its log closed.
  task.model->set_log(nullptr);
  task.model.reset();
  task.dataset.samples = datasets::SampleList();
  return write_run_files(run_dir, store, positions, task, prov, session);
}

// A new run that stopped before storing any sample leaves nothing behind: its
// folder goes, and the task's and model's folders with it when they are left empty.
void remove_if_nothing_stored(const std::filesystem::path& run_dir, const std::filesystem::path& output_root) {
  std::error_code error;
  if (std::filesystem::exists(run_dir / "run.sqlite", error) && RunStore(run_dir / "run.sqlite").counts().stored > 0)
    return;
  std::filesystem::remove_all(run_dir, error);
  for (auto folder = run_dir.parent_path(); folder != output_root && folder.has_relative_path();
       folder = folder.parent_path())
    if (!std::filesystem::remove(folder, error)) break;  // not empty (or not there): kept
}

}  // namespace

RunResult run_task(const Registry& registry, const Invocation& invocation, const RunOptions& options) {
  const auto parent = options.output_root / invocation.task.name / invocation.task.model;
  const auto run_dir = parent / new_run_id(parent);
  std::filesystem::create_directories(run_dir);
  try {
    return run_in(run_dir, registry, invocation, options, false);
  } catch (...) {
    remove_if_nothing_stored(run_dir, options.output_root);
    throw;
  }
}

RunResult resume_run(const std::filesystem::path& run_dir, const RunOptions& options) {
  const Invocation invocation = recorded_invocation(run_dir);
  return run_in(run_dir, load_registry(invocation), invocation, options, true);
}

std::filesystem::path latest_run(const std::filesystem::path& output_root) {
  std::filesystem::path best;
  std::filesystem::file_time_type newest{};
  if (std::filesystem::is_directory(output_root))
    for (const auto& f : std::filesystem::recursive_directory_iterator(output_root))
      if (f.path().filename() == "run.sqlite" && (best.empty() || f.last_write_time() > newest))
        best = f.path().parent_path(), newest = f.last_write_time();
  if (best.empty()) throw Error(ErrorCategory::data, fmt::format("no run to resume under {}", output_root.string()));
  return best;
}

}  // namespace aeval::pipeline
