// DNSMOS of a sample's audio: the model's output (codecs, TTS) or, in a
// dataset-only run, the sample's own. Native networks on the official
// weights (src/dnsmos), loaded once per evaluator and shared by its threads.
#include <fmt/format.h>

#include <cmath>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "dnsmos/dnsmos.hpp"
#include "models/dnsmos_models.hpp"
#include "evaluators/evaluator.hpp"
#include "registry/args.hpp"
#include "report/identity_reading.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using registry::Registry;

using nlohmann::json;

namespace {

class Dnsmos final : public Evaluator {
 public:
  Dnsmos(std::shared_ptr<const dnsmos::Scorer> scorer, bool on_output, std::filesystem::path models, json options)
      : scorer_(std::move(scorer)), on_output_(on_output), models_(std::move(models)), options_(std::move(options)) {}

  json score(const Scored& s) const override {
    const std::filesystem::path& audio = on_output_ ? s.output_audio : s.sample.audio;
    if (audio.empty())
      throw Error(ErrorCategory::data,
                  fmt::format("sample '{}': {} scores the {}, and there is none", s.sample.id, name,
                              on_output_ ? "model's output audio" : "sample's audio"));
    const Audio mono = to_mono(decode_audio(audio));
    const std::vector<double> samples(mono.samples.begin(), mono.samples.end());
    const dnsmos::ClipScores clip = scorer_->score(samples, mono.sample_rate);
    json out = dnsmos::clip_json(clip);
    // The value a leaderboard shows: OVRL for P.835, else P.808's MOS.
    out["value"] = out.contains("OVRL") ? out["OVRL"] : out["P808_MOS"];
    json notes = json::array();
    if (mono.sample_rate != dnsmos::kSampleRate)
      notes.push_back(fmt::format("resampled from {} Hz to 16 kHz (resampy kaiser_best, as the script)", mono.sample_rate));
    if (clip.repeated_samples > clip.samples_16k)
      notes.push_back(fmt::format("{:.2f} s is shorter than a 9.01 s window: repeated to {:.2f} s, as the script does",
                                  double(clip.samples_16k) / dnsmos::kSampleRate,
                                  double(clip.repeated_samples) / dnsmos::kSampleRate));
    if (!notes.empty()) out["notes"] = notes;
    return out;
  }

  // corpus() adds means of other keys: from statistics, its value only.
  std::optional<SampleStatistics> statistics() const override { return mean_statistics(name); }
  // Means over the samples of every score, the value first.
  json corpus(const Records& records) const override {
    json out = mean_score(records, name);
    if (out.is_null()) return out;
    out = json{{"value", out}};
    for (const char* key : {"SIG", "BAK", "OVRL", "P808_MOS"})
      if (const json m = mean_score(records, name, key); !m.is_null()) out[key] = m;
    return out;
  }

  bool compares_with_references() const override { return false; }

  json identity() const override {
    return {{"name", name},
            {"class", "dnsmos"},
            {"reference", "microsoft/DNS-Challenge DNSMOS/dnsmos_local.py @ 591184a (official ONNX weights)"},
            {"audio", on_output_ ? "output" : "sample"},
            {"models", models_.string()},
            {"options", options_},
            {"corpus", "mean"},
            {"scale", {{"rule", "20·x"}, {"factor", 20}}}};
  }

 private:
  std::shared_ptr<const dnsmos::Scorer> scorer_;
  bool on_output_;
  std::filesystem::path models_;
  json options_;
};

const EvaluatorClasses::Registration kDnsmosClass{
    {Kind::evaluator, "dnsmos",
     "DNSMOS P.835 (SIG, BAK, OVRL) and P.808 MOS of the output audio or the sample's, as Microsoft's dnsmos_local.py",
     {arg::choice("audio", "output", {"output", "sample"},
                  "output (the model's audio: codecs, TTS) or sample (the dataset's audio, e.g. with the dataset_only model)"),
      arg::choice("p835", "regular", {"regular", "personalized", "none"}, "the P.835 model (personalized: pDNSMOS)"),
      arg::boolean("p808", true, "also P.808's MOS"),
      arg::choice("p808_features", "librosa-0.8.1", {"librosa-0.8.1", "librosa-0.9"},
                  "P.808's log-mel as the pinned librosa 0.8.1 computes it, or librosa >= 0.9 (up to 0.25 MOS apart)"),
      arg::choice("short_clips", "doubled", {"doubled", "repeated-to-window"},
                  "doubled as the script does, or repeated and cut to one window"),
      arg::choice("window_ends", "float-rounded", {"float-rounded", "exact"},
                  "the script's float-rounded window ends (some windows skipped), or every hop scored"),
      arg::path("models_dir", "", "folder of the official ONNX files (default: `aeval fetch model dnsmos`'s cache)")}},
    [](const Args& args, const Registry&, const std::shared_ptr<ScoringModels>&) -> std::unique_ptr<Evaluator> {
      dnsmos::Options o;
      const std::string p835 = args.text("p835");
      o.p835 = p835 == "regular" ? dnsmos::P835Model::regular
               : p835 == "personalized" ? dnsmos::P835Model::personalized
                                        : dnsmos::P835Model::none;
      o.p808 = args.boolean("p808");
      if (o.p835 == dnsmos::P835Model::none && !o.p808) args.fail("p835: none with p808: false leaves nothing to score");
      o.p808_features = *dnsmos::p808_features_named(args.text("p808_features"));  // one of the declared choices
      o.short_clips = args.text("short_clips") == "doubled" ? dnsmos::ShortClips::doubled
                                                            : dnsmos::ShortClips::repeated_to_window;
      o.window_ends = args.text("window_ends") == "exact" ? dnsmos::WindowEnds::exact : dnsmos::WindowEnds::float_rounded;
      const auto models = models::dnsmos_models_dir(args.path("models_dir"));
      json options = {{"p835", p835}, {"p808", o.p808}, {"p808_features", args.text("p808_features")},
                      {"short_clips", args.text("short_clips")}, {"window_ends", args.text("window_ends")}};
      return std::make_unique<Dnsmos>(std::make_shared<const dnsmos::Scorer>(models, o), args.text("audio") == "output",
                                      models, options);
    }};
// Its metric is the catalog's of its name; its scores are the built-in model's.
const report::DeclareIdentityReading kDnsmosReading{"dnsmos", {{}, "DNSMOS (built in, official weights)"}};

}  // namespace

}  // namespace aeval::pipeline
