// UltraEval-Audio's evaluators that ask a judge model, with UEA's own prompts read from its tree.
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "evaluators/evaluator.hpp"
#include "prompts/prompt.hpp"
#include "evaluators/scoring_models.hpp"
#include "uea/uea_evaluator.hpp"
#include "uea/uea_scoring.hpp"
#include "registry/args.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::Entry;
using registry::Kind;
using registry::Registry;
using registry::UeaClass;

namespace {

using namespace uea_scoring;
using nlohmann::json;

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

}  // namespace

}  // namespace aeval::pipeline
