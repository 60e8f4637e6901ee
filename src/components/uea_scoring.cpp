// UltraEval-Audio's evaluators and aggregations (audio_evals/evaluator/*.py, agg/base.py at
// 9b69da6) as aeval classes, so a UEA task scores as UEA scores it. A UEA evaluator keeps, per
// sample, the dict UEA keeps ({"pred", "ref"} updated with its own keys, in UEA's order); a UEA
// aggregation computes its keys ("wer(%)", "acc(%)", "bleu") from those dicts. Python's
// semantics are kept where they decide a number (str() of labels, float() of numeric labels,
// str.lower/strip, code-point lengths); an exception in an evaluator fails that sample, one in
// an aggregation gives {"error": ...}, as in UEA.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "audio/audio_locator.hpp"
#include "aeval/metrics/bleu.hpp"
#include "aeval/metrics/match.hpp"
#include "aeval/metrics/wer.hpp"
#include "aeval/text/python_values.hpp"
#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "dnsmos/dnsmos.hpp"
#include "models/dnsmos_models.hpp"
#include "components/aggregator.hpp"
#include "components/evaluator.hpp"
#include "components/prompt.hpp"
#include "components/scoring_models.hpp"
#include "components/post_process.hpp"
#include "components/uea_evaluator.hpp"
#include "components/uea_recognizers.hpp"
#include "components/uea_tts_text.hpp"
#include "components/uea_wer.hpp"
#include "registry/args.hpp"
#include "uea/uea_class_process.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::class_spec;
using registry::Entry;
using registry::Kind;
using registry::Registry;
using registry::UeaClass;

namespace {

using Value = nlohmann::ordered_json;
using nlohmann::json;

// Python's float(x) of an answer or label (a number, or text that reads as one).
double python_float(const Value& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_string()) {
    const std::string s = text::strip(v.get<std::string>());
    std::string lowered = text::lower(s);
    for (const char* special : {"nan", "+nan", "-nan"})
      if (lowered == special) return std::nan("");
    for (const char* special : {"inf", "+inf", "infinity", "+infinity"})
      if (lowered == special) return INFINITY;
    if (lowered == "-inf" || lowered == "-infinity") return -INFINITY;
    std::string digits = s;
    digits.erase(std::remove(digits.begin(), digits.end(), '_'), digits.end());
    char* end = nullptr;
    const double d = std::strtod(digits.c_str(), &end);
    if (!digits.empty() && end == digits.c_str() + digits.size() && digits.find_first_of("xXpP") == std::string::npos)
      return d;
    python_error("ValueError", "could not convert string to float: " + text::python_repr(v));
  }
  python_error("TypeError", "float() argument must be a string or a real number");
}

std::string text_of(const Value& v, const char* what) {
  if (!v.is_string()) python_error("AttributeError", fmt::format("'{}' has no string methods ({})", v.type_name(), what));
  return v.get<std::string>();
}

// Python's s[:n] on code points.
std::string prefix(const std::string& s, std::size_t n) {
  const std::u32string u = text::to_u32(s);
  return text::to_utf8(u.substr(0, std::min(n, u.size())));
}

using Made = std::unique_ptr<Evaluator>;
using Scoring = std::shared_ptr<ScoringModels>;

ArgSpec spelling_table_arg() {
  return arg::required_path("spelling_table", "UEA's audio_evals/lib/text_normalization/english.json");
}

// UEA's own arguments, and the spelling table UEA reads from its tree where it normalizes English.
UeaClass uea_class(std::string path, bool spelling = false) {
  if (!spelling) return {std::move(path)};
  return {std::move(path), [](const YAML::Node& uea, const std::filesystem::path& root) -> std::optional<YAML::Node> {
            YAML::Node args = YAML::Clone(uea);
            if (!args.IsMap()) args = YAML::Node(YAML::NodeType::Map);
            args["spelling_table"] = (root / "audio_evals/lib/text_normalization/english.json").string();
            return args;
          }};
}

// What aeval's parts do differently from UEA's (ClassSpec::differs_from_uea), each worded once.
std::string zhconv_difference(bool applies) {
  return applies ? "Chinese made simplified by OpenCC's t2s, not zhconv's zh-cn" : "";
}

// A scoring model of UEA's (a recognizer, an embedder) run by one of aeval's scripts, where the entry names one
// (`prompt` empty: a recognizer of UEA's own class, asked with its prompt, is UEA's code).
std::string scoring_script_difference(const YAML::Node& args) {
  if (args["prompt"] && args["prompt"].IsScalar() && !args["prompt"].Scalar().empty()) return "";
  const std::string model = args["model"] && args["model"].IsScalar() ? args["model"].Scalar() : "";
  return "aeval's `" + model + "` script (the same weights) in place of UEA's class";
}

std::string lang_of(const YAML::Node& args) { return args["lang"] && args["lang"].IsScalar() ? args["lang"].Scalar() : ""; }

const EvaluatorClasses::Registration kDump{
    {Kind::evaluator, "uea-dump", "UltraEval-Audio's Dump: keeps pred and ref, scores nothing", {label_field_arg()}, {},
     {uea_class("audio_evals.evaluator.base.Dump")}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      return uea_evaluator(args, [](const Value&, const Value&, const json&) { return Value::object(); });
    }};

const EvaluatorClasses::Registration kExactMatch{
    {Kind::evaluator, "uea-em",
     "UltraEval-Audio's EM: numeric labels compared as floats, text labels stripped, match 1/0", {label_field_arg()}, {},
     {uea_class("audio_evals.evaluator.base.EM")}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      return uea_evaluator(args, [](const Value& pred, const Value& label, const json&) -> Value {
        if (label.is_number()) {
          try {
            const double p = python_float(pred), l = python_float(label);
            return {{"match", p == l ? 1 : 0}, {"pred", p}, {"ref", l}};
          } catch (const Error&) {
            return {{"match", 0}, {"pred", pred}, {"ref", label}};
          }
        }
        if (label.is_string()) {
          const std::string p = text::strip(text::python_str(pred)), l = text::strip(label.get<std::string>());
          return {{"match", p == l ? 1 : 0}, {"pred", p}, {"ref", l}};
        }
        return {{"match", pred == label ? 1 : 0}, {"pred", pred}, {"ref", label}};
      });
    }};

Value exist_match(const Value& pred, const Value& label) {
  if (label.is_array()) {
    for (const auto& item : label) {
      Value answer = exist_match(pred, item);
      if (answer["match"] == 1) return answer;
    }
    return {{"match", 0}, {"pred", pred}, {"ref", label}};
  }
  if (label.is_number()) {
    const double p = python_float(pred), l = python_float(label);
    // `label in pred` on floats: Python raises
    (void)p;
    (void)l;
    python_error("TypeError", "argument of type 'float' is not iterable");
  }
  if (!label.is_string()) python_error("TypeError", "'in <string>' requires string as left operand");
  const std::string p = text::lower(text::strip(text::python_str(pred))), l = text::lower(text::strip(label.get<std::string>()));
  const bool match = p.find(l) != std::string::npos;
  return {{"match", match ? 1 : 0}, {"pred", match ? l : p}, {"ref", l}};
}

const EvaluatorClasses::Registration kExistMatch{
    {Kind::evaluator, "uea-exist-match",
     "UltraEval-Audio's ExistMatch: the label (any of a list) inside the lowercased, stripped answer",
     {label_field_arg()}, {}, {uea_class("audio_evals.evaluator.base.ExistMatch")}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      return uea_evaluator(args,
                           [](const Value& pred, const Value& label, const json&) { return exist_match(pred, label); });
    }};

const EvaluatorClasses::Registration kPrefixMatch{
    {Kind::evaluator, "uea-prefix-match",
     "UltraEval-Audio's PrefixMatch: the answer starts with the label (lowercased, stripped); a label with spaces "
     "also matches written without them",
     {arg::boolean("ignore_case", true), label_field_arg()}, {}, {uea_class("audio_evals.evaluator.base.PrefixMatch")}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      const bool ignore_case = args.boolean("ignore_case");
      return uea_evaluator(args, [ignore_case](const Value& pred_value, const Value& label_value,
                                               const json&) -> Value {
        std::string pred = text_of(pred_value, "pred.lower()");
        std::string label = ignore_case ? text::python_str(label_value) : text_of(label_value, "len(label)");
        if (ignore_case) {
          pred = text::strip(text::lower(pred));
          label = text::strip(text::lower(label));
        }
        const std::size_t n = text::to_u32(label).size();
        bool match = prefix(pred, n) == label;
        if (!match && label.find(' ') != std::string::npos && pred.find(' ') == std::string::npos) {
          label.erase(std::remove(label.begin(), label.end(), ' '), label.end());
          match = prefix(pred, n) == label;
        }
        return {{"match", match ? 1 : 0}, {"pred", prefix(pred, n)}, {"ref", label}};
      });
    }};

// WER and CER: compute_wer of the one pair, in percent.
Made error_rate(const Args& args, const std::string& language, const char* key) {
  const bool ignore_case = args.boolean("ignore_case");
  auto wer = std::make_shared<UeaWer>(args.path("spelling_table"));
  return uea_evaluator(args, [=](const Value& pred_value, const Value& label_value, const json&) -> Value {
    std::string pred = text::python_str(pred_value), label = text::python_str(label_value);
    if (ignore_case) pred = text::lower(pred), label = text::lower(label);
    return {{key, (*wer)({label}, {pred}, language) * 100}};
  });
}

const EvaluatorClasses::Registration kWer{
    {Kind::evaluator, "uea-wer",
     "UltraEval-Audio's WER: compute_wer of the pair in percent (Whisper English normalizer, cn_tn for zh/yue, a "
     "sacreBLEU tokenizer), key wer%",
     {arg::boolean("ignore_case", false), arg::text("lang", "en", "en, zh, yue, jp, kr, ..."), spelling_table_arg(),
      label_field_arg()},
     {},
     {uea_class("audio_evals.evaluator.wer.WER", true)},
     [](const YAML::Node& args) { return zhconv_difference(lang_of(args) == "yue"); }},
    [](const Args& args, const Registry&, const Scoring&) -> Made { return error_rate(args, args.text("lang"), "wer%"); }};

const EvaluatorClasses::Registration kCer{
    {Kind::evaluator, "uea-cer", "UltraEval-Audio's CER: compute_wer of the pair as Chinese (lang zh), key cer%",
     {arg::boolean("ignore_case", false), spelling_table_arg(), label_field_arg()},
     {},
     {uea_class("audio_evals.evaluator.wer.CER", true)}},
    [](const Args& args, const Registry&, const Scoring&) -> Made { return error_rate(args, "zh", "cer%"); }};

// sacreBLEU's tokenizer for UEA's BLEU evaluator: zh, ja-mecab for "ja", 13a for anything else; scored as
// sacreBLEU 1.5.1 scores (tests/conformance/sacrebleu151_test.cpp).
const EvaluatorClasses::Registration kBleu{
    {Kind::evaluator, "uea-bleu",
     "UltraEval-Audio's BLEU evaluator: corpus BLEU of the one pair (sacreBLEU; zh, ja-mecab for ja, else 13a)",
     {arg::text("lang", "13a"), label_field_arg()}, {}, {uea_class("audio_evals.evaluator.bleu.BLEU")}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      const std::string lang = args.text("lang");
      metrics::BleuOptions options;
      options.tokenize = lang == "zh" ? "zh" : lang == "ja" ? "ja-mecab" : "13a";
      options.zero_without_match = false;  // sacreBLEU 1.5.1, UEA's pin
      return uea_evaluator(args, [options](const Value& pred, const Value& label, const json&) -> Value {
        return {{"bleu", metrics::corpus_bleu({text_of(pred, "bleu")}, {{text_of(label, "bleu")}}, options).score}};
      });
    }};

const EvaluatorClasses::Registration kQaExistMatch{
    {Kind::evaluator, "uea-qa-exist-match",
     "UltraEval-Audio's QAExistMatchEvaluator: DPR's has_answer (any answer's tokens inside the prediction's)",
     {label_field_arg()}, {}, {uea_class("audio_evals.evaluator.qa_exact_match.QAExistMatchEvaluator")}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      return uea_evaluator(args, [](const Value& pred, const Value& label_value, const json&) -> Value {
        const Value label = label_value.is_string() ? Value::array({label_value}) : label_value;
        if (!label.is_array()) python_error("TypeError", "the label must be text or a list of text");
        std::vector<std::string> answers;
        for (const auto& a : label) answers.push_back(text_of(a, "answer"));
        const bool match = metrics::qa_exist_match(text::python_str(pred), answers) == 1.0;
        return {{"match", match ? 1 : 0}, {"pred", match ? label : pred}, {"ref", label}};
      });
    }};

const EvaluatorClasses::Registration kChoiceStringMatch{
    {Kind::evaluator, "uea-choice-strings-match",
     "UltraEval-Audio's ChoiceStringMatch (MMAU's string_match against the row's choices)", {label_field_arg()}, {},
     {uea_class("audio_evals.evaluator.string_match.ChoiceStringMatch")}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      return uea_evaluator(args, [](const Value& pred, const Value& label, const json& row) -> Value {
        if (!row.is_object() || !row.contains("choices"))
          python_error("TypeError", "_eval() missing 1 required positional argument: 'choices'");
        std::vector<std::string> choices;
        for (const auto& c : row["choices"]) choices.push_back(text::python_str(Value(c)));
        const std::string p = text::python_str(pred);
        const bool match = metrics::choice_strings_match(p, text_of(label, "answer"), choices) == 1.0;
        return {{"match", match ? 1 : 0}, {"pred", match ? label : Value(p)}, {"ref", label}};
      });
    }};

const EvaluatorClasses::Registration kEnsemble{
    {Kind::evaluator, "uea-ensemble",
     "UltraEval-Audio's Ensemble: each component evaluator in turn, their dicts merged (later keys win)",
     {arg::references("components", Kind::evaluator, true, "UEA evaluator entries"), label_field_arg()},
     {},
     {uea_class("audio_evals.evaluator.ensemble.Ensemble")}},
    [](const Args& args, const Registry& registry, const Scoring& scoring) -> Made {
      std::vector<std::shared_ptr<const UeaEvaluator>> components;
      for (const auto& name : args.strings("components")) {
        std::unique_ptr<Evaluator> e = load_evaluator(registry, name, scoring);
        auto* uea = dynamic_cast<UeaEvaluator*>(e.get());
        if (!uea) args.fail("component '" + name + "' is not an UltraEval-Audio evaluator");
        e.release();
        components.emplace_back(uea);
      }
      return uea_evaluator(args, [components](const Value& pred, const Value& label, const json& row) {
        Value merged = Value::object();
        for (const auto& c : components) {
          const Value result = c->call(pred, label, row);
          for (const auto& [key, v] : result.items()) merged[key] = v;
        }
        return merged;
      });
    }};

// ------------------------------------------------------------------ TTS: what the spoken answer says, whose voice

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

// A module-level string constant of UEA's Python source (`NAME = "..."` or `NAME = ("..." "...")`),
// read at run time from the UEA folder in use, so a judge's prompt is UEA's own text.
std::string python_constant(const std::filesystem::path& file, const std::string& name) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ErrorCategory::config, "cannot read " + file.string() + " (UltraEval-Audio's source)");
  const std::string source{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::string opening = name + " = ";
  std::size_t at = 0;  // the start of the line that assigns it
  if (source.rfind(opening, 0) != 0) {
    at = source.find("\n" + opening);
    if (at == std::string::npos) throw Error(ErrorCategory::config, file.string() + " has no constant '" + name + "'");
    ++at;
  }
  // The expression runs to the first newline outside brackets and string literals.
  std::size_t i = at + opening.size(), depth = 0;
  for (; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '"' || c == '\'') {
      const bool triple = source.compare(i, 3, std::string(3, c)) == 0;
      const std::string close = triple ? std::string(3, c) : std::string(1, c);
      for (i += close.size(); i < source.size() && source.compare(i, close.size(), close) != 0; ++i)
        if (source[i] == '\\') ++i;
      i += close.size() - 1;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == '#' && depth > 0) {
      while (i < source.size() && source[i] != '\n') ++i;
    } else if (c == '\n' && depth == 0) {
      break;
    }
  }
  const auto value = text::python_literal_eval(std::string_view(source).substr(at + opening.size(), i - at - opening.size()));
  if (!value || !value->is_string())
    throw Error(ErrorCategory::config, file.string() + ": '" + name + "' is not a string constant aeval can read");
  return value->get<std::string>();
}

// The UEA folder's file that holds a class's own text (a judge's prompt).
UeaClass uea_class_with_source(std::string path, std::string source) {
  return {std::move(path), [source](const YAML::Node& uea, const std::filesystem::path& root) -> std::optional<YAML::Node> {
            YAML::Node args = YAML::Clone(uea);
            if (!args.IsMap()) args = YAML::Node(YAML::NodeType::Map);
            args["source"] = (root / source).string();
            return args;
          }};
}

// A jinja2 chat prompt of one user text part: what UEA's APIModel makes of a plain string prompt.
Prompt plain_text_prompt(const std::string& name) {
  Registry registry;
  Entry e;
  e.name = name;
  e.class_id = "jinja2";
  e.args = YAML::Load("{template: [{role: user, contents: [{type: text, value: '{{ text }}'}]}]}");
  registry.add(Kind::prompt, e);
  return Prompt::load(registry, name);
}

// AIRChatEvaluator: its judge (a model entry) rates the reference (Assistant 1) and the answer
// (Assistant 2) from the row's meta_info and question, in UEA's prompt; the reply's first two
// space-separated words are the scores, with the judge's default sampling, asked once.
const EvaluatorClasses::Registration kAirChatJudge{
    {Kind::evaluator, "uea-air-chat-judge",
     "UltraEval-Audio's AIRChatEvaluator (AIR-Bench chat): a judge scores the reference and the answer, 1-10, from "
     "the audio's description, in UEA's own prompt (read from its source)",
     {arg::required_reference("model_name", Kind::model, "the judge"),
      arg::required_path("source", "UEA's audio_evals/evaluator/air_chat.py, which holds the prompt"),
      label_field_arg()},
     {},
     {uea_class_with_source("audio_evals.evaluator.air_chat.AIRChatEvaluator", "audio_evals/evaluator/air_chat.py")}},
    [](const Args& args, const Registry&, const Scoring& scoring) -> Made {
      const std::string judge = args.text("model_name");
      std::string format;
      try {
        format = python_constant(args.path("source"), "prompt");
      } catch (const Error& e) {
        args.fail(e.what());
      }
      auto prompt = std::make_shared<Prompt>(plain_text_prompt(args.entry().name + "-prompt"));
      return uea_evaluator(args, [=](const Value& pred, const Value& label, const json& row) -> Value {
        const Value fields{{"meta_info", row.contains("meta_info") ? Value(row["meta_info"]) : Value()},
                           {"question", row.contains("question") ? Value(row["question"]) : Value()},
                           {"label", label},
                           {"pred", pred}};
        for (const char* key : {"meta_info", "question"})
          if (!row.is_object() || !row.contains(key)) python_error("KeyError", std::string("'") + key + "'");
        Sample context;
        context.id = "judge";
        context.fields = {{"text", text::python_format(format, fields)}};
        const std::string reply = scoring->ask(judge, *prompt, context).text;
        std::vector<std::string> words;
        for (std::size_t at = 0;;) {  // str.split(" ")
          const std::size_t space = reply.find(' ', at);
          words.push_back(reply.substr(at, space == std::string::npos ? std::string::npos : space - at));
          if (space == std::string::npos) break;
          at = space + 1;
        }
        if (words.size() < 2) python_error("IndexError", "list index out of range");
        return {{"pred_score", python_float(Value(words[1]))}, {"ref_score", python_float(Value(words[0]))},
                {"pred", pred}, {"ref", label}};
      });
    }};

// ChatbotEvaluator (SpeechAlpacaEval): its judge rates the answer to the row's instruction with
// UEA's `chatbot-eval` prompt; the first [[n]] of the reply is the rating. UEA asks the judge with
// temperature=0 and maxTokens=2048, a keyword OpenAI's client refuses (TypeError): with UEA's GPT judges every
// sample fails. A reproduction nobody can use is no default: the judge is asked with max_tokens 2048, what UEA's
// call means, and as_uea_calls keeps UEA's failing call.
const EvaluatorClasses::Registration kChatbotJudge{
    {Kind::evaluator, "uea-chatbot-judge",
     "UltraEval-Audio's ChatbotEvaluator (SpeechAlpacaEval): a judge rates the answer 1-10 in UEA's chatbot-eval "
     "prompt ([[n]]), asked with temperature 0 and max_tokens 2048",
     {arg::required_reference("model_name", Kind::model, "the judge"),
      arg::boolean("as_uea_calls", false,
                   "ask as UEA's code does, with maxTokens, which OpenAI's client refuses: every sample fails"),
      label_field_arg()},
     {},
     {uea_class("audio_evals.evaluator.alpaca_eval.ChatbotEvaluator")},
     [](const YAML::Node& args) -> std::string {
       if (args["as_uea_calls"] && args["as_uea_calls"].IsScalar() && args["as_uea_calls"].as<bool>()) return "";
       return "its judge asked with max_tokens, where UEA's call (maxTokens) fails every sample";
     }},
    [](const Args& args, const Registry& registry, const Scoring&) -> Made {
      const std::string judge = args.text("model_name");
      if (args.boolean("as_uea_calls"))
        return uea_evaluator(args, [](const Value&, const Value&, const json&) -> Value {
          python_error("TypeError", "Completions.create() got an unexpected keyword argument 'maxTokens' (UltraEval-Audio's "
                                    "ChatbotEvaluator asks its judge so; as_uea_calls=false asks with max_tokens)");
        });
      if (!registry.contains(Kind::prompt, "chatbot-eval")) args.fail("needs UltraEval-Audio's prompt 'chatbot-eval'");
      // The judge with UEA's request parameters, in a registry of its own.
      auto own = std::make_shared<Registry>();
      Entry model = registry.get(Kind::model, judge);
      model.args = YAML::Clone(model.args);
      model.args["temperature"] = 0;
      model.args["max_tokens"] = 2048;
      own->add(Kind::model, model);
      own->add(Kind::prompt, registry.get(Kind::prompt, "chatbot-eval"));
      auto prompt = std::make_shared<Prompt>(Prompt::load(*own, "chatbot-eval"));
      auto models = std::make_shared<ScoringModels>(*own);
      static const text::Regex rating("\\[\\[(\\d+)\\]\\]");
      return uea_evaluator(args, [own, models, prompt, judge](const Value& pred, const Value& label, const json& row) -> Value {
        if (!row.is_object() || !row.contains("instruction")) python_error("KeyError", "'instruction'");
        Sample context;
        context.id = "judge";
        context.fields = {{"instruction", row["instruction"]}, {"response", json(pred)}};
        const std::string reply = models->ask(judge, *prompt, context).text;
        const auto m = rating.find(reply);
        if (!m) python_error("AttributeError", "'NoneType' object has no attribute 'group'");
        long n = 0;
        for (const char32_t c : text::to_u32(m->group(1))) n = n * 10 + text::decimal_digit_value(c);
        return {{"geval", n}, {"pred", pred}, {"ref", label}};
      });
    }};

// The arguments of an aeval class hosting one of UEA's Python classes (uea::uea_class_args writes them), then `more`.
std::vector<ArgSpec> with_hosted_class_args(const char* example, std::vector<ArgSpec> more) {
  std::vector<ArgSpec> out{
      arg::required_text("uea_class", std::string("the class path, e.g. ") + example),
      arg::required_path("uea_root", "the UltraEval-Audio tree holding the class"),
      arg::map("uea_args", "the entry's arguments, as UEA passes them to the class", false),
      arg::text("python", "", "the interpreter hosting UEA's framework (default: $AEVAL_UEA_PYTHON, else python3)")};
  for (auto& a : more) out.push_back(std::move(a));
  return out;
}

uea::UeaClassProcess hosted_class(const Args& args, const char* role) {
  uea::UeaClassProcess spec;
  spec.name = args.entry().name;
  spec.role = role;
  spec.class_path = args.text("uea_class");
  spec.root = std::filesystem::absolute(args.path("uea_root")).lexically_normal();
  spec.args = args.given("uea_args") ? registry::yaml_as_python(args.node("uea_args")) : Value::object();
  spec.python = uea::uea_host_python(args.text("python"));
  return spec;
}

// Any other of UEA's evaluator classes: UEA's own class, built from its tree with the entry's arguments and
// hosted by aeval's bridge (uea/uea_class_process.hpp), called per sample as UEA's EvalTask calls it,
// __call__(pred, ref, **row); its dict is the sample's. The models it builds itself by name (model_name)
// have their @isolated environments built first.
const EvaluatorClasses::Registration kUeaPythonEvaluator{
    {Kind::evaluator, "uea-python-evaluator",
     "One of UltraEval-Audio's evaluator classes, built from UEA's tree with its entry's arguments and called per "
     "sample as UEA calls it, in a Python process of its own (docs/uea.md)",
     with_hosted_class_args("audio_evals.evaluator.ifeval.IFEval",
                            {arg::integer("max_concurrency", 4, "samples scored at once (UEA's workers share one "
                                                                "instance too)")
                                 .at_least(1),
                             label_field_arg()}),
     {},
     {{"audio_evals.evaluator.*", {}, uea::uea_class_args}}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      uea::UeaClassProcess spec = hosted_class(args, "evaluator");
      spec.max_concurrency = args.integer("max_concurrency");
      for (const auto& [key, value] : spec.args.items())
        if (value.is_string()) spec.models_used.push_back(value.get<std::string>());
      Value identity;
      const std::shared_ptr<models::Model> process = uea::start_uea_class(spec, identity);
      return uea_evaluator(args, [process, name = spec.name](const Value& pred, const Value& label, const json& row) -> Value {
        models::Request request;
        request.sample_id = "evaluate";
        request.fields = {{"pred", json(pred)}, {"ref", json(label)}, {"kwargs", row}};
        Value result = Value::parse(process->infer_and_wait(std::move(request)).text, nullptr, false);
        if (!result.is_object())
          throw Error(ErrorCategory::model, fmt::format("evaluator '{}' answered something that is not a dict", name));
        return result;
      });
    }};

// ---- aggregations -------------------------------------------------------------------------

using Results = std::vector<Value>;

AggregatorClasses::Registration uea_aggregation(const char* id, const char* summary, std::vector<ArgSpec> args,
                                                UeaClass uea,
                                                std::function<std::function<Value(const Results&)>(const Args&)> make,
                                                std::function<std::string(const YAML::Node&)> differs = {}) {
  // aeval's additions: intervals and groups of the aggregation's own number (UEA's entries give none).
  for (auto& extra : summary_args()) args.push_back(std::move(extra));
  return {{Kind::aggregator, id, summary, std::move(args), {}, {std::move(uea)}, std::move(differs)}, [make](const Args& args) {
            Aggregator a;
            a.name = args.entry().name;
            read_summary_args(args, a);
            auto agg = make(args);
            const std::vector<std::string> needed = args.strings("need_score_col");
            // AggPolicy.__call__: an exception becomes {"error": str(e)}. Its check that the first result
            // holds each need_score_col raises past that in UEA (the run stops); here it is the error too.
            a.uea = [agg, needed](const Results& results) -> Value {
              for (const auto& col : needed)
                if (!results.empty() && !results[0].contains(col))
                  return {{"error", fmt::format("AssertionError: not found {} score, but {}", col,
                                                text::python_repr(results[0]))}};
              try {
                return agg(results);
              } catch (const Error& e) {
                const std::string message = e.what();
                return {{"error", message.substr(message.find(": ") == std::string::npos ? 0 : message.find(": ") + 2)}};
              }
            };
            return a;
          }};
}

// [str(item[key]) for item in results], lowercased when asked.
std::vector<std::string> column(const Results& results, const char* key, bool lowercase = false) {
  std::vector<std::string> out;
  for (const auto& r : results) {
    if (!r.contains(key)) python_error("KeyError", text::python_repr(Value(key)));
    const std::string s = text::python_str(r[key]);
    out.push_back(lowercase ? text::lower(s) : s);
  }
  return out;
}

ArgSpec need_score_col_arg() { return arg::texts("need_score_col", {}, "the keys to average (default: every number)"); }

const auto kAccuracy = uea_aggregation(
    "uea-accuracy", "UltraEval-Audio's ACC: share of samples whose str(pred) equals str(ref), in percent (acc(%))",
    {need_score_col_arg()}, uea_class("audio_evals.agg.base.ACC"), [](const Args&) {
      return [](const Results& results) -> Value {
        if (results.empty()) return {{"acc(%)", std::nan("")}};  // sklearn's mean of nothing
        const auto pred = column(results, "pred"), ref = column(results, "ref");
        std::size_t equal = 0;
        for (std::size_t i = 0; i < pred.size(); ++i) equal += pred[i] == ref[i];
        return {{"acc(%)", double(equal) / double(pred.size()) * 100}};
      };
    });

const auto kMean = uea_aggregation(
    "uea-mean",
    "UltraEval-Audio's NaiveMean: the mean of each numeric key (of the first result), key(%) = mean x 100 unless "
    "the key has a %",
    {need_score_col_arg()}, uea_class("audio_evals.agg.base.NaiveMean"), [](const Args& args) {
      const std::vector<std::string> asked = args.strings("need_score_col");
      return [asked](const Results& results) -> Value {
        if (results.empty() && asked.empty()) python_error("IndexError", "list index out of range");
        std::vector<std::string> keys = asked;
        if (keys.empty())
          for (const auto& [key, v] : results[0].items())
            if (v.is_number() || v.is_boolean()) keys.push_back(key);
        Value out = Value::object();
        for (const auto& key : keys) {
          double sum = 0;
          std::size_t n = 0;
          bool float_sum = false;  // Python's sum() starts from the int 0 and is an int until a float joins
          for (const auto& r : results) {
            if (!r.contains(key) || r[key].is_null()) continue;
            if (!r[key].is_number() && !r[key].is_boolean())
              python_error("TypeError", fmt::format("unsupported operand type(s) for +: '{}' and '{}'",
                                                    float_sum ? "float" : "int", text::python_type_name(r[key])));
            float_sum = float_sum || r[key].is_number_float();
            sum += r[key].is_boolean() ? double(r[key].get<bool>()) : r[key].get<double>();
            ++n;
          }
          if (n == 0) python_error("ZeroDivisionError", "division by zero");
          if (key.find('%') != std::string::npos) out[key] = sum / double(n);
          else out[key + "(%)"] = sum / double(n) * 100;
        }
        return out;
      };
    });

const auto kPracticeWer = uea_aggregation(
    "uea-practice-wer", "UltraEval-Audio's PracticeWER: compute_wer over every lowercased pair, in percent (wer(%))",
    {need_score_col_arg(), arg::text("lang", "13a"), spelling_table_arg()},
    uea_class("audio_evals.agg.base.PracticeWER", true), [](const Args& args) {
      const std::string lang = args.text("lang");
      auto wer = std::make_shared<UeaWer>(args.path("spelling_table"));
      return [lang, wer](const Results& results) -> Value {
        return {{"wer(%)", (*wer)(column(results, "ref", true), column(results, "pred", true), lang) * 100}};
      };
    },
    [](const YAML::Node& args) { return zhconv_difference(lang_of(args) == "yue"); });

const auto kBleuCorpus = uea_aggregation(
    "uea-bleu", "UltraEval-Audio's BLEU aggregation: sacreBLEU corpus BLEU of the samples with a reference (bleu)",
    {need_score_col_arg(), arg::text("lang", "13a")}, uea_class("audio_evals.agg.base.BLEU"), [](const Args& args) {
      const std::string lang = args.text("lang");
      metrics::BleuOptions options;
      options.tokenize = lang == "zh" ? "zh" : lang == "ja" ? "ja-mecab" : lang;
      options.zero_without_match = false;  // sacreBLEU 1.5.1, UEA's pin
      // Each text tokenized once: a bootstrap scores resamples of the same segments. BLEU of the
      // tokens with tokenizer "none" is BLEU of the texts (sacreBLEU rstrips, tokenizes, splits on
      // whitespace); a text with no token is passed as it is, for the same empty-reference check.
      struct Tokenized {
        std::mutex mutex;
        std::unordered_map<std::string, std::string> texts;
      };
      auto cache = std::make_shared<Tokenized>();
      return [options, lang, cache](const Results& results) -> Value {
        bool known = false;
        for (const char* name : {"none", "zh", "13a", "intl", "char", "ja-mecab"}) known = known || options.tokenize == name;
        if (!known) python_error("KeyError", text::python_repr(Value(options.tokenize)));
        const auto tokens = [&](const std::string& s) {
          {
            const std::lock_guard lock(cache->mutex);
            if (const auto found = cache->texts.find(s); found != cache->texts.end()) return found->second;
          }
          std::u32string u = text::to_u32(s);  // rstripped as sacreBLEU does before tokenizing
          while (!u.empty() && text::is_space(u.back())) u.pop_back();
          std::string t = metrics::bleu_tokenize(text::to_utf8(u), options.tokenize);
          if (text::strip(t).empty()) t = s;
          const std::lock_guard lock(cache->mutex);
          return cache->texts.emplace(s, t).first->second;
        };
        const auto pred = column(results, "pred"), ref = column(results, "ref");
        std::vector<std::string> hyps, refs;
        for (std::size_t i = 0; i < pred.size(); ++i)
          if (!ref[i].empty()) hyps.push_back(tokens(pred[i])), refs.push_back(tokens(ref[i]));
        metrics::BleuOptions pretokenized = options;
        pretokenized.tokenize = "none";
        return {{"bleu", metrics::corpus_bleu(hyps, {refs}, pretokenized).score}};
      };
    });

const auto kDumpAgg = uea_aggregation("uea-dump", "UltraEval-Audio's Dump aggregation: nothing", {need_score_col_arg()},
                                      uea_class("audio_evals.agg.base.Dump"), [](const Args&) {
                                        return [](const Results&) -> Value { return Value::object(); };
                                      });

double number_at(const Value& r, const char* key) {
  if (!r.contains(key)) python_error("KeyError", text::python_repr(Value(key)));
  if (!r[key].is_number() && !r[key].is_boolean()) python_error("TypeError", std::string("'") + key + "' is not a number");
  return r[key].is_boolean() ? double(r[key].get<bool>()) : r[key].get<double>();
}

// Python's round(x, 2): the nearest of the two-decimal numbers, exactly (as printf rounds).
double round2(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f", x);
  return std::strtod(buffer, nullptr);
}

const auto kAirChat = uea_aggregation(
    "uea-air-chat",
    "UltraEval-Audio's AirChat (AIR-Bench chat): the share of answers the judge scored above the reference "
    "(win(%)), and both mean scores",
    {need_score_col_arg()}, uea_class("audio_evals.agg.air_chat.AirChat"), [](const Args&) {
      return [](const Results& results) -> Value {
        if (results.empty()) python_error("ZeroDivisionError", "division by zero");
        double wins = 0, pred_sum = 0, ref_sum = 0;
        for (const auto& r : results) {
          const double pred = number_at(r, "pred_score"), ref = number_at(r, "ref_score");
          wins += pred > ref;
          pred_sum += pred;
          ref_sum += ref;
        }
        const double n = double(results.size());
        return {{"win(%)", wins / n * 100}, {"ref_score", ref_sum / n}, {"pred_score", pred_sum / n}};
      };
    });

const auto kWeightedAverage = uea_aggregation(
    "uea-weighted-average",
    "UltraEval-Audio's WeightedAverage: each numeric key averaged with the weight_col of each sample as its "
    "weight, key(%) = x 100 unless the key has a %",
    {need_score_col_arg(), arg::required_text("weight_col", "the key holding each sample's weight")},
    uea_class("audio_evals.agg.sp.WeightedAverage"), [](const Args& args) {
      const std::vector<std::string> asked = args.strings("need_score_col");
      const std::string weight_col = args.text("weight_col");
      return [asked, weight_col](const Results& results) -> Value {
        if (results.empty()) python_error("IndexError", "list index out of range");
        std::vector<std::string> keys = asked;
        if (keys.empty())
          for (const auto& [key, v] : results[0].items())
            if ((v.is_number() || v.is_boolean()) && key != weight_col) keys.push_back(key);
        std::vector<double> weights;
        double total = 0;
        for (const auto& r : results) total += weights.emplace_back(number_at(r, weight_col.c_str()));
        Value out = Value::object();
        for (const auto& key : keys) {
          std::vector<double> values;
          for (const auto& r : results)
            if (r.contains(key) && !r[key].is_null()) values.push_back(number_at(r, key.c_str()));
          // numpy multiplies the two lists element by element (a list of one broadcasts); samples
          // without the key leave the values shorter than the weights, as in UEA.
          const std::size_t n = values.size() == weights.size() || weights.size() == 1 ? values.size()
                                : values.size() == 1                                     ? weights.size()
                                                                                         : 0;
          if (n == 0 && !(values.empty() && weights.size() <= 1) && !(weights.empty() && values.size() <= 1))
            python_error("ValueError", fmt::format("operands could not be broadcast together with shapes ({},) ({},)",
                                                   values.size(), weights.size()));
          double sum = 0;
          for (std::size_t i = 0; i < n; ++i)
            sum += values[values.size() == 1 ? 0 : i] * weights[weights.size() == 1 ? 0 : i];
          if (key.find('%') != std::string::npos) out[key] = sum / total;
          else out[key + "(%)"] = sum / total * 100;
        }
        return out;
      };
    });

const auto kInstructTtsEval = uea_aggregation(
    "uea-instruct-tts-eval",
    "UltraEval-Audio's InstructTTSEvalAgg: per instruction type (APS, DSD, RP) the share of samples the judge "
    "found consistent, nulls left out, and their mean",
    {need_score_col_arg()}, uea_class("audio_evals.agg.instruct_tts_eval.InstructTTSEvalAgg"), [](const Args&) {
      return [](const Results& results) -> Value {
        Value out = Value::object();
        std::vector<double> rates;
        for (const char* type : {"APS", "DSD", "RP"}) {
          double passed = 0;
          std::size_t valid = 0, nulls = 0;
          for (const auto& r : results) {
            if (!r.contains("instruction_type") || r["instruction_type"] != type) continue;
            if (!r.contains("gemini_score") || r["gemini_score"].is_null()) {
              ++nulls;
              continue;
            }
            passed += std::trunc(number_at(r, "gemini_score"));  // int(score)
            ++valid;
          }
          if (valid + nulls == 0) continue;
          const double rate = valid ? passed / double(valid) * 100 : 0.0;
          out[std::string(type) + "(%)"] = round2(rate);
          out[std::string(type) + "_valid"] = valid;
          out[std::string(type) + "_null"] = nulls;
          rates.push_back(rate);
        }
        if (!rates.empty()) {
          double sum = 0;
          for (const double r : rates) sum += r;
          out["AVG(%)"] = round2(sum / double(rates.size()));
        }
        return out;
      };
    });

// jiwer's WER and CER over the corpus (UEA's WER and CER aggregations; CER passes the
// predictions as references, which UEA does, and so does this).
Value jiwer_rate(const std::vector<std::string>& truth, const std::vector<std::string>& hypothesis, bool characters) {
  const metrics::CorpusAlignment a =
      characters ? metrics::process_characters(truth, hypothesis) : metrics::process_words(truth, hypothesis);
  return metrics::error_rates(a.counts).wer;
}

const auto kJiwerWer = uea_aggregation(
    "uea-jiwer-wer", "UltraEval-Audio's WER aggregation: jiwer's corpus WER of str(ref) and str(pred), in percent",
    {need_score_col_arg(), arg::boolean("ignore_case", false)}, uea_class("audio_evals.agg.base.WER"),
    [](const Args& args) {
      const bool ignore_case = args.boolean("ignore_case");
      return [ignore_case](const Results& results) -> Value {
        const auto pred = column(results, "pred", ignore_case), ref = column(results, "ref", ignore_case);
        return {{"wer(%)", jiwer_rate(ref, pred, false).get<double>() * 100}};
      };
    });

const auto kJiwerCer = uea_aggregation(
    "uea-jiwer-cer",
    "UltraEval-Audio's CER aggregation: jiwer's cer with the predictions as references (UEA's argument order), a "
    "fraction",
    {need_score_col_arg(), arg::boolean("ignore_case", false)}, uea_class("audio_evals.agg.base.CER"),
    [](const Args& args) {
      const bool ignore_case = args.boolean("ignore_case");
      return [ignore_case](const Results& results) -> Value {
        const auto pred = column(results, "pred", ignore_case), ref = column(results, "ref", ignore_case);
        return {{"cer", jiwer_rate(pred, ref, true)}};
      };
    });

// Any other of UEA's aggregation classes (Coco: pycocoevalcap's caption metrics, which need Java): UEA's own
// class hosted by aeval's bridge and called on the run's results as EvalTask calls it. The class starts when
// first needed, so one that cannot be imported here is that aggregation's error and the run's other numbers
// stand; its failure is kept, so a bootstrap does not start it again for each resample.
const auto kUeaPythonAgg = uea_aggregation(
    "uea-python-agg",
    "One of UltraEval-Audio's aggregation classes, built from UEA's tree with its entry's arguments and called on "
    "the results as UEA calls it, in a Python process of its own (docs/uea.md)",
    // (need_score_col stays in uea_args: UEA's own AggPolicy checks it.)
    with_hosted_class_args("audio_evals.agg.base.Coco", {need_score_col_arg()}),
    UeaClass{"audio_evals.agg.*", {}, uea::uea_class_args},
    [](const Args& args) {
      struct Hosted {
        std::mutex mutex;
        uea::UeaClassProcess spec;
        std::shared_ptr<models::Model> process;
        std::optional<Error> failure;
      };
      auto hosted = std::make_shared<Hosted>();
      hosted->spec = hosted_class(args, "agg");
      return [hosted](const Results& results) -> Value {
        std::shared_ptr<models::Model> process;
        {
          const std::lock_guard lock(hosted->mutex);
          if (hosted->failure) throw *hosted->failure;
          try {
            if (!hosted->process) {
              Value identity;
              hosted->process = uea::start_uea_class(hosted->spec, identity);
            }
          } catch (const Error& e) {
            hosted->failure = e;
            throw;
          }
          process = hosted->process;
        }
        models::Request request;
        request.sample_id = "aggregate";
        request.fields = {{"results", json(results)}};
        Value result = Value::parse(process->infer_and_wait(std::move(request)).text, nullptr, false);
        if (!result.is_object())
          throw Error(ErrorCategory::model,
                      fmt::format("aggregation '{}' answered something that is not a dict", hosted->spec.name));
        return result;
      };
    });

}  // namespace

}  // namespace aeval::pipeline
