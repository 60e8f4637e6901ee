#pragma once
// Every metric aeval computes, declared once: its name (and the old
// spellings still accepted), what it measures, the reference implementation
// it reproduces, which way is better and how a leaderboard puts it on a
// 0–100 scale. `aeval score`, the evaluators of `aeval run` and programs
// linking the library find metrics here, so a metric computed one way is
// computed that way everywhere.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "aeval/metrics/bleu.hpp"

namespace aeval::metrics {

enum class Better { higher, lower };

// What a metric compares.
enum class MetricInput {
  text,        // hypotheses against references
  numbers,     // numbers in the hypotheses against numbers (or labels) in the references
  audio,       // degraded audio against clean audio
  embeddings,  // .npy embeddings
  audio_alone,  // audio with no reference: DNSMOS, computed by src/dnsmos with the weights the models layer finds
};

// How a leaderboard averages a metric with others: offset + factor·x,
// higher is better. An empty rule leaves the metric out of the average.
struct LeaderboardScale {
  std::string rule;  // shown in the report, e.g. "100 − 100·x"
  double factor = 1, offset = 0;
  double apply(double x) const { return offset + factor * x; }
};

struct MetricInfo {
  std::string name;                  // the one name: "wer", "cider-d", "si-sdr"
  std::vector<std::string> aliases;  // old spellings, accepted with a deprecation note
  std::string summary;               // one line for `aeval score --list`
  std::string reference;             // implementation and version reproduced: "jiwer 4.0.0 process_words (wer_default)"
  MetricInput input = MetricInput::text;
  Better better = Better::higher;
  LeaderboardScale scale;
};

// The parameters of the text metrics, one set for all: each metric reads
// the fields it names in TextMetric::parameters.
struct TextMetricOptions {
  BleuOptions bleu;
  ChrfOptions chrf;
  bool stem = false;  // rouge-l: Porter-stem tokens longer than 3 characters (rouge-score's use_stemmer)
  bool segment_mean = false;  // nltk-bleu: the corpus value is the mean of the segments' (AudioCapBench's)
};

// One parameter of the text metrics, as `aeval run` evaluators take it
// from their registry entry (the CLI spells it --max-ngram-order etc.).
struct TextParameter {
  std::string name;                  // "tokenize"
  std::string meaning;
  std::vector<std::string> choices;  // empty: any value of the default's type
  nlohmann::json (*get)(const TextMetricOptions& options);
  // Throws aeval::Error (config) when the value has the wrong type.
  void (*set)(TextMetricOptions& options, const nlohmann::json& value);
};
const std::vector<TextParameter>& text_parameters();
const TextParameter& text_parameter(std::string_view name);

// hypotheses[i] is scored against references[i] (one or more texts).
struct Segments {
  std::vector<std::string> hypotheses;
  std::vector<std::vector<std::string>> references;
};

// How many references a segment may have.
enum class ReferenceCount {
  one,  // exactly one
  any,  // one or more (BLEU and chrF drop empty ones, as sacreBLEU does)
};

// How a corpus value follows from its segments' results alone (issue 54), so groups and bootstrap resamples
// cost a pass over numbers instead of the texts: the mean of the segments' values (numpy's, over those that
// have one), or a function of the column sums of `width` numbers each result holds. `none`: it needs the texts
// or all of them at once (CIDEr-D's idf, chrF's choice of reference, correlations).
struct CorpusFromSegments {
  enum class Way { none, mean, sums } way = Way::none;
  std::size_t width = 0;
  void (*row)(const nlohmann::json& result, double* row) = nullptr;  // the result as samples.jsonl keeps it
  double (*value)(const std::vector<double>& sums, const TextMetricOptions& options) = nullptr;
  // `corpus`'s whole result from the sums; null where it holds more than they give (sacreBLEU's signature).
  nlohmann::json (*result)(const std::vector<double>& sums, const TextMetricOptions& options) = nullptr;
};

struct TextMetric : MetricInfo {
  std::string key;                      // where results hold the metric's value: "wer", "score", "rougeL"
  std::vector<std::string> parameters;  // TextMetricOptions fields it reads: "tokenize", "stem", ...
  ReferenceCount references = ReferenceCount::any;
  // One segment's result, {key: value, details...}; null when the metric
  // exists only on a corpus (CIDEr-D's idf, correlations).
  nlohmann::json (*segment)(const std::string& hypothesis, const std::vector<std::string>& references,
                            const TextMetricOptions& options) = nullptr;
  // The corpus result, {key: value, details...}, from the segments and
  // their results (summed counts for WER), which it may complete (CIDEr-D
  // fills in each segment's value); null: the mean of the segments' values.
  nlohmann::json (*corpus)(const Segments& segments, std::vector<nlohmann::json>& segment_results,
                           const TextMetricOptions& options) = nullptr;
  // Metrics of numbers (statistics): the corpus result straight from the numbers, which `corpus` reaches
  // after parsing the texts (the Python package calls it with NumPy arrays). Throws aeval::Error (data).
  nlohmann::json (*numbers)(const std::vector<double>& references, const std::vector<double>& hypotheses) = nullptr;
  // How `corpus` follows from the segments' results; null: the mean when `corpus` is null, else none.
  CorpusFromSegments (*from_segments)(const TextMetricOptions& options) = nullptr;

  // Throws aeval::Error (data) naming the first segment without a reference
  // or with more than `references` allows, and when hypotheses and
  // references differ in number.
  void check(const Segments& segments) const;
  // The parameters it reads, with their values: {"tokenize": "13a", ...}.
  nlohmann::json parameter_values(const TextMetricOptions& options) const;
  // `corpus`, or numpy's mean of the segments' values when it is null.
  nlohmann::json corpus_result(const Segments& segments, std::vector<nlohmann::json>& segment_results,
                               const TextMetricOptions& options) const;
  CorpusFromSegments corpus_from_segments(const TextMetricOptions& options) const;
  // Checks, scores every segment and the corpus; fills per_segment when given.
  nlohmann::json score(const Segments& segments, const TextMetricOptions& options,
                       std::vector<nlohmann::json>* per_segment = nullptr) const;
};

const std::vector<TextMetric>& text_metrics();
// Metrics of audio, embeddings: declared here, computed by their own
// functions (audio_pair.hpp, embedding.hpp).
const std::vector<MetricInfo>& signal_metrics();

// A metric by name or alias, null when there is none. When `name` is an
// alias, `renamed` (if given) receives a one-line deprecation note.
const TextMetric* find_text_metric(std::string_view name, std::string* renamed = nullptr);
const MetricInfo* find_metric(std::string_view name, std::string* renamed = nullptr);

// "'rouge' is now called 'rouge-l'; the old name still works but will go away"
std::string renamed_note(std::string_view old_name, const MetricInfo& metric);

}  // namespace aeval::metrics
