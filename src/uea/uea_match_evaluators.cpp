// UltraEval-Audio's evaluators of a text answer (audio_evals/evaluator/*.py at 9b69da6): Dump, the exact,
// exist and prefix matches, WER and CER of one pair, BLEU, the QA and choice matches, and the ensemble of them.
#include <algorithm>
#include <memory>

#include "aeval/error.hpp"
#include "aeval/metrics/bleu.hpp"
#include "aeval/metrics/match.hpp"
#include "aeval/text/python_values.hpp"
#include "aeval/text/unicode.hpp"
#include "evaluators/evaluator.hpp"
#include "evaluators/scoring_models.hpp"
#include "uea/uea_evaluator.hpp"
#include "uea/uea_scoring.hpp"
#include "uea/uea_wer.hpp"
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

// Python's s[:n] on code points.
std::string prefix(const std::string& s, std::size_t n) {
  const std::u32string u = text::to_u32(s);
  return text::to_utf8(u.substr(0, std::min(n, u.size())));
}

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

}  // namespace

}  // namespace aeval::pipeline
