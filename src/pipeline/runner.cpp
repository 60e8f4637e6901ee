#include "aeval/pipeline/runner.hpp"

#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <ctime>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <variant>

#include "aeval/atomic_file.hpp"
#include "aeval/error.hpp"
#include "aeval/pipeline/catalog.hpp"
#include "aeval/pipeline/progress.hpp"
#include "aeval/pipeline/response_cache.hpp"
#include "aeval/pipeline/run_store.hpp"
#include "aeval/pipeline/scoring_models.hpp"
#include "aeval/version.hpp"
#include "pipeline/workers.hpp"

namespace aeval::pipeline {

using nlohmann::json;

namespace {

struct Components {
  Dataset dataset;
  Prompt prompt;
  std::unique_ptr<models::Model> model;  // none when scores are recomputed from stored predictions
  std::vector<PostProcess> post_process;
  std::shared_ptr<ScoringModels> scoring;  // models the evaluators use
  std::vector<std::unique_ptr<Evaluator>> evaluators;
  std::vector<Aggregator> aggregators;
};

Components load_components(const Registry& registry, const TaskSpec& task, bool with_model) {
  Components c{load_dataset(registry, task.dataset), Prompt::load(registry, task.prompt), nullptr, {},
                std::make_shared<ScoringModels>(registry), {}, {}};
  if (with_model) c.model = load_model(registry, task.model);
  for (const auto& name : task.post_process) c.post_process.push_back(load_post_process(registry, name));
  for (const auto& name : task.evaluators) c.evaluators.push_back(load_evaluator(registry, name, c.scoring));
  for (const auto& name : task.aggregators) c.aggregators.push_back(load_aggregator(registry, name));
  return c;
}

json entry_json(const Registry& registry, Kind kind, const std::string& name) {
  if (kind == Kind::dataset && is_manifest_path(name)) return {{"manifest", name}};
  const Entry& e = registry.get(kind, name);
  return {{"name", e.name}, {"class", e.class_id}, {"args", yaml_to_json(e.args)}};
}

// Everything that determines a run's numbers; resume refuses to continue
// when it changed.
json provenance(const Registry& registry, const Invocation& inv, const Components& c, const json& model_identity) {
  json entries = {{"dataset", entry_json(registry, Kind::dataset, inv.task.dataset)},
                  {"model", entry_json(registry, Kind::model, inv.task.model)}};
  if (!inv.task.prompt.empty()) entries["prompt"] = entry_json(registry, Kind::prompt, inv.task.prompt);
  for (const auto& n : inv.task.post_process) entries["post_process"].push_back(entry_json(registry, Kind::post_process, n));
  for (const auto& n : inv.task.evaluators) entries["evaluators"].push_back(entry_json(registry, Kind::evaluator, n));
  for (const auto& n : inv.task.aggregators) entries["aggregators"].push_back(entry_json(registry, Kind::aggregator, n));
  json post_process = json::array(), evaluators = json::array(), aggregators = json::array();
  for (const auto& p : c.post_process) post_process.push_back(p.identity);
  for (const auto& e : c.evaluators) evaluators.push_back(e->identity());
  for (const auto& a : c.aggregators) aggregators.push_back(a.identity());
  return {{"aeval_version", kVersion},
          {"task", inv.task.to_json()},
          {"entries", entries},
          {"sets", inv.sets},
          {"selection", {{"limit", inv.limit}, {"shard", fmt::format("{}/{}", inv.shard.index, inv.shard.count)}}},
          {"dataset", c.dataset.description},
          {"prompt", c.prompt.identity()},
          {"model", model_identity},
          {"post_process", post_process},
          {"evaluators", evaluators},
          {"aggregators", aggregators}};
}

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
  return h;
}

// Dataset positions this run covers: the first `limit`, then this shard's ids.
std::vector<std::size_t> select_positions(const Dataset& d, const Invocation& inv) {
  std::vector<std::size_t> out;
  const std::size_t n = inv.limit ? std::min(inv.limit, d.samples.size()) : d.samples.size();
  for (std::size_t i = 0; i < n; ++i)
    if (inv.shard.count == 1 || fnv1a(d.samples[i].id) % std::uint64_t(inv.shard.count) == std::uint64_t(inv.shard.index))
      out.push_back(i);
  return out;
}

// The current UTC time in a strftime format.
std::string utc_now(const char* format = "%Y-%m-%dT%H:%M:%SZ") {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, format, &utc);
  return stamp;
}

std::string new_run_id(const std::filesystem::path& parent, const std::string& suffix = "") {
  const std::string base = utc_now("%Y%m%dT%H%M%SZ") + suffix;
  std::string id = base;
  for (int n = 2; std::filesystem::exists(parent / id); ++n) id = fmt::format("{}-{}", base, n);
  return id;
}

// The sample's own part of its record; fields repeat only what id, audio and
// reference do not already say.
json sample_json(const Sample& s) {
  json fields = s.fields.is_object() ? s.fields : json::object();
  for (const char* key : {"id", "audio", "text"}) fields.erase(key);
  json r = {{"id", s.id}, {"reference", s.reference}, {"fields", fields}};
  if (!s.audio.empty()) r["audio"] = s.audio.string();
  return r;
}

Sample sample_of(const json& record) {
  Sample s;
  s.id = record["id"];
  s.reference = record.value("reference", "");
  s.audio = record.value("audio", "");
  s.fields = record.value("fields", json::object());
  return s;
}

json error_json(const std::string& stage, const std::exception& e) {
  const auto* aeval_error = dynamic_cast<const Error*>(&e);
  return {{"stage", stage}, {"category", aeval_error ? to_string(aeval_error->category()) : "internal"},
          {"message", e.what()}};
}

// Post-processing and scoring of a prediction: the part rescore repeats.
// A record's output_audio is relative to its run directory.
void score_into(json& record, const Sample& sample, const Components& c, const std::filesystem::path& run_dir) {
  try {
    const std::filesystem::path output_audio =
        record.contains("output_audio") ? run_dir / record["output_audio"].get<std::string>() : std::filesystem::path();
    std::string prediction = record["prediction"];
    for (const auto& p : c.post_process) prediction = p.apply(prediction, sample);
    // Each references field once, through the post-processors that apply to references.
    std::map<std::string, std::vector<std::string>> references;
    const auto references_for = [&](const std::string& field) -> const std::vector<std::string>& {
      auto it = references.find(field);
      if (it != references.end()) return it->second;
      std::vector<std::string> refs = references_of(sample, field);
      for (const auto& p : c.post_process)
        if (p.references_too)
          for (auto& r : refs) r = p.apply(r, sample);
      return references.emplace(field, std::move(refs)).first->second;
    };
    record["prediction_processed"] = prediction;
    record["references_processed"] =
        c.evaluators.empty() ? std::vector<std::string>{} : references_for(c.evaluators.front()->references_field);
    json scores = json::object();
    for (const auto& e : c.evaluators) {
      json score = e->score(Scored{prediction, references_for(e->references_field), sample, output_audio, scores});
      scores[e->name] = std::move(score);
    }
    record["scores"] = scores;
    record["error"] = nullptr;
  } catch (const std::exception& e) {
    record.erase("scores");
    record["error"] = error_json("score", e);
  }
}

// The file name of a sample's output audio: its dataset position, which is
// unique and safe whatever characters the id holds.
std::string output_audio_name(std::size_t position) { return fmt::format("outputs/{:06}.wav", position); }

// A sample between its start and its record.
struct Work {
  std::size_t position = 0;
  json record;
  std::string stage = "prompt";  // where a failure happened
  double audio_seconds = 0;
  std::string cache_key;  // empty: this answer is not cached
  bool cached = false;
};

// Renders the sample's prompt and decodes its audio at the model's rate: the
// model's request, or the response the cache already holds for it.
std::variant<models::Request, models::Response> prepare(Work& w, const Sample& sample, const Components& c,
                                                        const json& model_identity, ResponseCache* cache) {
  const RenderedPrompt rendered = c.prompt.render(sample);
  // Audio is decoded even when the response is cached, so a cached re-run
  // writes the same records (audio_seconds) as the first run.
  std::vector<Audio> audio;
  if (c.model->input_sample_rate() > 0) {
    w.stage = "audio";
    if (rendered.audio.empty())
      throw Error(ErrorCategory::data, fmt::format("sample '{}' has no audio for the model (no audio field in its "
                                                   "manifest row, and the prompt names none)",
                                                   sample.id));
    for (const auto& path : rendered.audio) {
      audio.push_back(load_mono(path, c.model->input_sample_rate()));
      w.audio_seconds += audio.back().seconds();
    }
  }
  if (cache && c.model->cacheable()) {
    w.stage = "cache";
    w.cache_key = ResponseCache::key(model_identity, sample.id, rendered.shape, rendered.audio,
                                     c.model->input_sample_rate() > 0);
    if (auto response = cache->get(w.cache_key)) {
      w.cached = true;
      return std::move(*response);
    }
  }
  w.stage = "infer";
  return rendered.request(sample.id, std::move(audio));
}

// The sample's record from the model's response: the response cached, its
// audio written next to the run, then post-processing and scores.
void conclude(Work& w, models::Response response, const Sample& sample, const Components& c, ResponseCache* cache,
              const std::filesystem::path& run_dir) {
  if (!w.cached && !w.cache_key.empty() && !response.audio) cache->put(w.cache_key, response);  // the cache keeps text
  w.record["prediction"] = response.text;
  if (response.audio) {  // codecs, TTS: the audio goes next to the run, the record names it
    w.stage = "output";
    const std::string name = output_audio_name(w.position);
    std::filesystem::create_directories(run_dir / "outputs");
    write_wav(run_dir / name, *response.audio, WavEncoding::float32);
    w.record["output_audio"] = name;
    w.record["output_seconds"] = response.audio->seconds();
  }
  if (!response.logprobs.is_null()) w.record["logprobs"] = response.logprobs;
  w.record["audio_seconds"] = w.audio_seconds;
  score_into(w.record, sample, c, run_dir);
}

// A failure at the sample's current stage, as its record says it.
void record_failure(Work& w, const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    w.record["error"] = error_json(w.stage, e);
  } catch (...) {
    w.record["error"] = error_json(w.stage, std::runtime_error("an exception that is not a std::exception"));
  }
}

struct SessionStats {
  std::string started = utc_now();
  std::size_t run = 0, failed = 0, cached = 0;
  int concurrency = 0;
};

// samples.jsonl and summary.json from the store; run.json with this session.
RunResult finalize(const std::filesystem::path& run_dir, RunStore& store, const std::vector<std::size_t>& positions,
                   const Components& c, const json& provenance_json, const RunOptions& options,
                   const SessionStats& stats, double elapsed) {
  const auto stored = store.samples();
  std::string lines;
  std::vector<const json*> succeeded;
  std::size_t failed = 0;
  double audio_seconds = 0;
  for (std::size_t position : positions) {
    const auto it = stored.find(position);
    if (it == stored.end()) throw Error(ErrorCategory::internal, fmt::format("sample at position {} was never stored", position));
    lines += it->second.record.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    if (it->second.failed) {
      ++failed;
    } else {
      succeeded.push_back(&it->second.record);
      audio_seconds += it->second.record.value("audio_seconds", 0.0);
    }
  }
  write_file_atomically(run_dir / "samples.jsonl", lines);

  json aggregations = json::object();
  for (const auto& a : c.aggregators) aggregations[a.name] = a.aggregate(c.evaluators, succeeded);
  const std::size_t total = positions.size();
  json summary = {{"task", provenance_json["task"]["name"]},
                  {"model", provenance_json["task"]["model"]},
                  {"dataset", provenance_json["task"]["dataset"]},
                  {"metrics", Aggregator{}.aggregate(c.evaluators, succeeded)},
                  {"aggregations", aggregations},
                  {"counts", {{"samples", total}, {"succeeded", total - failed}, {"failed", failed}}},
                  {"fail_rate", total ? double(failed) / double(total) : 0.0},
                  {"audio_seconds", audio_seconds},
                  {"provenance", provenance_json}};
  write_file_atomically(run_dir / "summary.json", summary.dump(2) + "\n");

  json sessions = store.meta("sessions").value_or(json::array());
  sessions.push_back({{"started", stats.started},
                      {"command_line", options.command_line},
                      {"samples_run", stats.run},
                      {"failed", stats.failed},
                      {"cached_responses", stats.cached},
                      {"concurrency", stats.concurrency},
                      {"elapsed_seconds", elapsed},
                      {"aeval_version", kVersion},
                      {"git_commit", kGitCommit}});
  store.set_meta("sessions", sessions);
  const json run = {{"run_id", run_dir.filename().string()}, {"task", summary["task"]}, {"model", summary["model"]},
                    {"audio_seconds", audio_seconds}, {"sessions", sessions}};
  write_file_atomically(run_dir / "run.json", run.dump(2) + "\n");
  return {run_dir, summary};
}

// Runs every position not yet stored (or stored as failed), storing each as it finishes.
SessionStats execute(RunStore& store, const std::vector<std::size_t>& positions, const Components& c,
                     const json& model_identity, const RunOptions& options, const std::string& label) {
  const std::filesystem::path run_dir = store.file().parent_path();
  const auto stored = store.samples();
  std::deque<std::size_t> todo;
  for (std::size_t p : positions)
    if (auto it = stored.find(p); it == stored.end() || it->second.failed) todo.push_back(p);
  SessionStats stats;
  stats.concurrency = std::max(1, options.jobs > 0 ? options.jobs : c.model->max_concurrency());
  if (todo.empty()) return stats;

  const std::size_t total = positions.size(), goal = todo.size(), already = total - goal;
  std::unique_ptr<ResponseCache> cache;
  if (options.use_cache) cache = std::make_unique<ResponseCache>(ResponseCache::default_file());
  c.scoring->use_cache(cache.get());
  struct Detach {
    ScoringModels& scoring;
    ~Detach() { scoring.use_cache(nullptr); }
  } detach{*c.scoring};
  // Workers start samples while fewer than `concurrency` are open, and
  // conclude the samples the model has answered (first, to keep few open).
  // No worker waits on a model that answers asynchronously: its completion
  // queues the answer and the next free worker concludes the sample.
  struct Answer {
    Work work;
    std::exception_ptr error;
    models::Response response;
  };
  std::mutex mutex;
  std::condition_variable work_ready, sample_done;
  std::deque<Answer> answered;
  std::deque<Work> finished;
  std::size_t open = 0;
  bool stop = false;
  const auto open_limit = std::size_t(stats.concurrency);
  const auto end = [&](Work&& w) {
    const std::lock_guard lock(mutex);
    finished.push_back(std::move(w));
    --open;
    sample_done.notify_one();
    if (open == 0 && (todo.empty() || stop))
      work_ready.notify_all();  // the last one: workers leave
    else
      work_ready.notify_one();  // a place to start another
  };
  const auto finish = [&](Work& w, std::exception_ptr error, models::Response response) {
    if (!error) {
      try {
        conclude(w, std::move(response), c.dataset.samples[w.position], c, cache.get(), run_dir);
      } catch (...) {
        error = std::current_exception();
      }
    }
    if (error) record_failure(w, error);
    end(std::move(w));
  };
  const auto start = [&](Work w) {
    const Sample& sample = c.dataset.samples[w.position];
    w.record = sample_json(sample);
    std::variant<models::Request, models::Response> next;
    try {
      next = prepare(w, sample, c, model_identity, cache.get());
    } catch (...) {
      record_failure(w, std::current_exception());
      return end(std::move(w));
    }
    if (auto* cached = std::get_if<models::Response>(&next)) return finish(w, nullptr, std::move(*cached));
    c.model->infer(std::move(std::get<models::Request>(next)),
                   [&, w = std::move(w)](std::exception_ptr error, models::Response response) mutable {
                     const std::lock_guard lock(mutex);
                     answered.push_back({std::move(w), std::move(error), std::move(response)});
                     work_ready.notify_one();
                   });
  };
  const auto work = [&] {
    for (;;) {
      std::unique_lock lock(mutex);
      work_ready.wait(lock, [&] {
        return !answered.empty() || (!stop && !todo.empty() && open < open_limit) || (open == 0 && (todo.empty() || stop));
      });
      if (!answered.empty()) {
        Answer a = std::move(answered.front());
        answered.pop_front();
        if (stop) {  // the run is failing: nothing more is recorded
          if (--open == 0) work_ready.notify_all();
          continue;
        }
        lock.unlock();
        finish(a.work, a.error, std::move(a.response));
      } else if (!stop && !todo.empty() && open < open_limit) {
        Work w;
        w.position = todo.front();
        todo.pop_front();
        ++open;
        lock.unlock();
        start(std::move(w));
      } else {
        return;
      }
    }
  };
  const auto cores = std::size_t(std::max(2u, std::thread::hardware_concurrency()));
  Workers workers(std::min(open_limit, cores), open_limit, work);
  Progress progress(label, total, options.log);
  std::map<std::string, std::size_t> failed_at;  // stage → failures
  const auto detail = [&] {
    std::string d = fmt::format("{} cached", stats.cached);
    for (const auto& [stage, count] : failed_at) d += fmt::format(", failed at {}: {}", stage, count);
    return d;
  };
  try {
    // Whatever finished meanwhile is stored together, in one transaction.
    for (std::size_t done = 0; done < goal;) {
      std::deque<Work> batch;
      {
        std::unique_lock lock(mutex);
        sample_done.wait(lock, [&] { return !finished.empty(); });
        batch.swap(finished);
      }
      std::vector<std::pair<std::size_t, StoredSample>> stored;
      for (Work& w : batch) {
        const bool failed = !w.record["error"].is_null();
        stored.push_back({w.position, StoredSample{c.dataset.samples[w.position].id, std::move(w.record), failed}});
        stats.cached += w.cached;
      }
      store.put_samples(stored);
      for (const auto& [position, sample] : stored) {
        ++stats.run;
        stats.failed += sample.failed;
        if (sample.failed) {
          ++failed_at[sample.record["error"].value("stage", "?")];
          store.log({{"event", "sample_failed"}, {"position", position}, {"id", sample.id}, {"error", sample.record["error"]}});
        }
      }
      done += stored.size();
      progress.update(already + done, stats.failed, detail());
    }
  } catch (...) {
    {
      std::lock_guard lock(mutex);
      stop = true;
      work_ready.notify_all();
    }
    // Inferences still out finish first: their completions use this frame.
    workers.join();
    throw;
  }
  workers.join();
  progress.finish(total, stats.failed, detail());
  return stats;
}

void print_notes(const Components& c, std::FILE* log) {
  if (!log) return;
  for (const auto& note : c.dataset.notes) std::fprintf(log, "note: %s\n", note.c_str());
  for (const auto& p : c.post_process)
    for (const auto& note : p.notes) std::fprintf(log, "note: %s\n", note.c_str());
}

RunResult run_in(const std::filesystem::path& run_dir, const Invocation& inv, const RunOptions& options, bool resuming) {
  const Registry registry = inv.load_registry();
  const Components c = load_components(registry, inv.task, true);
  print_notes(c, options.log);
  const auto positions = select_positions(c.dataset, inv);
  if (positions.empty())
    throw Error(ErrorCategory::data, fmt::format("dataset '{}' has no samples for this run (limit {}, shard {}/{})",
                                                 inv.task.dataset, inv.limit, inv.shard.index, inv.shard.count));
  const json model_identity = c.model->identity();
  const json prov = provenance(registry, inv, c, model_identity);
  RunStore store(run_dir / "run.sqlite");
  if (resuming) {
    const auto recorded = store.meta("provenance");
    if (recorded && *recorded != prov) {
      std::string changed;
      for (const auto& [key, value] : prov.items())
        if (!recorded->contains(key) || (*recorded)[key] != value) changed += (changed.empty() ? "" : ", ") + key;
      throw Error(ErrorCategory::config,
                  fmt::format("{}: the configuration changed since this run began ({}); resuming would mix results. "
                              "Start a new run instead.",
                              run_dir.string(), changed));
    }
  }
  store.set_meta("invocation", inv.to_json());
  store.set_meta("provenance", prov);
  store.log({{"event", resuming ? "resume" : "start"}, {"command_line", options.command_line}});
  // The model's own events (a process's stderr) go to this run's log while the store lives.
  c.model->set_log([&store](const json& event) { store.log(event); });
  struct Detach {
    models::Model& model;
    ~Detach() { model.set_log(nullptr); }
  } detach{*c.model};
  const auto start = std::chrono::steady_clock::now();
  const SessionStats stats = execute(store, positions, c, model_identity, options, inv.task.name);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  store.log({{"event", "finish"}, {"samples_run", stats.run}, {"failed", stats.failed}});
  return finalize(run_dir, store, positions, c, prov, options, stats, elapsed);
}

Invocation invocation_of(const std::filesystem::path& run_dir) {
  const auto file = run_dir / "run.sqlite";
  if (!std::filesystem::exists(file))
    throw Error(ErrorCategory::data, fmt::format("{} is not a run directory (no run.sqlite)", run_dir.string()));
  RunStore store(file);
  const auto inv = store.meta("invocation");
  if (!inv) throw Error(ErrorCategory::data, fmt::format("{}: the run store has no recorded invocation", file.string()));
  return Invocation::from_json(*inv);
}

}  // namespace

Shard parse_shard(const std::string& text) {
  Shard s;
  const auto slash = text.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    std::size_t used = 0;
    s.index = std::stoi(text.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument("index");
    s.count = std::stoi(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) throw std::invalid_argument("count");
  } catch (const std::exception&) {
    throw Error(ErrorCategory::config, fmt::format("--shard '{}' must be I/N, for example 0/4", text));
  }
  if (s.count < 1 || s.index < 0 || s.index >= s.count)
    throw Error(ErrorCategory::config, fmt::format("--shard '{}': need 0 <= I < N", text));
  return s;
}

json Invocation::to_json() const {
  json folders = json::array();
  for (const auto& f : registry) folders.push_back(std::filesystem::absolute(f).string());
  return {{"registry", folders}, {"sets", sets}, {"task", task.to_json()}, {"limit", limit},
          {"shard", {shard.index, shard.count}}};
}

Invocation Invocation::from_json(const json& j) {
  Invocation inv;
  for (const auto& f : j.at("registry")) inv.registry.emplace_back(f.get<std::string>());
  inv.sets = j.at("sets").get<std::vector<std::string>>();
  inv.task = TaskSpec::from_json(j.at("task"));
  inv.limit = j.at("limit");
  inv.shard = {j.at("shard")[0], j.at("shard")[1]};
  return inv;
}

Registry Invocation::load_registry() const {
  Registry r(registry);
  for (const auto& assignment : sets) apply_assignment(r, assignment);
  return r;
}

RunResult run_task(const Invocation& invocation, const RunOptions& options) {
  const auto parent = options.output_root / invocation.task.name / invocation.task.model;
  const auto run_dir = parent / new_run_id(parent);
  std::filesystem::create_directories(run_dir);
  return run_in(run_dir, invocation, options, false);
}

RunResult resume_run(const std::filesystem::path& run_dir, const RunOptions& options) {
  return run_in(run_dir, invocation_of(run_dir), options, true);
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

namespace {

// A new run directory whose samples come from stored records, scored again
// with `c` (rescore) or copied as they are (merge).
// `origins` holds the run directory each sample comes from: its output audio is copied along.
RunResult rebuild(const Invocation& inv, const std::map<std::size_t, StoredSample>& samples,
                  const std::map<std::size_t, std::filesystem::path>& origins, bool rescore, const json& model_identity,
                  const std::filesystem::path& output_root, const std::string& suffix) {
  const Registry registry = inv.load_registry();
  const Components c = load_components(registry, inv.task, false);
  ResponseCache cache(ResponseCache::default_file());
  c.scoring->use_cache(&cache);
  const json prov = provenance(registry, inv, c, model_identity);
  const auto parent = output_root / inv.task.name / inv.task.model;
  const auto run_dir = parent / new_run_id(parent, suffix);
  std::filesystem::create_directories(run_dir);
  RunStore store(run_dir / "run.sqlite");
  store.set_meta("invocation", inv.to_json());
  store.set_meta("provenance", prov);
  std::vector<std::size_t> positions;
  std::vector<std::pair<std::size_t, StoredSample>> stored;
  SessionStats stats;
  for (const auto& [position, s] : samples) {
    StoredSample copy = s;
    if (copy.record.contains("output_audio")) {
      const std::string name = copy.record["output_audio"];
      std::filesystem::create_directories(run_dir / "outputs");
      std::filesystem::copy_file(origins.at(position) / name, run_dir / name,
                                 std::filesystem::copy_options::overwrite_existing);
    }
    if (rescore && copy.record.contains("prediction")) {
      score_into(copy.record, sample_of(copy.record), c, run_dir);
      copy.failed = !copy.record["error"].is_null();
    }
    positions.push_back(position);
    stats.failed += copy.failed;
    stored.emplace_back(position, std::move(copy));
  }
  store.put_samples(stored);
  RunOptions options;
  options.output_root = output_root;
  return finalize(run_dir, store, positions, c, prov, options, stats, 0.0);
}

}  // namespace

RunResult merge_runs(const std::vector<std::filesystem::path>& run_dirs, const std::filesystem::path& output_root) {
  if (run_dirs.empty()) throw Error(ErrorCategory::config, "merge needs at least one run directory");
  std::map<std::size_t, StoredSample> samples;
  std::map<std::size_t, std::filesystem::path> origins;
  Invocation merged;
  json model_identity, reference_provenance;
  for (const auto& dir : run_dirs) {
    Invocation inv = invocation_of(dir);
    RunStore store(dir / "run.sqlite");
    json prov = store.meta("provenance").value_or(json::object());
    const json selection = prov["selection"];
    prov.erase("selection");
    if (reference_provenance.is_null()) {
      reference_provenance = prov;
      merged = inv;
      model_identity = prov["model"];
    } else if (prov != reference_provenance) {
      throw Error(ErrorCategory::config, fmt::format("{} was run with a different configuration than {}; only runs of "
                                                     "the same task, model and settings can be merged",
                                                     dir.string(), run_dirs.front().string()));
    }
    for (auto& [position, s] : store.samples()) {
      if (samples.count(position) && samples[position].id != s.id)
        throw Error(ErrorCategory::data, fmt::format("{}: position {} holds '{}' here and '{}' elsewhere", dir.string(),
                                                     position, s.id, samples[position].id));
      if (!samples.count(position) || samples[position].failed) samples[position] = s, origins[position] = dir;
    }
  }
  merged.shard = {};
  merged.limit = 0;
  return rebuild(merged, samples, origins, false, model_identity, output_root, "-merged");
}

RunResult rescore_run(const std::filesystem::path& run_dir, const TaskOverrides& overrides,
                      const std::filesystem::path& output_root) {
  Invocation inv = invocation_of(run_dir);
  RunStore store(run_dir / "run.sqlite");
  const json model_identity = store.meta("provenance").value_or(json::object())["model"];
  inv.task.post_process = overrides.post_process.value_or(inv.task.post_process);
  inv.task.evaluators = overrides.evaluators.value_or(inv.task.evaluators);
  inv.task.aggregators = overrides.aggregators.value_or(inv.task.aggregators);
  const Registry registry = inv.load_registry();
  for (const auto& name : inv.task.post_process) registry.get(Kind::post_process, name);
  for (const auto& name : inv.task.evaluators) registry.get(Kind::evaluator, name);
  for (const auto& name : inv.task.aggregators) registry.get(Kind::aggregator, name);
  const auto samples = store.samples();
  std::map<std::size_t, std::filesystem::path> origins;
  for (const auto& [position, s] : samples) origins[position] = run_dir;
  return rebuild(inv, samples, origins, true, model_identity, output_root, "-rescored");
}

std::string format_summary_table(const json& s) {
  std::string out = fmt::format("{:<16} {:>10}  {}\n", "metric", "value", "detail");
  for (const auto& [name, m] : s["metrics"].items()) {
    const json& v = m["value"];
    std::string detail;
    if (m.contains("reference_tokens"))
      detail = fmt::format("hits {} subs {} dels {} ins {} ref tokens {}", m["hits"].get<long>(),
                           m["substitutions"].get<long>(), m["deletions"].get<long>(), m["insertions"].get<long>(),
                           m["reference_tokens"].get<long>());
    out += fmt::format("{:<16} {:>10}  {}\n", name, v.is_number() ? fmt::format("{:.4f}", v.get<double>()) : "-", detail);
  }
  for (const auto& [aggregator, metrics] : s["aggregations"].items())
    for (const auto& [name, m] : metrics.items()) {
      if (m.contains("interval"))
        out += fmt::format("{:<16} {:>10}  {:.0f}% interval [{:.4f}, {:.4f}] ({})\n", name, "",
                           100 * m["interval"]["confidence"].get<double>(), m["interval"]["low"].get<double>(),
                           m["interval"]["high"].get<double>(), aggregator);
      if (m.contains("groups"))
        for (const auto& [field, groups] : m["groups"].items())
          for (const auto& [group, g] : groups.items())
            out += fmt::format("{:<16} {:>10}  {}={} ({} samples)\n", name,
                               g["value"].is_number() ? fmt::format("{:.4f}", g["value"].get<double>()) : "-", field,
                               group, g["samples"].get<long>());
    }
  out += fmt::format("samples {}, failed {} (fail_rate {:.4f}); {:.1f} s of audio\n",
                     s["counts"]["samples"].get<std::size_t>(), s["counts"]["failed"].get<std::size_t>(),
                     s["fail_rate"].get<double>(), s["audio_seconds"].get<double>());
  return out;
}

}  // namespace aeval::pipeline
