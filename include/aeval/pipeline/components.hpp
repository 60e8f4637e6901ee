#pragma once
// Components built from registry entries: what a task binds together.
// dataset ─► Sample ─► Prompt ─► Request ─► Model ─► PostProcess ─► Evaluator ─► Aggregator
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "aeval/models/model.hpp"
#include "aeval/pipeline/registry.hpp"
#include "aeval/pipeline/sample.hpp"
#include "aeval/pipeline/scoring_models.hpp"
#include "aeval/pipeline/template.hpp"

namespace aeval::pipeline {

// A task: one dataset, an optional prompt, one model, a post-process chain,
// evaluators and aggregators, all by registry name.
struct TaskSpec {
  std::string name;
  std::string dataset, prompt, model;  // prompt "": the sample's audio alone
  std::vector<std::string> post_process, evaluators, aggregators;
  nlohmann::json to_json() const;
  static TaskSpec from_json(const nlohmann::json& j);
};

struct TaskOverrides {
  std::optional<std::string> dataset, prompt, model;
  std::optional<std::vector<std::string>> post_process, evaluators, aggregators;
};

// `task` may be empty when the overrides name a dataset whose default task
// supplies the rest, or name dataset, model and evaluators themselves.
TaskSpec resolve_task(const Registry& registry, const std::string& task, const TaskOverrides& overrides = {});

struct Dataset {
  std::string name;
  std::vector<Sample> samples;
  nlohmann::json description;      // class, source files, counts
  std::vector<std::string> notes;  // things the user should be told (skipped rows)
};

// A registry dataset name, or the path of a JSONL manifest.
Dataset load_dataset(const Registry& registry, const std::string& name_or_path);

// A prompt rendered for one sample: the request's shape (messages or fields,
// audio parts as {"type": "audio", "index": k}) and the audio files it names.
struct RenderedPrompt {
  nlohmann::json shape;
  std::vector<std::filesystem::path> audio;
  // Turns the shape into a model request once the audio is loaded.
  models::Request request(const std::string& sample_id, std::vector<Audio> loaded) const;
};

class Prompt {
 public:
  // name "" is the default prompt: the sample's audio, nothing else.
  static Prompt load(const Registry& registry, const std::string& name);
  RenderedPrompt render(const Sample& sample) const;
  nlohmann::json identity() const;

 private:
  struct Part {
    std::string type;  // text or audio
    Template value;
  };
  struct Message {
    std::string role;
    std::vector<Part> parts;
  };
  std::string name_, class_id_;
  std::vector<Message> messages_;
  std::vector<std::pair<std::string, Template>> fields_;
  nlohmann::json source_;
};

std::unique_ptr<models::Model> load_model(const Registry& registry, const std::string& name);

// A text transform applied to predictions (and, for normalizers, references)
// before scoring.
struct PostProcess {
  std::string name;
  bool references_too = false;
  std::function<std::string(const std::string&, const Sample&)> apply;
  nlohmann::json identity;
  std::vector<std::string> notes;
};
PostProcess load_post_process(const Registry& registry, const std::string& name);

// What an evaluator scores: the processed prediction and references, the
// audio the model produced (codecs, TTS; empty when it produced none), and
// the scores of the evaluators listed before it (a judge's decision rule
// reads the judge's score).
struct Scored {
  const std::string& prediction;
  const std::vector<std::string>& references;
  const Sample& sample;
  const std::filesystem::path& output_audio;
  const nlohmann::json& earlier;
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Per-sample score: {"value": v, ...details}.
  virtual nlohmann::json score(const Scored& scored) const = 0;
  // Corpus value over sample records (as written to samples.jsonl; only
  // samples without error): the mean of per-sample values unless the metric
  // is defined on the corpus (WER, BLEU, CIDEr).
  virtual nlohmann::json corpus(const std::vector<const nlohmann::json*>& records) const;
  virtual nlohmann::json identity() const = 0;

  std::string name;
  std::string references_field;  // "" : the sample's reference text
};
// Evaluators that need a model (ASR of output audio) take it from `scoring`,
// shared by all evaluators of a run (null: one of their own).
std::unique_ptr<Evaluator> load_evaluator(const Registry& registry, const std::string& name,
                                          const std::shared_ptr<ScoringModels>& scoring = nullptr);

// The mean of scores[evaluator][key] over the records holding a number
// there; null when none does. The corpus value of mean-aggregated metrics.
nlohmann::json mean_score(const std::vector<const nlohmann::json*>& records, const std::string& evaluator,
                          const std::string& key = "value");

// The references an evaluator compares against for one sample.
std::vector<std::string> references_of(const Sample& sample, const std::string& references_field);

struct Aggregator {
  std::string name = "corpus";
  std::vector<std::string> group_by;
  int bootstrap = 0;
  double confidence = 0.95;
  std::uint64_t seed = 0;
  // {evaluator: {"value", "interval"?, "groups"?: {field: {group: {"value", "samples"}}}}}
  nlohmann::json aggregate(const std::vector<std::unique_ptr<Evaluator>>& evaluators,
                           const std::vector<const nlohmann::json*>& records) const;
  nlohmann::json identity() const;
};
Aggregator load_aggregator(const Registry& registry, const std::string& name);

}  // namespace aeval::pipeline
