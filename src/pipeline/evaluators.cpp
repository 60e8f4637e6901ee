// Evaluators: thin adapters from sample records to the metric library.
#include <fmt/format.h>

#include "aeval/error.hpp"
#include "aeval/audio_io.hpp"
#include "aeval/metrics/audio_pair.hpp"
#include "aeval/metrics/bleu.hpp"
#include "aeval/metrics/cider.hpp"
#include "aeval/metrics/match.hpp"
#include "aeval/metrics/meteor.hpp"
#include "aeval/metrics/nltk_bleu.hpp"
#include "aeval/metrics/rouge.hpp"
#include "aeval/metrics/wer.hpp"
#include "registry/args.hpp"
#include "pipeline/evaluator.hpp"
#include "pipeline/post_process.hpp"

namespace aeval::pipeline {

using nlohmann::json;

namespace {

using Records = std::vector<const json*>;

std::vector<std::string> predictions_of(const Records& records) {
  std::vector<std::string> out;
  for (const json* r : records) out.push_back((*r)["prediction_processed"]);
  return out;
}

std::vector<std::vector<std::string>> references_in(const Records& records) {
  std::vector<std::vector<std::string>> out;
  for (const json* r : records) out.push_back((*r)["references_processed"]);
  return out;
}

class ErrorRate : public Evaluator {
 public:
  explicit ErrorRate(bool characters) : characters_(characters) {}
  json score(const Scored& s) const override {
    if (s.references.size() != 1)
      throw Error(ErrorCategory::data, fmt::format("sample '{}': {} needs exactly one reference, got {}", s.sample.id,
                                                   name, s.references.size()));
    const metrics::EditCounts c = characters_ ? metrics::align(metrics::jiwer_chars(s.references[0]),
                                                               metrics::jiwer_chars(s.prediction))
                                              : metrics::align(metrics::jiwer_words(s.references[0]),
                                                               metrics::jiwer_words(s.prediction));
    return {{"value", metrics::error_rates(c).wer}, {"hits", c.hits}, {"substitutions", c.substitutions},
            {"deletions", c.deletions}, {"insertions", c.insertions}, {"reference_tokens", c.ref_tokens},
            {"hypothesis_tokens", c.hyp_tokens}};
  }
  // Summed edits over summed reference tokens, as jiwer computes a corpus.
  json corpus(const Records& records) const override {
    metrics::EditCounts t;
    for (const json* r : records) {
      const json& s = (*r)["scores"][name];
      metrics::EditCounts c;
      c.hits = s["hits"];
      c.substitutions = s["substitutions"];
      c.deletions = s["deletions"];
      c.insertions = s["insertions"];
      c.ref_tokens = s["reference_tokens"];
      c.hyp_tokens = s["hypothesis_tokens"];
      t += c;
    }
    const auto rates = metrics::error_rates(t);
    return {{"value", rates.wer}, {"mer", rates.mer}, {"wil", rates.wil}, {"wip", rates.wip},
            {"hits", t.hits}, {"substitutions", t.substitutions}, {"deletions", t.deletions},
            {"insertions", t.insertions}, {"reference_tokens", t.ref_tokens}, {"hypothesis_tokens", t.hyp_tokens}};
  }
  json identity() const override {
    return {{"name", name}, {"class", "error_rate"}, {"unit", characters_ ? "chars" : "words"},
            {"reference", characters_ ? "jiwer 4.0.0 process_characters (cer_default)"
                                      : "jiwer 4.0.0 process_words (wer_default)"},
            {"corpus", "sum of edits over sum of reference tokens"}};
  }

 private:
  bool characters_;
};

class Match final : public Evaluator {
 public:
  explicit Match(bool exist) : exist_(exist) {}
  json score(const Scored& s) const override {
    return {{"value", exist_ ? metrics::exist_match(s.prediction, s.references)
                             : metrics::exact_match(s.prediction, s.references)}};
  }
  json identity() const override {
    return {{"name", name}, {"class", exist_ ? "exist_match" : "exact_match"},
            {"normalization", "SQuAD: lowercase, ASCII punctuation and articles removed"}, {"corpus", "mean"}};
  }

 private:
  bool exist_;
};

class Bleu final : public Evaluator {
 public:
  explicit Bleu(metrics::BleuOptions o) : options_(std::move(o)) {}
  json score(const Scored& s) const override {
    return {{"value", metrics::sentence_bleu(s.prediction, s.references, options_).score}};
  }
  // sacreBLEU's corpus BLEU; reference streams padded with "" where a sample has fewer references.
  json corpus(const Records& records) const override {
    const auto refs = references_in(records);
    std::size_t streams = 0;
    for (const auto& r : refs) streams = std::max(streams, r.size());
    std::vector<std::vector<std::string>> by_stream(streams, std::vector<std::string>(refs.size()));
    for (std::size_t i = 0; i < refs.size(); ++i)
      for (std::size_t k = 0; k < refs[i].size(); ++k) by_stream[k][i] = refs[i][k];
    const auto b = metrics::corpus_bleu(predictions_of(records), by_stream, options_);
    return {{"value", b.score}, {"format", b.format()},
            {"signature", metrics::bleu_signature(options_, int(streams))}};
  }
  json identity() const override {
    return {{"name", name}, {"class", "bleu"}, {"reference", "sacreBLEU 2.6.0 corpus_bleu"},
            {"tokenize", options_.tokenize}, {"lowercase", options_.lowercase}};
  }

 private:
  metrics::BleuOptions options_;
};

class Meteor final : public Evaluator {
 public:
  json score(const Scored& s) const override {
    std::vector<metrics::Tokens> refs;
    for (const auto& r : s.references) refs.push_back(metrics::lower_split(r));
    return {{"value", metrics::meteor_score(refs, metrics::lower_split(s.prediction), text::default_wordnet())}};
  }
  json identity() const override {
    return {{"name", name}, {"class", "meteor"}, {"reference", "NLTK 3.8 meteor_score, WordNet 3.0"},
            {"wordnet", text::default_wordnet().dir().string()}, {"corpus", "mean"}};
  }
};

class RougeL final : public Evaluator {
 public:
  explicit RougeL(bool stem) : stem_(stem) {}
  json score(const Scored& s) const override {
    return {{"value", metrics::rouge_score_multi(s.references, s.prediction, stem_).rougeL.fmeasure}};
  }
  json identity() const override {
    return {{"name", name}, {"class", "rouge_l"}, {"reference", "rouge-score 0.1.2, max over references"},
            {"use_stemmer", stem_}, {"corpus", "mean"}};
  }

 private:
  bool stem_;
};

class CiderD final : public Evaluator {
 public:
  // Alone, a sample has no corpus idf; its per-sample value is left to the corpus.
  json score(const Scored&) const override { return {{"value", nullptr}}; }
  json corpus(const Records& records) const override {
    std::vector<std::string> candidates;
    for (const auto& p : predictions_of(records)) candidates.push_back(metrics::cider_simple_tokenize(p));
    std::vector<std::vector<std::string>> refs;
    for (const auto& rs : references_in(records)) {
      refs.emplace_back();
      for (const auto& r : rs) refs.back().push_back(metrics::cider_simple_tokenize(r));
    }
    return {{"value", metrics::cider_d(candidates, refs).corpus}};
  }
  json identity() const override {
    return {{"name", name}, {"class", "cider_d"}, {"reference", "pycocoevalcap CIDEr-D (n 4, sigma 6)"},
            {"tokenization", "lowercase, ASCII punctuation removed"}};
  }
};

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
  json identity() const override {
    return {{"name", name}, {"class", "signal"}, {"metric", metric_}, {"sample_rate", options_.sample_rate},
            {"trim", options_.trim}, {"original", "the sample's audio"}, {"corpus", "mean"}};
  }

 private:
  std::string metric_;
  metrics::AudioPairOptions options_;
};

// WER/CER of what an ASR model hears in the output audio: an error rate
// whose hypothesis is the transcript (its corpus is the error rate's).
class AsrErrorRate final : public ErrorRate {
 public:
  AsrErrorRate(std::shared_ptr<ScoringModels> scoring, std::string model, bool against_original, bool characters,
               std::optional<PostProcess> normalizer)
      : ErrorRate(characters), scoring_(std::move(scoring)), model_(std::move(model)),
        against_original_(against_original), normalizer_(std::move(normalizer)) {}

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
    if (normalizer_) {
      heard = normalizer_->apply(heard, s.sample);
      for (auto& r : references) r = normalizer_->apply(r, s.sample);
    }
    out.update(ErrorRate::score(Scored{heard, references, s.sample, s.output_audio, s.earlier}));
    return out;
  }
  json identity() const override {
    json j = ErrorRate::identity();
    j["class"] = "asr_error_rate";
    j["asr_model"] = {{"name", model_}, {"identity", scoring_->identity(model_)}};
    j["against"] = against_original_ ? "original" : "reference";
    j["normalizer"] = normalizer_ ? normalizer_->identity : json(nullptr);
    return j;
  }

 private:
  std::shared_ptr<ScoringModels> scoring_;
  std::string model_;
  bool against_original_;
  std::optional<PostProcess> normalizer_;
};

}  // namespace

json mean_score(const Records& records, const std::string& evaluator, const std::string& key) {
  double sum = 0;
  std::size_t n = 0;
  for (const json* r : records) {
    const json& v = (*r)["scores"][evaluator][key];
    if (v.is_number()) sum += v.get<double>(), ++n;
  }
  return n ? json(sum / double(n)) : json(nullptr);
}

json Evaluator::corpus(const Records& records) const { return {{"value", mean_score(records, name)}}; }

std::vector<std::string> references_of(const Sample& sample, const std::string& references_field) {
  if (references_field.empty()) return {sample.reference};
  const json& f = sample.fields;
  if (!f.is_object() || !f.contains(references_field))
    throw Error(ErrorCategory::data, fmt::format("sample '{}' has no field '{}'", sample.id, references_field));
  const json& v = f[references_field];
  if (v.is_string()) return {v.get<std::string>()};
  std::vector<std::string> out;
  if (v.is_array())
    for (const auto& r : v)
      if (r.is_string()) out.push_back(r);
  if (out.empty() || (v.is_array() && out.size() != v.size()))
    throw Error(ErrorCategory::data,
                fmt::format("sample '{}': field '{}' must be a string or a list of strings", sample.id, references_field));
  return out;
}

ArgSpec references_field_arg() {
  return arg::text("references_field", "",
                   "sample field holding a list of references (default: the sample's reference text)");
}

std::unique_ptr<Evaluator> load_evaluator(const Registry& registry, const std::string& name,
                                          const std::shared_ptr<ScoringModels>& scoring) {
  const auto models = scoring ? scoring : std::make_shared<ScoringModels>(registry);
  auto e = EvaluatorClasses::make(registry.get(Kind::evaluator, name), Kind::evaluator, registry, models);
  e->name = name;
  return e;
}

namespace {

using Made = std::unique_ptr<Evaluator>;
using Scoring = std::shared_ptr<ScoringModels>;

// An evaluator that compares against the sample's references (or a list field).
template <class E>
Made with_references(std::unique_ptr<E> e, const Args& args) {
  e->references_field = args.text("references_field");
  return e;
}

const EvaluatorClasses::Registration kErrorRateClass{
    {Kind::evaluator, "error_rate", "Word or character error rate, jiwer 4.0; corpus = summed edits / reference tokens",
     {arg::choice("unit", "words", {"words", "chars"}, "words or chars")}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      return std::make_unique<ErrorRate>(args.text("unit") == "chars");
    }};

const EvaluatorClasses::Registration kExactMatchClass{
    {Kind::evaluator, "exact_match", "1 when the answer equals a reference after SQuAD normalization; mean = accuracy",
     {references_field_arg()}},
    [](const Args& args, const Registry&, const Scoring&) { return with_references(std::make_unique<Match>(false), args); }};

const EvaluatorClasses::Registration kExistMatchClass{
    {Kind::evaluator, "exist_match", "1 when a reference occurs in the answer as whole words", {references_field_arg()}},
    [](const Args& args, const Registry&, const Scoring&) { return with_references(std::make_unique<Match>(true), args); }};

const EvaluatorClasses::Registration kBleuClass{
    {Kind::evaluator, "bleu", "Corpus BLEU, sacreBLEU 2.6.0",
     {arg::choice("tokenize", metrics::BleuOptions{}.tokenize, {"13a", "intl", "zh", "char", "none"}),
      arg::boolean("lowercase", false), references_field_arg()}},
    [](const Args& args, const Registry&, const Scoring&) {
      metrics::BleuOptions o;
      o.tokenize = args.text("tokenize");
      o.lowercase = args.boolean("lowercase");
      return with_references(std::make_unique<Bleu>(o), args);
    }};

const EvaluatorClasses::Registration kMeteorClass{
    {Kind::evaluator, "meteor", "METEOR, NLTK 3.8 with WordNet 3.0 (mean over samples)", {references_field_arg()}},
    [](const Args& args, const Registry&, const Scoring&) { return with_references(std::make_unique<Meteor>(), args); }};

const EvaluatorClasses::Registration kRougeLClass{
    {Kind::evaluator, "rouge_l", "ROUGE-L F-measure, rouge-score 0.1.2 (mean over samples)",
     {arg::boolean("use_stemmer", true), references_field_arg()}},
    [](const Args& args, const Registry&, const Scoring&) {
      return with_references(std::make_unique<RougeL>(args.boolean("use_stemmer")), args);
    }};

const EvaluatorClasses::Registration kCiderDClass{
    {Kind::evaluator, "cider_d", "CIDEr-D, pycocoevalcap (corpus-level idf)", {references_field_arg()}},
    [](const Args& args, const Registry&, const Scoring&) { return with_references(std::make_unique<CiderD>(), args); }};

const EvaluatorClasses::Registration kSignalClass{
    {Kind::evaluator, "signal",
     "A reference-based signal metric of the model's output audio against the sample's audio (codecs)",
     {arg::required_choice("metric", {"stoi", "estoi", "si-sdr", "si-snr", "snr", "mcd", "mel-l1", "msspec"}),
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
      arg::reference("normalizer", Kind::post_process, "", "a post-process entry applied to both texts"),
      references_field_arg()}},
    [](const Args& args, const Registry& registry, const Scoring& scoring) {
      const std::string normalizer = args.text("normalizer");
      return with_references(
          std::make_unique<AsrErrorRate>(
              scoring, args.text("model"), args.text("against") == "original", args.text("unit") == "chars",
              normalizer.empty() ? std::nullopt : std::optional<PostProcess>(load_post_process(registry, normalizer))),
          args);
    }};

}  // namespace

}  // namespace aeval::pipeline
