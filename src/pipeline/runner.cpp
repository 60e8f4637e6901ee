#include "aeval/pipeline/runner.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>

#include "aeval/atomic_file.hpp"
#include "aeval/error.hpp"
#include "aeval/pipeline/progress.hpp"
#include "aeval/version.hpp"

namespace aeval::pipeline {

namespace {

struct SampleResult {
  nlohmann::json record;
  std::vector<metrics::EditCounts> counts;  // one per evaluator
  bool failed = false;
  double audio_seconds = 0, compute_seconds = 0;
};

struct Components {
  Dataset dataset;
  std::unique_ptr<models::Model> model;
  std::vector<TextTransform> post_process;
  std::vector<ErrorRateEvaluator> evaluators;
};

nlohmann::json yaml_to_json(const YAML::Node& node) {
  if (node.IsMap()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& item : node) out[item.first.as<std::string>()] = yaml_to_json(item.second);
    return out;
  }
  if (node.IsSequence()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : node) out.push_back(yaml_to_json(item));
    return out;
  }
  if (node.IsScalar()) return node.as<std::string>();
  return nullptr;
}

nlohmann::json entry_json(const Registry& registry, Kind kind, const std::string& name) {
  if (kind == Kind::dataset && !registry.contains(kind, name)) return {{"manifest", name}};
  const Entry& e = registry.get(kind, name);
  return {{"name", e.name}, {"class", e.class_id}, {"args", yaml_to_json(e.args)}, {"file", e.file.string()}};
}

std::string new_run_id(const std::filesystem::path& parent) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
  std::string id = stamp;
  for (int n = 2; std::filesystem::exists(parent / id); ++n) id = std::string(stamp) + "-" + std::to_string(n);
  return id;
}

SampleResult evaluate_sample(const Sample& sample, Components& c) {
  SampleResult r;
  r.record = {{"id", sample.id}, {"audio", sample.audio.string()}, {"reference", sample.reference}};
  try {
    models::Request request;
    request.sample_id = sample.id;
    request.audio.push_back(load_mono(sample.audio, c.model->input_sample_rate()));
    r.audio_seconds = request.audio.front().seconds();
    const models::Response response = c.model->infer(request);
    r.compute_seconds = response.compute_seconds;
    std::string reference = sample.reference, prediction = response.text;
    for (const auto& t : c.post_process) {
      reference = t.apply(reference);
      prediction = t.apply(prediction);
    }
    r.record["prediction"] = response.text;
    r.record["reference_normalized"] = reference;
    r.record["prediction_normalized"] = prediction;
    nlohmann::json scores = nlohmann::json::object();
    for (const auto& evaluator : c.evaluators) {
      const metrics::EditCounts counts = evaluator.count(reference, prediction);
      r.counts.push_back(counts);
      scores[evaluator.name] = {{"value", metrics::error_rates(counts).wer},
                                {"hits", counts.hits},
                                {"substitutions", counts.substitutions},
                                {"deletions", counts.deletions},
                                {"insertions", counts.insertions},
                                {"reference_tokens", counts.ref_tokens}};
    }
    r.record["scores"] = scores;
    r.record["audio_seconds"] = r.audio_seconds;
    r.record["error"] = nullptr;
  } catch (const Error& e) {
    r.failed = true;
    r.record["error"] = {{"category", to_string(e.category())}, {"message", e.what()}};
  } catch (const std::exception& e) {
    r.failed = true;
    r.record["error"] = {{"category", "internal"}, {"message", e.what()}};
  }
  return r;
}

}  // namespace

RunResult run_task(const Registry& registry, const TaskSpec& task, const RunOptions& options) {
  Components c;
  c.dataset = load_dataset(registry, task.dataset);
  c.model = load_model(registry, task.model);
  for (const auto& name : task.post_process) c.post_process.push_back(load_post_process(registry, name));
  for (const auto& name : task.evaluators) c.evaluators.push_back(load_evaluator(registry, name));
  for (const auto& note : c.dataset.notes) std::fprintf(options.log, "note: %s\n", note.c_str());
  for (const auto& t : c.post_process)
    for (const auto& note : t.notes) std::fprintf(options.log, "note: %s\n", note.c_str());

  std::vector<Sample>& samples = c.dataset.samples;
  if (options.limit && samples.size() > options.limit) samples.resize(options.limit);
  if (samples.empty()) throw Error(ErrorCategory::data, "dataset '" + task.dataset + "' has no samples");

  const auto parent = options.output_root / task.name / task.model;
  RunResult result;
  result.run_dir = parent / new_run_id(parent);
  std::filesystem::create_directories(result.run_dir);
  std::ofstream samples_out(result.run_dir / "samples.jsonl", std::ios::binary);
  if (!samples_out) throw Error(ErrorCategory::data, (result.run_dir / "samples.jsonl").string() + ": cannot write");

  const auto start = std::chrono::steady_clock::now();
  const int jobs = std::max(1, options.jobs > 0 ? options.jobs : c.model->max_concurrency());
  std::vector<std::optional<SampleResult>> slots(samples.size());
  std::mutex mutex;
  std::condition_variable ready;
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < jobs; ++w) {
    workers.emplace_back([&] {
      for (std::size_t i; (i = next.fetch_add(1)) < samples.size();) {
        SampleResult r = evaluate_sample(samples[i], c);
        std::lock_guard lock(mutex);
        slots[i] = std::move(r);
        ready.notify_one();
      }
    });
  }

  // Write in dataset order as results arrive, so the file is the same
  // whatever the concurrency and holds every finished sample at any moment.
  Progress progress(task.name, samples.size(), options.log);
  std::vector<metrics::EditCounts> totals(c.evaluators.size());
  std::size_t failed = 0;
  double audio_seconds = 0, compute_seconds = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    SampleResult r;
    {
      std::unique_lock lock(mutex);
      ready.wait(lock, [&] { return slots[i].has_value(); });
      r = std::move(*slots[i]);
      slots[i].reset();
    }
    samples_out << r.record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    samples_out.flush();
    if (r.failed) {
      ++failed;
    } else {
      for (std::size_t e = 0; e < totals.size(); ++e) totals[e] += r.counts[e];
      audio_seconds += r.audio_seconds;
      compute_seconds += r.compute_seconds;
    }
    progress.update(i + 1, failed);
  }
  for (auto& w : workers) w.join();
  progress.finish(samples.size(), failed);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  nlohmann::json metrics_json = nlohmann::json::object();
  for (std::size_t e = 0; e < c.evaluators.size(); ++e) {
    const auto& t = totals[e];
    const auto rates = metrics::error_rates(t);
    metrics_json[c.evaluators[e].name] = {
        {"value", rates.wer}, {"mer", rates.mer}, {"wil", rates.wil}, {"wip", rates.wip},
        {"hits", t.hits}, {"substitutions", t.substitutions}, {"deletions", t.deletions},
        {"insertions", t.insertions}, {"reference_tokens", t.ref_tokens}, {"hypothesis_tokens", t.hyp_tokens},
        {"samples_scored", samples.size() - failed}};
  }
  nlohmann::json post_process = nlohmann::json::array(), evaluators = nlohmann::json::array();
  for (const auto& t : c.post_process) post_process.push_back(t.identity);
  for (const auto& e : c.evaluators) evaluators.push_back(e.identity());
  nlohmann::json resolved = task.to_json();
  resolved["entries"] = {{"dataset", entry_json(registry, Kind::dataset, task.dataset)},
                         {"model", entry_json(registry, Kind::model, task.model)}};
  for (const auto& name : task.post_process)
    resolved["entries"]["post_process"].push_back(entry_json(registry, Kind::post_process, name));
  for (const auto& name : task.evaluators)
    resolved["entries"]["evaluators"].push_back(entry_json(registry, Kind::evaluator, name));

  result.summary = {
      {"task", task.name},
      {"model", task.model},
      {"dataset", c.dataset.name},
      {"run_id", result.run_dir.filename().string()},
      {"metrics", metrics_json},
      {"counts", {{"samples", samples.size()}, {"succeeded", samples.size() - failed}, {"failed", failed}}},
      {"fail_rate", double(failed) / double(samples.size())},
      {"elapsed_seconds", elapsed},
      {"audio_seconds", audio_seconds},
      {"real_time_factor", audio_seconds > 0 ? compute_seconds / audio_seconds : 0.0},
      {"wall_real_time_factor", audio_seconds > 0 ? elapsed / audio_seconds : 0.0},
      {"concurrency", jobs},
      {"provenance",
       {{"aeval_version", kVersion},
        {"git_commit", kGitCommit},
        {"command_line", options.command_line},
        {"registry", [&] {
           nlohmann::json dirs = nlohmann::json::array();
           for (const auto& d : registry.folders()) dirs.push_back(d.string());
           return dirs;
         }()},
        {"task", resolved},
        {"dataset", c.dataset.description},
        {"model", c.model->identity()},
        {"post_process", post_process},
        {"evaluators", evaluators}}}};
  write_file_atomically(result.run_dir / "summary.json", result.summary.dump(2) + "\n");
  return result;
}

std::string format_summary_table(const nlohmann::json& s) {
  std::string out = fmt::format("{:<8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10}\n", "metric", "corpus", "hits", "subs",
                                "dels", "ins", "ref tokens");
  for (const auto& name_json : s["provenance"]["task"]["evaluators"]) {
    const std::string name = name_json.get<std::string>();
    const auto& m = s["metrics"][name];
    out += fmt::format("{:<8} {:>8.4f} {:>8} {:>8} {:>8} {:>8} {:>10}\n", name, m["value"].get<double>(),
                       m["hits"].get<std::size_t>(), m["substitutions"].get<std::size_t>(),
                       m["deletions"].get<std::size_t>(), m["insertions"].get<std::size_t>(),
                       m["reference_tokens"].get<std::size_t>());
  }
  out += fmt::format("samples {}, failed {} (fail_rate {:.4f}); {:.1f} s of audio in {:.1f} s (model RTF {:.3f})\n",
                     s["counts"]["samples"].get<std::size_t>(), s["counts"]["failed"].get<std::size_t>(),
                     s["fail_rate"].get<double>(), s["audio_seconds"].get<double>(),
                     s["elapsed_seconds"].get<double>(), s["real_time_factor"].get<double>());
  return out;
}

}  // namespace aeval::pipeline
