// UltraEval-Audio's DNSMOS evaluator of a spoken answer.
#include <memory>
#include <optional>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "evaluators/evaluator.hpp"
#include "uea/uea_evaluator.hpp"
#include "uea/uea_scoring.hpp"
#include "dnsmos/dnsmos.hpp"
#include "models/dnsmos_models.hpp"
#include "registry/args.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::Kind;
using registry::Registry;

namespace {

using namespace uea_scoring;
using nlohmann::json;

// DNSMOS (audio_evals/lib/DNSMOS/main.py): the answer's first 9.01 s, zero-padded when shorter, through
// P.835 (regular and personalized) and P.808, with librosa 0.8.1 as UEA pins it; the scores UEA returns,
// and its `pred` as it passes it, {"audio": path}.
std::optional<YAML::Node> uea_dnsmos(const YAML::Node& uea, const std::filesystem::path&) {
  const std::string model = uea["model_name"] && uea["model_name"].IsScalar() ? uea["model_name"].Scalar() : "DNSMOS";
  if (model != "dnsmos") throw Error(ErrorCategory::config, "no DNSMOS entry '" + model + "' in UEA's registry");
  return YAML::Node(YAML::NodeType::Map);
}

const EvaluatorClasses::Registration kUeaDnsmos{
    {Kind::evaluator, "uea-dnsmos",
     "UltraEval-Audio's DNSMOS: P.835 (regular and personalized) and P.808 of the spoken answer's first window, "
     "zero-padded (not the official script's repetition and windows)",
     {arg::path("models_dir", "", "folder of the official ONNX files (default: `aeval fetch model dnsmos`'s cache)"),
      label_field_arg()},
     {},
     {{"audio_evals.evaluator.dnsmos.DNSMOS", uea_dnsmos}}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      const auto models = models::dnsmos_models_dir(args.path("models_dir"));
      dnsmos::Options o;
      o.short_clips = dnsmos::ShortClips::zero_padded;
      o.first_window_only = true;
      const auto regular = std::make_shared<const dnsmos::Scorer>(models, o);
      o.p835 = dnsmos::P835Model::personalized;
      o.p808 = false;
      const auto personalized = std::make_shared<const dnsmos::Scorer>(models, o);
      return uea_evaluator(args, [=](const Value& pred, const Value& label, const json&) -> Value {
        const std::string path = text::python_str(pred);
        const Audio mono = to_mono(decode_audio(path));
        const std::vector<double> samples(mono.samples.begin(), mono.samples.end());
        const std::vector<double> clip = dnsmos::at_16k(samples, mono.sample_rate);  // resampled once for both
        const dnsmos::ClipScores r = regular->score(clip, dnsmos::kSampleRate);
        const dnsmos::ClipScores p = personalized->score(clip, dnsmos::kSampleRate);
        Value result = Value::object();
        result["OVRL"] = r.ovrl;
        result["SIG"] = r.sig;
        result["BAK"] = r.bak;
        result["P808_MOS"] = double(r.p808_mos);
        result["P_SIG"] = p.sig;
        result["P_BAK"] = p.bak;
        result["P_OVRL"] = p.ovrl;
        result["pred"] = Value{{"audio", path}};
        result["ref"] = label;
        return result;
      });
    }};

}  // namespace

}  // namespace aeval::pipeline
