// Evaluators of the audio a model produced (codecs, TTS): signal metrics
// against the sample's audio, and the error rate of what an ASR model hears.
#include <fmt/format.h>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "aeval/metrics/audio_pair.hpp"
#include "post_process/post_process.hpp"
#include "evaluators/text_metric_evaluator.hpp"
#include "registry/args.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using registry::Registry;

using nlohmann::json;

namespace {

// A signal metric of the output audio against the sample's own audio.
class SignalMetric final : public Evaluator {
 public:
  SignalMetric(std::string metric, metrics::AudioPairOptions options) : metric_(std::move(metric)), options_(options) {}
  json score(const Scored& s) const override {
    if (s.output_audio.empty())
      throw Error(ErrorCategory::data, fmt::format("sample '{}': {} compares the model's output audio with the sample's, "
                                                   "but the model produced no audio",
                                                   s.sample.id, name));
    if (s.sample.audio.empty())
      throw Error(ErrorCategory::data, fmt::format("sample '{}': {} needs the sample's audio as the original", s.sample.id, name));
    const auto r = metrics::score_audio_pair(metric_, to_mono(decode_audio(s.sample.audio)),
                                             to_mono(decode_audio(s.output_audio)), options_, s.sample.audio.string(),
                                             "the output audio");
    json out = {{"value", r.value}, {"sample_rate", r.sample_rate}};
    if (r.penalty) out["penalty"] = *r.penalty;
    if (!r.notes.empty()) out["notes"] = r.notes;
    return out;
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    return {{"name", name}, {"class", "signal"}, {"metric", metric_}, {"sample_rate", options_.sample_rate},
            {"trim", options_.trim}, {"original", "the sample's audio"}, {"corpus", "mean"}};
  }

 private:
  std::string metric_;
  metrics::AudioPairOptions options_;
};

// The error rate of what an ASR model hears in the output audio: WER/CER of synthesized or
// reconstructed speech. The hypothesis is the transcript; the corpus is its own.
class AsrErrorRate final : public TextMetricEvaluator {
 public:
  AsrErrorRate(std::shared_ptr<ScoringModels> scoring, std::string model, bool against_original,
               const metrics::TextMetric& metric, std::vector<PostProcess> normalizers, bool mean_of_samples,
               bool lowest_of_references, std::string class_id)
      : TextMetricEvaluator(metric, {}, std::move(class_id)),
        scoring_(std::move(scoring)), model_(std::move(model)), against_original_(against_original),
        normalizers_(std::move(normalizers)), mean_of_samples_(mean_of_samples),
        lowest_of_references_(lowest_of_references) {}

  json score(const Scored& s) const override {
    if (s.output_audio.empty())
      throw Error(ErrorCategory::data,
                  fmt::format("sample '{}': {} transcribes the model's output audio, but the model produced none", s.sample.id, name));
    std::string heard = scoring_->transcribe(model_, s.output_audio);
    std::vector<std::string> references = s.references;
    std::string original;
    if (against_original_) {
      if (s.sample.audio.empty())
        throw Error(ErrorCategory::data, fmt::format("sample '{}': {} needs the sample's audio", s.sample.id, name));
      original = scoring_->transcribe(model_, s.sample.audio);
      references = {original};
    }
    json out = {{"transcript", heard}};
    if (against_original_) out["original_transcript"] = original;
    for (const auto& normalizer : normalizers_) {
      heard = normalizer.apply(heard, s.sample);
      for (auto& r : references) r = normalizer.apply(r, s.sample);
    }
    if (!lowest_of_references_ || references.size() < 2) {
      out.update(TextMetricEvaluator::score(Scored{heard, references, s.sample, s.output_audio, s.earlier}));
      return out;
    }
    // Long-TTS-Eval: each reference scored alone; the lowest rate counts, the first on ties.
    json best;
    for (std::size_t k = 0; k < references.size(); ++k) {
      json one = TextMetricEvaluator::score(Scored{heard, {references[k]}, s.sample, s.output_audio, s.earlier});
      if (k == 0 || one["value"].get<double>() < best["value"].get<double>()) {
        best = std::move(one);
        best["reference_index"] = k;
      }
    }
    out.update(best);
    return out;
  }
  // The hypotheses are transcripts, not the predictions: the corpus sums the samples' edits, or (as
  // Seed-TTS-Eval reports it) averages the samples' rates.
  json corpus(const Records& records) const override {
    const bool error_rate = metric_.name == "wer" || metric_.name == "cer";
    if (error_rate && !mean_of_samples_) return corpus_of_results(records);
    json value = mean_score(records, name);
    return value.is_null() ? value : json{{"value", value}, {"samples", records.size()}};
  }
  std::optional<SampleStatistics> statistics() const override {
    const bool error_rate = metric_.name == "wer" || metric_.name == "cer";
    return error_rate && !mean_of_samples_ ? TextMetricEvaluator::statistics() : mean_statistics(name);
  }
  bool compares_with_references() const override { return !against_original_; }
  json identity() const override {
    json j{{"name", name}, {"class", class_id_}, {"metric", metric_.name}, {"unit", metric_.name == "cer" ? "chars" : "words"},
           {"reference", metric_.reference}, {"corpus", "sum of edits over sum of reference tokens"}};
    j["asr_model"] = {{"name", model_}, {"identity", scoring_->identity(model_)}};
    j["against"] = against_original_ ? "original" : "reference";
    j["normalizer"] = json::array();
    for (const auto& n : normalizers_) j["normalizer"].push_back(n.identity);
    if (mean_of_samples_ || (metric_.name != "wer" && metric_.name != "cer")) j["corpus"] = "mean of the samples' values";
    if (lowest_of_references_) j["references"] = "the one giving the lowest rate, the first on ties";
    return j;
  }

 private:
  std::shared_ptr<ScoringModels> scoring_;
  std::string model_;
  bool against_original_;
  std::vector<PostProcess> normalizers_;
  bool mean_of_samples_;
  bool lowest_of_references_;
};

using Made = std::unique_ptr<Evaluator>;
using Scoring = std::shared_ptr<ScoringModels>;

// An evaluator that compares against the sample's references (or a list field).
Made with_references(std::unique_ptr<AsrErrorRate> e, const Args& args) {
  e->references_field = args.text("references_field");
  return e;
}

const EvaluatorClasses::Registration kSignalClass{
    {Kind::evaluator, "signal",
     "A reference-based signal metric of the model's output audio against the sample's audio (codecs)",
     {arg::required_choice("metric", metrics::audio_pair_metrics()),
      arg::integer("sample_rate", 0, "compare at this rate (0: the original audio's rate)"),
      arg::boolean("trim", true, "cut both to the shorter signal when lengths differ")}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      const std::string metric = args.text("metric");
      metrics::AudioPairOptions o;
      o.trim = args.boolean("trim");
      o.how_to_trim = fmt::format("the argument trim: true of '{}'", args.entry().name);
      o.sample_rate = args.integer("sample_rate");
      return std::make_unique<SignalMetric>(metric, o);
    }};

const EvaluatorClasses::Registration kAsrErrorRateClass{
    {Kind::evaluator, "asr_error_rate",
     "Error rate of what an ASR model hears in the output audio (codec reconstructions, TTS), against the reference "
     "text or the ASR transcript of the original audio",
     {arg::required_reference("model", Kind::model, "the ASR model (a model entry)"),
      arg::choice("against", "reference", {"reference", "original"},
                  "reference (the sample's text) or original (the original audio's transcript)"),
      arg::choice("unit", "words", {"words", "chars"}, "words or chars"),
      arg::references("normalizer", Kind::post_process, false, "post-process entries applied in order to both texts"),
      arg::choice("corpus", "pooled", {"pooled", "mean"},
                  "pooled (summed edits over summed reference tokens) or mean (of the samples' rates: Seed-TTS-Eval)"),
      arg::choice("references", "one", {"one", "lowest"},
                  "one (a sample has exactly one reference) or lowest (several, each scored alone: the lowest rate "
                  "counts, the first on ties, as Long-TTS-Eval scores its text and text_norm)"),
      references_field_arg()}},
    [](const Args& args, const Registry& registry, const Scoring& scoring) {
      std::vector<PostProcess> normalizers;
      for (const auto& n : args.strings("normalizer")) normalizers.push_back(load_post_process(registry, n, scoring));
      return with_references(
          std::make_unique<AsrErrorRate>(scoring, args.text("model"), args.text("against") == "original",
                                         *metrics::find_text_metric(args.text("unit") == "chars" ? "cer" : "wer"),
                                         std::move(normalizers), args.text("corpus") == "mean",
                                         args.text("references") == "lowest", "asr_error_rate"),
          args);
    }};
// (Summaries written before its identity had a "metric" name it by the unit.)
const report::DeclareIdentityReading kAsrErrorRateReading{"asr_error_rate", error_rate_reading()};

}  // namespace

}  // namespace aeval::pipeline
