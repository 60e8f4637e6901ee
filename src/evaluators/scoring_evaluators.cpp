// Evaluators that ask scoring models about audio (docs/scoring-models.md): a
// predicted MOS (UTMOS and the like), speaker similarity between two clips'
// embeddings (Seed-TTS-Eval's SIM), AudioBERTScore from frame embeddings
// (seed 001), the Fréchet audio distance of the run's outputs, and CLAP-style
// text–audio similarity. Each asks its model once per audio content
// (ScoringModels::hear) and records the model's identity in the provenance.
#include <fmt/format.h>

#include <mutex>

#include "aeval/error.hpp"
#include "aeval/metrics/embedding.hpp"
#include "evaluators/evaluator.hpp"
#include "evaluators/scoring_models.hpp"
#include "registry/args.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::Kind;
using registry::Registry;

using nlohmann::json;

namespace {

using Scoring = std::shared_ptr<ScoringModels>;

// Which audio of a sample: the model's output, the sample's own, or a field naming a file (a prompt's voice).
struct AudioChoice {
  std::string which = "output";

  std::filesystem::path of(const Scored& s, const std::string& evaluator) const {
    std::filesystem::path path;
    if (which == "output") path = s.output_audio;
    else if (which == "sample") path = s.sample.audio;
    else if (s.sample.fields.is_object() && s.sample.fields.contains(which) && s.sample.fields[which].is_string())
      path = s.sample.fields[which].get<std::string>();
    if (path.empty())
      throw Error(ErrorCategory::data,
                  fmt::format("sample '{}': {} needs {}, and there is none", s.sample.id, evaluator,
                              which == "output"   ? "the model's output audio"
                              : which == "sample" ? "the sample's audio"
                                                  : "an audio file in the field '" + which + "'"));
    return path;
  }
};

ArgSpec audio_arg(const char* name, const char* fallback, const char* help) {
  return arg::text(name, fallback, std::string(help) + ": output (the model's audio), sample (the dataset's), or a "
                                                       "field holding an audio path");
}

json model_identity(const Scoring& scoring, const std::string& model) {
  return {{"name", model}, {"identity", scoring->identity(model)}};
}

// How a sample's errors begin.
std::string who(const Scored& s) { return fmt::format("sample '{}'", s.sample.id); }

// ------------------------------------------------------------------ mos

class Mos final : public Evaluator {
 public:
  Mos(Scoring scoring, std::string model, AudioChoice audio, std::string score)
      : scoring_(std::move(scoring)), model_(std::move(model)), audio_(std::move(audio)), score_(std::move(score)) {}

  json score(const Scored& s) const override {
    const models::Response r = scoring_->hear(model_, audio_.of(s, name));
    if (!r.scores.is_object() || !r.scores.contains(score_))
      throw Error(ErrorCategory::model, fmt::format("sample '{}': model '{}' gave no score '{}' (it gave {})", s.sample.id,
                                                    model_, score_, r.scores.is_null() ? "none" : r.scores.dump()));
    json out = r.scores;
    out["value"] = r.scores[score_];
    return out;
  }
  // corpus() adds means of other keys: from statistics, its value only.
  std::optional<SampleStatistics> statistics() const override { return mean_statistics(name); }
  json corpus(const Records& records) const override {
    json value = mean_score(records, name);
    if (value.is_null()) return value;
    json out{{"value", value}};
    if (!records.empty() && (*records.front())["scores"].contains(name))
      for (const auto& [key, v] : (*records.front())["scores"][name].items())
        if (key != "value" && v.is_number()) out[key] = mean_score(records, name, key);
    return out;
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    return {{"name", name}, {"class", "mos"}, {"model", model_identity(scoring_, model_)}, {"audio", audio_.which},
            {"score", score_}, {"corpus", "mean"}, {"scale", {{"rule", "20·x"}, {"factor", 20}}}};
  }

 private:
  Scoring scoring_;
  std::string model_;
  AudioChoice audio_;
  std::string score_;
};

// ------------------------------------------------------------------ speaker similarity

class SpeakerSimilarity final : public Evaluator {
 public:
  SpeakerSimilarity(Scoring scoring, std::string model, AudioChoice audio, AudioChoice against)
      : scoring_(std::move(scoring)), model_(std::move(model)), audio_(std::move(audio)), against_(std::move(against)) {}

  json score(const Scored& s) const override {
    return {{"value", speaker_similarity(*scoring_, model_, audio_.of(s, name), against_.of(s, name), who(s))}};
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    return {{"name", name}, {"class", "speaker_similarity"}, {"model", model_identity(scoring_, model_)},
            {"audio", audio_.which}, {"against", against_.which},
            {"score", "cosine of the two speaker embeddings (torch cosine_similarity, eps 1e-8)"},
            {"corpus", "mean"}, {"scale", {{"rule", "100·x"}, {"factor", 100}}}};
  }

 private:
  Scoring scoring_;
  std::string model_;
  AudioChoice audio_, against_;
};

// ------------------------------------------------------------------ AudioBERTScore

class AudioBertScoreEvaluator final : public Evaluator {
 public:
  AudioBertScoreEvaluator(Scoring scoring, std::string model, AudioChoice audio, AudioChoice against,
                          metrics::AudioBertScoreOptions options)
      : scoring_(std::move(scoring)), model_(std::move(model)), audio_(std::move(audio)), against_(std::move(against)),
        options_(options) {}

  json score(const Scored& s) const override {
    const metrics::Matrix a = embedding_of(scoring_->hear(model_, audio_.of(s, name)), model_, who(s));
    const metrics::Matrix b = embedding_of(scoring_->hear(model_, against_.of(s, name)), model_, who(s));
    check_widths(a, b, false, who(s), model_, "frame embeddings");
    const auto r = metrics::audio_bert_score(a, b, options_);
    return {{"value", r.f1}, {"precision", r.precision}, {"recall", r.recall}};
  }
  // corpus() adds means of other keys: from statistics, its value only.
  std::optional<SampleStatistics> statistics() const override { return mean_statistics(name); }
  json corpus(const Records& records) const override {
    json value = mean_score(records, name);
    if (value.is_null()) return value;
    return {{"value", value}, {"precision", mean_score(records, name, "precision")},
            {"recall", mean_score(records, name, "recall")}};
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    return {{"name", name}, {"class", "audiobertscore"}, {"model", model_identity(scoring_, model_)},
            {"audio", audio_.which}, {"against", against_.which}, {"p", options_.p}, {"lambda", options_.lambda},
            {"arithmetic", options_.arithmetic == metrics::Arithmetic::float32 ? "float32" : "float64"},
            {"score", "F1 of AudioBERTScore (seed 001) over the two clips' frame embeddings"}, {"corpus", "mean"}};
  }

 private:
  Scoring scoring_;
  std::string model_;
  AudioChoice audio_, against_;
  metrics::AudioBertScoreOptions options_;
};

// ------------------------------------------------------------------ FAD

// Each sample keeps its embedding rows in its record (so the corpus value survives a resume);
// the corpus is the Fréchet distance between all output rows and the reference set.
class Fad final : public Evaluator {
 public:
  Fad(Scoring scoring, std::string model, AudioChoice audio, std::filesystem::path reference_statistics)
      : scoring_(std::move(scoring)), model_(std::move(model)), audio_(std::move(audio)),
        reference_statistics_(std::move(reference_statistics)) {}

  json score(const Scored& s) const override {
    const metrics::Matrix output = embedding_of(scoring_->hear(model_, audio_.of(s, name)), model_, who(s));
    json out{{"value", nullptr}, {"embedding", rows_json(output)}};
    if (reference_statistics_.empty()) {
      const metrics::Matrix reference = embedding_of(scoring_->hear(model_, s.sample.audio), model_, who(s));
      check_widths(output, reference, false, who(s), model_, "embeddings");
      out["reference_embedding"] = rows_json(reference);
    } else if (const auto width = std::size_t(output.cols()); width != reference_width()) {
      throw Error(ErrorCategory::model,
                  fmt::format("sample '{}': model '{}' gave embeddings of {} values; the reference statistics {} have {}",
                              s.sample.id, model_, width, reference_statistics_.string(), reference_width()));
    }
    return out;
  }
  std::optional<SampleStatistics> statistics() const override { return std::nullopt; }  // two sets of embeddings
  json corpus(const Records& records) const override {
    const auto set = [&](const char* key) {
      NpyArray rows;
      for (const json* r : records)
        for (const auto& row : (*r)["scores"][name][key]) {
          if (rows.shape.empty()) rows.shape = {0, row.size()};
          if (row.size() != rows.shape[1])
            throw Error(ErrorCategory::model, fmt::format("{}: embeddings of different sizes ({} and {})", name,
                                                          rows.shape[1], row.size()));
          for (const auto& v : row) rows.values.push_back(v.get<double>());
          ++rows.shape[0];
        }
      return rows;
    };
    const NpyArray outputs = set("embedding");
    if (outputs.shape.empty() || outputs.shape[0] < 2) return nullptr;
    const auto reference = reference_statistics_.empty()
                               ? metrics::embedding_statistics(set("reference_embedding"), "the samples' own audio")
                               : metrics::load_statistics(reference_statistics_);
    const auto r = metrics::frechet_distance(metrics::embedding_statistics(outputs, "the outputs"), reference);
    json out{{"value", r.distance}, {"output_rows", outputs.shape[0]}};
    if (!r.warnings.empty()) out["warnings"] = r.warnings;
    return out;
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    return {{"name", name}, {"class", "fad"}, {"model", model_identity(scoring_, model_)}, {"audio", audio_.which},
            {"reference", reference_statistics_.empty() ? "the samples' own audio" : reference_statistics_.string()},
            {"score", "Fréchet distance between the embedding rows of the outputs and of the reference (fadtk)"}};
  }

 private:
  static json rows_json(const metrics::Matrix& m) {
    json rows = json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) rows.push_back(std::vector<double>(m.row(i).begin(), m.row(i).end()));
    return rows;
  }

  // The width of the saved reference statistics, read once.
  std::size_t reference_width() const {
    std::call_once(width_read_, [&] { width_ = std::size_t(metrics::load_statistics(reference_statistics_).mean.size()); });
    return width_;
  }

  Scoring scoring_;
  std::string model_;
  AudioChoice audio_;
  std::filesystem::path reference_statistics_;
  mutable std::once_flag width_read_;
  mutable std::size_t width_ = 0;
};

// ------------------------------------------------------------------ CLAP score

class ClapScore final : public Evaluator {
 public:
  ClapScore(Scoring scoring, std::string model, AudioChoice audio)
      : scoring_(std::move(scoring)), model_(std::move(model)), audio_(std::move(audio)) {}

  json score(const Scored& s) const override {
    const std::string text = references_field.empty() ? reference_text(s.sample) : references_of(s.sample, references_field).at(0);
    const metrics::Matrix a = embedding_of(scoring_->hear(model_, audio_.of(s, name)), model_, who(s));
    const metrics::Matrix t = embedding_of(scoring_->embed_text(model_, text), model_, who(s));
    check_widths(a, t, true, who(s), model_, "audio and text embeddings");
    return {{"value", metrics::cosine_similarity(a.row(0).transpose(), t.row(0).transpose())}};
  }
  json identity() const override {
    return {{"name", name}, {"class", "clap_score"}, {"model", model_identity(scoring_, model_)},
            {"audio", audio_.which}, {"score", "cosine of the audio's and the reference text's embeddings"},
            {"corpus", "mean"}};
  }

 private:
  Scoring scoring_;
  std::string model_;
  AudioChoice audio_;
};

using Made = std::unique_ptr<Evaluator>;

ArgSpec model_arg(const char* what) { return arg::required_reference("model", Kind::model, what); }

const EvaluatorClasses::Registration kMosClass{
    {Kind::evaluator, "mos", "A MOS predicted by a scoring model that answers with scores (UTMOS, ...)",
     {model_arg("a model answering with scores"), audio_arg("audio", "output", "the audio scored"),
      arg::text("score", "mos", "which of the model's scores is the value")}},
    [](const Args& args, const Registry&, const Scoring& scoring) -> Made {
      return std::make_unique<Mos>(scoring, args.text("model"), AudioChoice{args.text("audio")}, args.text("score"));
    }};

const EvaluatorClasses::Registration kSpeakerSimilarityClass{
    {Kind::evaluator, "speaker_similarity",
     "Cosine between speaker embeddings of two clips (Seed-TTS-Eval's SIM: the output against the prompt's voice)",
     {model_arg("a speaker embedder"), audio_arg("audio", "output", "the clip judged"),
      audio_arg("against", "sample", "the voice it should have")}},
    [](const Args& args, const Registry&, const Scoring& scoring) -> Made {
      return std::make_unique<SpeakerSimilarity>(scoring, args.text("model"), AudioChoice{args.text("audio")},
                                                 AudioChoice{args.text("against")});
    }};

const EvaluatorClasses::Registration kAudioBertScoreClass{
    {Kind::evaluator, "audiobertscore",
     "AudioBERTScore (seed 001) of the output against a reference clip, from a model's frame embeddings",
     {model_arg("a frame embedder (seed 001: AST layer 13)"), audio_arg("audio", "output", "the generated clip"),
      audio_arg("against", "sample", "the reference clip"), arg::number("p", 106, "power of the p-norm term"),
      arg::number("lambda", -3.5, "weight of the max-norm term"),
      arg::choice("arithmetic", "float32", {"float32", "float64"}, "float32 as the reference, or exact float64")}},
    [](const Args& args, const Registry&, const Scoring& scoring) -> Made {
      metrics::AudioBertScoreOptions o;
      o.p = args.number("p");
      o.lambda = args.number("lambda");
      o.arithmetic = args.text("arithmetic") == "float64" ? metrics::Arithmetic::float64 : metrics::Arithmetic::float32;
      return std::make_unique<AudioBertScoreEvaluator>(scoring, args.text("model"), AudioChoice{args.text("audio")},
                                                       AudioChoice{args.text("against")}, o);
    }};

const EvaluatorClasses::Registration kFadClass{
    {Kind::evaluator, "fad",
     "Fréchet audio distance of the run's outputs against the samples' own audio or saved reference statistics",
     {model_arg("an embedder (VGGish, PANNs, CLAP, ...)"), audio_arg("audio", "output", "the clips of the set"),
      arg::path("reference_statistics", "",
                "prefix of saved statistics (<prefix>.mu.npy, .sigma.npy: `aeval score fad --save-ref-stats`); "
                "default: the samples' own audio")}},
    [](const Args& args, const Registry&, const Scoring& scoring) -> Made {
      return std::make_unique<Fad>(scoring, args.text("model"), AudioChoice{args.text("audio")},
                                   args.path("reference_statistics"));
    }};

const EvaluatorClasses::Registration kClapScoreClass{
    {Kind::evaluator, "clap_score", "Cosine between a joint embedder's audio and text embeddings (CLAPScore)",
     {model_arg("a text-audio embedder answering text requests too"), audio_arg("audio", "output", "the clip"),
      references_field_arg()}},
    [](const Args& args, const Registry&, const Scoring& scoring) -> Made {
      auto e = std::make_unique<ClapScore>(scoring, args.text("model"), AudioChoice{args.text("audio")});
      e->references_field = args.text("references_field");
      return e;
    }};

}  // namespace

}  // namespace aeval::pipeline
