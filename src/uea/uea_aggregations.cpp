// UltraEval-Audio's aggregations (agg/base.py at 9b69da6): its keys ("wer(%)", "acc(%)", "bleu") computed from the
// dicts its evaluators keep per sample; an exception gives {"error": ...}, as in UEA.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "aeval/error.hpp"
#include "aeval/metrics/bleu.hpp"
#include "aeval/metrics/match.hpp"
#include "aeval/metrics/wer.hpp"
#include "aeval/text/python_values.hpp"
#include "aeval/text/unicode.hpp"
#include "aggregators/aggregator.hpp"
#include "uea/uea_evaluator.hpp"
#include "uea/uea_scoring.hpp"
#include "uea/uea_wer.hpp"
#include "registry/args.hpp"
#include "uea/uea_class_process.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::Kind;
using registry::UeaClass;

namespace {

using namespace uea_scoring;
using nlohmann::json;

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
