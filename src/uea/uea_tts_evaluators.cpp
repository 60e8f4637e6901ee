// UltraEval-Audio's evaluators of a spoken answer: what it says (Seed-TTS-Eval's and Long-TTS-Eval's WER),
// whose voice it is (Simo, CV3 speaker similarity) and the emotion heard in it.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "audio/audio_locator.hpp"
#include "evaluators/evaluator.hpp"
#include "post_process/post_process.hpp"
#include "evaluators/scoring_models.hpp"
#include "uea/uea_evaluator.hpp"
#include "uea/uea_recognizers.hpp"
#include "uea/uea_scoring.hpp"
#include "uea/uea_tts_text.hpp"
#include "registry/args.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::class_spec;
using registry::Entry;
using registry::Kind;
using registry::Registry;

namespace {

using namespace uea_scoring;
using nlohmann::json;

// A scoring model of UEA's (a recognizer, an embedder) run by one of aeval's scripts, where the entry names one
// (`prompt` empty: a recognizer of UEA's own class, asked with its prompt, is UEA's code).
std::string scoring_script_difference(const YAML::Node& args) {
  if (args["prompt"] && args["prompt"].IsScalar() && !args["prompt"].Scalar().empty()) return "";
  const std::string model = args["model"] && args["model"].IsScalar() ? args["model"].Scalar() : "";
  return "aeval's `" + model + "` script (the same weights) in place of UEA's class";
}

// UEA's TTS evaluators name their ASR (model_name, prompt_name) and speaker model by UEA entries; each
// becomes the scoring-model entry that runs the same model the same way (a name the factory checks).
std::optional<YAML::Node> uea_tts_asr(const YAML::Node& uea, const std::filesystem::path&) {
  const auto arg = [&](const char* key) { return uea[key] && uea[key].IsScalar() ? uea[key].Scalar() : std::string(); };
  YAML::Node args;
  const UeaRecognizer recognizer = uea_recognizer(arg("model_name"), arg("prompt_name"));
  args["model"] = recognizer.model;
  if (!recognizer.prompt.empty()) args["prompt"] = recognizer.prompt;
  args["lang"] = arg("lang");
  return args;
}

// The speaker and emotion evaluators name one UEA model (model_name; the evaluator's default when absent).
auto uea_named_model(std::string uea_default) {
  return [uea_default](const YAML::Node& uea, const std::filesystem::path&) -> std::optional<YAML::Node> {
    YAML::Node args;
    args["model"] = uea_scoring_model(uea["model_name"] && uea["model_name"].IsScalar() ? uea["model_name"].Scalar()
                                                                                        : uea_default);
    return args;
  };
}

ArgSpec scoring_model_arg(const char* help) {
  // A name, not a checked reference: UEA's entries name aeval's scoring models, which a registry
  // of UEA's entries alone lacks; the factory checks it in the run's registry.
  return arg::required_text("model", help);
}

std::string scoring_model(const Args& args, const Registry& registry) {
  const std::string model = args.text("model");
  if (!registry.contains(Kind::model, model)) args.fail("model: no model entry '" + model + "' (`aeval list models`)");
  return model;
}

// The audio file a spoken answer was stored in (UEA's extract_audio gives its path): os.path.exists, or
// UEA's AssertionError.
std::string spoken_answer_file(const Value& pred) {
  const std::string path = text::python_str(pred);
  std::error_code missing;
  if (path.empty() || !std::filesystem::exists(path, missing))
    python_error("AssertionError", "must be a valid audio file, but got " + path);
  return path;
}

// A row field the evaluator reads as kwargs[key] (KeyError when absent), as text.
std::string row_text(const json& row, const char* key) {
  if (!row.is_object() || !row.contains(key)) python_error("KeyError", fmt::format("'{}'", key));
  return text_of(Value(row[key]), key);
}

// SeedTTSEvalASRWER (Seed-TTS-Eval's run_wer.py as UEA runs it): the spoken answer's transcript
// (Chinese: to simplified characters) against the row's `text`, punctuation removed but for the
// apostrophe, then Chinese, Japanese, Cantonese, Thai and Korean split into characters, other
// languages lowercased; jiwer's WER of the pair, in percent ("cer%" for the character languages).
const EvaluatorClasses::Registration kSeedTtsAsrWer{
    {Kind::evaluator, "uea-seed-tts-asr-wer",
     "UltraEval-Audio's SeedTTSEvalASRWER: an ASR model's transcript of the spoken answer against the row's text, "
     "normalized as Seed-TTS-Eval does, WER (or CER for zh, ja, yue, th, ko) in percent",
     {scoring_model_arg("the ASR model (a model entry reading audio, e.g. whisper-large-v3-en-cut30s)"),
      recognizer_prompt_arg(), arg::required_text("lang", "the language: en, zh, ja, ko, de, ..."), label_field_arg()},
     {},
     {{"audio_evals.evaluator.seed_tts_eval_asr_wer.SeedTTSEvalASRWER", uea_tts_asr}},
     [](const YAML::Node& args) {
       const std::string script = scoring_script_difference(args), zh = zhconv_difference(lang_of(args) == "zh");
       return script.empty() || zh.empty() ? script + zh : script + "; " + zh;
     }},
    [](const Args& args, const Registry& registry, const Scoring& shared) -> Made {
      const auto scoring = shared ? shared : std::make_shared<ScoringModels>(registry);
      const std::string model = scoring_model(args, registry), lang = args.text("lang");
      const bool uea_class = !args.text("prompt").empty();  // UEA's own recognizer, asked with UEA's prompt
      const Hearing hear = uea_hearing(registry, scoring, model, args.text("prompt"));
      const PostProcess punctuation = load_post_process(registry, "seed-tts-punctuation", scoring);
      const PostProcess simplified = load_post_process(registry, "to-simplified", scoring);
      const bool characters = seed_tts_counts_characters(lang);
      return uea_evaluator(args, [=](const Value& pred, const Value& label, const json& row) -> Value {
        const std::string label_text = row_text(row, "text");
        const std::string audio = spoken_answer_file(pred);
        // UEA asks Whisper for the row's `language` where it has one, else `lang` (not for Chinese): its own class
        // gets that; aeval's recognizer forces `lang`, so a row asking for another is an error.
        json inference_kwargs = json::object();
        if (lang != "zh") {
          const bool own = row.is_object() && row.contains("language");
          inference_kwargs["generate_kwargs"] = {{"language", own ? row["language"] : json(lang)}};
          if (!uea_class && own && row["language"] != lang && !(lang == "en" && row["language"] == "english"))
            throw Error(ErrorCategory::data, fmt::format("the row asks Whisper for language {}, and '{}' forces {}",
                                                         row["language"].dump(), model, lang));
        }
        std::string transcription = hear(audio, inference_kwargs);
        if (lang == "zh" || (row.is_object() && row.contains("language") && row["language"] == "chinese"))
          transcription = simplified.apply(transcription, Sample{});
        const SeedTtsTexts texts = seed_tts_texts(transcription, label_text, lang, punctuation);
        Value result = Value::object();
        result[characters ? "cer%" : "wer%"] = jiwer_pair_wer(texts.truth, texts.hypo) * 100;
        result["transcription"] = transcription;
        result["label_text"] = label_text;
        result["pred"] = audio;
        result["ref"] = label;
        return result;
      });
    }};

// LongTTSEvalASRWER (MGM-Omni's Long-TTS-Eval): the transcript of the answer in 28 s pieces against
// the row's `text` and `text_norm`, each normalized as MGM-Omni does; the lower WER counts (`text`
// on ties), with its reference's word count, which UEA's WeightedAverage weighs by.
const EvaluatorClasses::Registration kLongTtsAsrWer{
    {Kind::evaluator, "uea-long-tts-asr-wer",
     "UltraEval-Audio's LongTTSEvalASRWER: an ASR model's transcript of the spoken answer against the row's text and "
     "text_norm, normalized as MGM-Omni does; the lower WER and its reference's word count",
     {scoring_model_arg("the ASR model (a model entry reading audio, e.g. whisper-large-v3-en-28s)"),
      recognizer_prompt_arg(), arg::required_choice("lang", {"en", "zh"}, "en or zh"), label_field_arg()},
     {},
     {{"audio_evals.evaluator.long_tts_eval_asr_wer.LongTTSEvalASRWER", uea_tts_asr}},
     scoring_script_difference},
    [](const Args& args, const Registry& registry, const Scoring& shared) -> Made {
      const auto scoring = shared ? shared : std::make_shared<ScoringModels>(registry);
      const std::string model = scoring_model(args, registry);
      const Hearing hear = uea_hearing(registry, scoring, model, args.text("prompt"));
      // normalize_text: the chain of the catalog's long-tts-wer-en/zh (registry/evaluators/generation.yaml),
      // checked against the reference's own output (tests/conformance/long_tts_norm_test.cpp).
      const Entry& catalog = registry.get(Kind::evaluator, "long-tts-wer-" + args.text("lang"));
      std::vector<PostProcess> chain;
      for (const auto& name : Args(catalog, class_spec(catalog, Kind::evaluator)).strings("normalizer"))
        chain.push_back(load_post_process(registry, name, scoring));
      return uea_evaluator(args, [=](const Value& pred, const Value& label, const json& row) -> Value {
        const std::string label_text = row_text(row, "text"), label_norm = row_text(row, "text_norm");
        const std::string audio = spoken_answer_file(pred);
        const std::string raw = hear(audio, json::object());
        const auto normalized = [&](std::string text) {
          for (const auto& step : chain) text = step.apply(text, Sample{});
          return text;
        };
        const std::string transcription = normalized(raw);
        const auto scored = [&](const std::string& truth) {
          const std::string t = normalized(truth);
          // len(truth.split(" ")): Python counts the pieces between single spaces
          return std::pair{jiwer_pair_wer(t, transcription), std::count(t.begin(), t.end(), ' ') + 1};
        };
        auto best = scored(label_text);
        if (const auto second = scored(label_norm); second.first < best.first) best = second;
        Value result = Value::object();
        result["wer"] = best.first;
        result["word_count"] = best.second;
        result["transcription"] = raw;
        result["label_text"] = label_text;
        result["pred"] = audio;
        result["ref"] = label;
        return result;
      });
    }};

// Simo: the speaker similarity of the spoken answer to the label's audio (the prompt's voice), WavLM-ECAPA.
const EvaluatorClasses::Registration kSimo{
    {Kind::evaluator, "uea-simo",
     "UltraEval-Audio's Simo: cosine of the speaker embeddings of the spoken answer and the label's audio file (the "
     "voice to clone), as Seed-TTS-Eval's SIM",
     {scoring_model_arg("the speaker embedder (a model entry, e.g. wavlm-ecapa-sim)"), label_field_arg()},
     {},
     {{"audio_evals.evaluator.simo.Simo", uea_named_model("wavlm_large")}},
     scoring_script_difference},
    [](const Args& args, const Registry& registry, const Scoring& shared) -> Made {
      const auto scoring = shared ? shared : std::make_shared<ScoringModels>(registry);
      const std::string model = scoring_model(args, registry);
      return uea_evaluator(args, [=](const Value& pred, const Value& label, const json&) -> Value {
        const std::string answer = text::python_str(pred), voice = text::python_str(label);
        // Where UEA saved the row's audio to a file, aeval names it where it lies (a clip in a Parquet file).
        std::error_code missing;
        if (voice.empty() || !std::filesystem::exists(detail::parse_audio_locator(voice).file, missing))
          python_error("AssertionError", "Label file " + voice + " does not exist");
        Value result = Value::object();
        result["simo"] = speaker_similarity(*scoring, model, answer, voice, "Simo");
        result["pred"] = answer;
        result["ref"] = voice;
        return result;
      });
    }};

// CV3SpeakerSim: the speaker similarity of the spoken answer to the row's audio (WavPath: the voice to
// clone), 3D-Speaker's ERes2Net, as CV3-Eval scores it; UEA's script prints it with six decimals.
const EvaluatorClasses::Registration kCv3SpeakerSim{
    {Kind::evaluator, "uea-cv3-speaker-sim",
     "UltraEval-Audio's CV3SpeakerSim: cosine of the speaker embeddings of the spoken answer and the row's audio "
     "(WavPath), rounded to six decimals as UEA's script prints it",
     {scoring_model_arg("the speaker embedder (a model entry, e.g. eres2net-sv-en)"), label_field_arg()},
     {},
     {{"audio_evals.evaluator.simo.CV3SpeakerSim", uea_named_model("speech_eres2net_sv_en_voxceleb_16k")}},
     scoring_script_difference},
    [](const Args& args, const Registry& registry, const Scoring& shared) -> Made {
      const auto scoring = shared ? shared : std::make_shared<ScoringModels>(registry);
      const std::string model = scoring_model(args, registry);
      return uea_evaluator(args, [=](const Value& pred, const Value&, const json& row) -> Value {
        const std::string answer = text::python_str(pred), voice = row_text(row, "WavPath");
        const double similarity = speaker_similarity(*scoring, model, answer, voice, "CV3SpeakerSim");
        Value result = Value::object();
        result["speaker_sim"] = std::stod(fmt::format("{:.6f}", similarity));  // float(f"{similarity:.6f}")
        result["pred"] = answer;
        result["ref"] = voice;
        return result;
      });
    }};

// CV3EmotionEval: the emotion emotion2vec+ hears in the spoken answer (the first of UEA's nine labels with
// the highest score, the score as UEA's script prints it, four decimals) against the reference emotion. UEA's
// loop that looks for the reference rebinds `label` to the first emotion name, so every answer is compared
// with "angry" and its `ref` is "angry"; `reference: label` takes the first emotion named in the row's label.
const EvaluatorClasses::Registration kCv3Emotion{
    {Kind::evaluator, "uea-cv3-emotion",
     "UltraEval-Audio's CV3EmotionEval: the emotion a recognizer hears in the spoken answer against the reference "
     "emotion (UEA's: always 'angry', a bug of its loop; reference: label reads it from the row's label)",
     {scoring_model_arg("the emotion recognizer (a model entry answering scores per emotion, e.g. emotion2vec-plus-large)"),
      arg::choice("reference", "uea", {"uea", "label"},
                  "uea (every answer against 'angry', as UEA's loop leaves it) or label (the first emotion the row's "
                  "label names)"),
      label_field_arg()},
     {},
     {{"audio_evals.evaluator.cv3_emotion.CV3EmotionEval", uea_named_model("emotion2vec_plus_large")}},
     scoring_script_difference},
    [](const Args& args, const Registry& registry, const Scoring& shared) -> Made {
      const auto scoring = shared ? shared : std::make_shared<ScoringModels>(registry);
      const std::string model = scoring_model(args, registry);
      const bool from_label = args.text("reference") == "label";
      return uea_evaluator(args, [=](const Value& pred, const Value& label, const json&) -> Value {
        static const char* const kEmotions[] = {"angry", "disgusted", "fearful", "happy",    "neutral",
                                                "other", "sad",       "surprised", "unk"};
        const std::string path = text::python_str(pred);
        std::error_code missing;
        if (!std::filesystem::exists(path, missing))
          python_error("AssertionError", "Prediction file " + path + " does not exist");
        std::string reference = kEmotions[0], ref = kEmotions[0];
        if (from_label) {
          ref = text::python_str(label);
          for (const char* emotion : kEmotions)
            if (ref.find(emotion) != std::string::npos) {
              reference = emotion;
              break;
            }
        }
        const models::Response heard = scoring->hear(model, path);
        std::string predicted;
        double best = 0;
        for (const char* emotion : kEmotions) {
          if (!heard.scores.is_object() || !heard.scores.contains(emotion) || !heard.scores[emotion].is_number())
            throw Error(ErrorCategory::model, fmt::format("model '{}' gave no score for '{}' (it gave {})", model,
                                                          emotion, heard.scores.dump()));
          const double score = heard.scores[emotion].get<double>();
          if (predicted.empty() || score > best) predicted = emotion, best = score;  // scores.index(max(scores))
        }
        const int match = predicted == reference ? 1 : 0;
        Value result = Value::object();
        result["emotion_pred"] = predicted;
        result["emotion_ref"] = reference;
        result["emotion_score"] = std::stod(fmt::format("{:.4f}", best));  // the script prints it so
        result["emotion_match"] = match;
        result[reference] = match;
        result["pred"] = path;
        result["ref"] = ref;
        return result;
      });
    }};

}  // namespace

}  // namespace aeval::pipeline
