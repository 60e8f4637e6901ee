#pragma once
// Evaluators: per-sample scores and their corpus value, built from registry entries.
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "aeval/pipeline/sample.hpp"
#include "evaluators/scoring_models.hpp"
#include "evaluators/statistics_table.hpp"
#include "registry/factory.hpp"

namespace aeval::pipeline {

// What an evaluator scores: the processed prediction and references, the
// audio the model produced (codecs, TTS; empty when it produced none), the
// scores of the evaluators listed before it (a judge's decision rule reads
// the judge's score) and the log-probabilities the model returned with its
// answer (null when it returned none).
struct Scored {
  const std::string& prediction;
  const std::vector<std::string>& references;
  const Sample& sample;
  const std::filesystem::path& output_audio;
  const nlohmann::json& earlier;
  const nlohmann::json& logprobs = kNoLogprobs;

  static const nlohmann::json kNoLogprobs;
};

// An evaluator's corpus value from a few numbers per sample (issue 54): `row` reads `width` numbers from a
// sample's record; `value` gives, from the rows of any subset of the samples (`chosen`, in order, may repeat),
// the "value" corpus() gives for those records, digit for digit (nullopt where it gives null). Groups and
// bootstrap resamples then cost a pass over numbers instead of records. `value` may run on several threads.
// `corpus`, where set, gives corpus()'s whole result from the rows of every sample (at least one), so a run
// need not keep the records at all; empty where corpus() reports more than the rows hold. `from_sums`, where set,
// is `value` as a function of the chosen rows' column sums: where every number of a table is an integer, sums
// do not depend on the order they are added in, and a bootstrap resample adds each row times the count of its
// draws (metrics::CountStatistic), the same number without a gather.
struct SampleStatistics {
  using Table = StatisticsTable;  // the rows of every sample, one after another
  std::size_t width = 0;
  std::function<void(const nlohmann::json& record, double* row)> row;
  std::function<std::optional<double>(const Table& table, const std::vector<std::size_t>& chosen)> value;
  std::function<nlohmann::json(const Table& table)> corpus;
  std::function<std::optional<double>(const std::vector<double>& sums)> from_sums;
};

// 0, 1, …: every row of a table of rows `width` numbers wide.
std::vector<std::size_t> every_row(const SampleStatistics::Table& table, std::size_t width);

// The sample records a corpus value is computed over, as written to samples.jsonl.
using Records = std::vector<const nlohmann::json*>;

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Per-sample score: {"value": v, ...details}.
  virtual nlohmann::json score(const Scored& scored) const = 0;
  // Corpus value over sample records (as written to samples.jsonl; only
  // samples without error): the mean of per-sample values unless the metric
  // is defined on the corpus (WER, BLEU, CIDEr).
  virtual nlohmann::json corpus(const Records& records) const;
  // How corpus() follows from numbers per sample: by default the mean of the samples' "value", as corpus()
  // computes it, with corpus() whole. A class overriding corpus() overrides this too (mean_statistics() where
  // only the value is the mean; nullopt: it has none, and aggregation uses the records).
  virtual std::optional<SampleStatistics> statistics() const;
  virtual nlohmann::json identity() const = 0;
  // Whether it compares with the sample's references (or `references_field`);
  // a run stops before inference when no sample has what its evaluators need.
  virtual bool compares_with_references() const { return true; }

  std::string name;
  std::string references_field;  // "" : the sample's reference text
  // Keeps its own corpus value under UltraEval-Audio's aggregations (aeval's evaluator beside UEA's).
  bool own_corpus = false;
};
// Evaluators that need a model (ASR of output audio) take it from `scoring`,
// shared by all evaluators of a run (null: one of their own).
std::unique_ptr<Evaluator> load_evaluator(const registry::Registry& registry, const std::string& name,
                                          const std::shared_ptr<ScoringModels>& scoring = nullptr);

// The mean of scores[evaluator][key] over the records holding a number
// there; null when none does. The corpus value of mean-aggregated metrics.
nlohmann::json mean_score(const Records& records, const std::string& evaluator,
                          const std::string& key = "value");

// mean_score's statistics: (value, 1) for a sample with a number there, (0, 0) for one without; the value
// only (no `corpus`).
SampleStatistics mean_statistics(const std::string& evaluator, const std::string& key = "value");

// A statistic as JSON: null when it is NaN or infinite (JSON has no such numbers).
nlohmann::json number_or_null(double v);

// The argument of evaluators that may compare against a list field.
registry::ArgSpec references_field_arg();

// The sample's reference text; throws aeval::Error (data) when its row had none.
const std::string& reference_text(const Sample& sample);

// The references an evaluator compares against for one sample.
std::vector<std::string> references_of(const Sample& sample, const std::string& references_field);

// Evaluator classes register here (registry/factory.hpp); a factory gets the
// registry (for the entries it names) and the run's scoring models.
using EvaluatorClasses = registry::ClassFactories<std::unique_ptr<Evaluator>, const registry::Registry&, const std::shared_ptr<ScoringModels>&>;

}  // namespace aeval::pipeline
