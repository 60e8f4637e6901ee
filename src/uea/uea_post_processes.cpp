// UltraEval-Audio's answer post-processes (audio_evals/process/*.py at 9b69da6), reproduced
// answer for answer, quirks included (tests/data/uea_registry/processes.jsonl holds what
// UEA's own classes return): the JSON "content" extractor, the JSON key extractor, the
// option-letter extractor, the Qwen-Audio transcript cleanup, and speech to text. TextNormalization maps to
// the Whisper and cn_tn normalizers in post_process.cpp.
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "post_process/post_process.hpp"
#include "evaluators/scoring_models.hpp"
#include "uea/uea_recognizers.hpp"
#include "registry/args.hpp"
#include "util/untrusted_json.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using registry::Registry;

namespace {

using Value = nlohmann::ordered_json;

// Whether an answer is a UEA speech model's own: a JSON object with "audio", or the path of an existing file.
bool names_its_audio(const std::string& answer) {
  const nlohmann::json parsed = parse_untrusted_json(answer, /*allow_exceptions=*/false);
  if (parsed.is_object() && parsed.contains("audio")) return true;
  std::error_code error;
  return !answer.empty() && answer.size() < 4096 && std::filesystem::is_regular_file(answer, error);
}

// A spoken answer as UEA's speech models return it, and so as its processes (extract_audio, extract_text) read it:
// {"audio": the file's absolute path, "text": the answer's text}, as Python's json.dumps writes it (", " and ": "
// between the parts). The answer of one of UEA's own models already is, and stays as it is.
std::string uea_spoken_answer(const std::filesystem::path& audio, const std::string& text) {
  if (names_its_audio(text)) return text;
  const auto quoted = [](const std::string& s) {
    return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  return "{\"audio\": " + quoted(std::filesystem::absolute(audio).lexically_normal().string()) + ", \"text\": " +
         quoted(text) + "}";
}

// A post-process defined by its value function; `apply` is its Python str().
PostProcess from_value(const Args& args, std::function<Value(const Value&)> value) {
  PostProcess t;
  t.name = args.entry().name;
  t.identity = {{"name", t.name}, {"class", args.entry().class_id}};
  t.value = [value](const Value& answer, const Sample&) { return value(answer); };
  t.apply = [value](const std::string& answer, const Sample&) { return text::python_str(value(Value(answer))); };
  t.spoken_answer = uea_spoken_answer;
  return t;
}

[[noreturn]] void python_error(const std::string& type, const std::string& message) {
  throw Error(ErrorCategory::data, type + ": " + message);
}

std::string type_name(const Value& v) {
  if (v.is_string()) return "str";
  if (v.is_object()) return "dict";
  if (v.is_array()) return "list";
  if (v.is_boolean()) return "bool";
  if (v.is_number_integer() || v.is_number_unsigned()) return "int";
  if (v.is_number_float()) return "float";
  return "NoneType";
}

// ContentExtract: the "content" of the JSON (or Python dict literal) the answer is,
// inside ```json or ``` fences; otherwise the answer stripped (and unfenced) as it was.
Value json_content(const Value& answer) {
  if (!answer.is_string()) return answer;  // UEA's .strip() fails, and so does literal_eval
  std::u32string text = text::to_u32(text::strip(answer.get<std::string>()));
  const auto fenced = [&](std::u32string_view fence) {
    if (text.compare(0, fence.size(), fence) != 0) return false;
    // Python's text[n:-3]: empty when the fence is all there is.
    const std::size_t end = text.size() >= 3 ? text.size() - 3 : 0;
    text = end > fence.size() ? text.substr(fence.size(), end - fence.size()) : U"";
    text = text::to_u32(text::strip(text::to_utf8(text)));
    return true;
  };
  if (!fenced(U"```json")) fenced(U"```");
  const std::string body = text::to_utf8(text);
  for (const auto& parsed : {text::python_json_loads(body), text::python_literal_eval(body)})
    if (parsed && parsed->is_object() && parsed->contains("content")) return (*parsed)["content"];
  return body;
}

const PostProcessClasses::Registration kJsonContent{
    {Kind::post_process, "json_content",
     "The 'content' of the JSON object (or Python dict) an answer is, code fences removed; else the answer, stripped "
     "(UltraEval-Audio's ContentExtract, for its {\"content\": \"\"} prompts)",
     {},
     {},
     {{"audio_evals.process.base.ContentExtract"}}},
    [](const Args& args) { return from_value(args, json_content); }};

// JsonExtract: one key of the JSON the answer is (the whole value without a key); an answer
// that is not JSON comes back as it was; a missing key is an error unless there is a default.
const PostProcessClasses::Registration kJsonKey{
    {Kind::post_process, "json_key",
     "One key of the JSON object an answer is (UltraEval-Audio's JsonExtract): the answer unchanged when it is not "
     "JSON, an error when the key is missing and no default is given",
     {arg::text("extract_key", "", "the key (none: the whole JSON value)"),
      arg::text("default_value", "", "the value of a missing key (none: a missing key fails the sample)")},
     {},
     {{"audio_evals.process.base.JsonExtract"}}},
    [](const Args& args) {
      const bool keyed = args.given("extract_key"), defaulted = args.given("default_value");
      const std::string key = args.text("extract_key"), fallback = args.text("default_value");
      PostProcess t = from_value(args, [=](const Value& answer) -> Value {
        Value d;
        if (answer.is_string()) {
          const auto parsed = text::python_json_loads(text::strip(answer.get<std::string>()));
          if (!parsed) return answer;
          d = *parsed;
        } else if (answer.is_object()) {
          d = answer;
        } else {
          python_error("ValueError", "Unsupported answer type: <class '" + type_name(answer) + "'>");
        }
        if (!keyed) return d;
        if (defaulted) {
          if (!d.is_object()) python_error("AttributeError", "'" + type_name(d) + "' object has no attribute 'get'");
          return d.contains(key) ? d[key] : Value(fallback);
        }
        if (d.is_object()) {
          if (!d.contains(key)) python_error("KeyError", text::python_repr(Value(key)));
          return d[key];
        }
        python_error("TypeError", d.is_array() || d.is_string()
                                      ? fmt::format("{} indices must be integers{}", d.is_array() ? "list" : "string",
                                                    d.is_array() ? " or slices, not str" : "")
                                      : fmt::format("'{}' object is not subscriptable", type_name(d)));
      });
      t.identity["extract_key"] = keyed ? Value(key) : Value(nullptr);
      t.identity["default_value"] = defaulted ? Value(fallback) : Value(nullptr);
      return t;
    }};

// FirstOption's patterns, tried in order on the stripped answer (DOTALL, IGNORECASE); `{o}`
// stands for the option letters. The missing comma after the "故选" pattern, which joins it
// to the next one, is UEA's and kept; `separate_joined_patterns` tries the two on their own.
constexpr char kJoinedPattern[] = "故选?\\s*([{o}])只有选?项?\\s?([{o}])\\s?是?对";
const char* const kOptionPatterns[] = {
    "答案是?\\s*([{o}])",
    "答案是?\\s*：\\s*([{o}])",
    "答案是?\\s*:\\s*([{o}])",
    "答案是选项?\\s*:\\s*([{o}])",
    "答案选项应?该?是\\s*([{o}])",
    "答案选项应?该?为\\s*([{o}])",
    "答案应该?是\\s*([{o}])",
    "答案应该?选\\s*([{o}])",
    "答案选项为?\\s*：\\s*([{o}])",
    "答案选项为?\\s+\\(?\\*?\\*?([{o}])\\*?\\*?\\)?",
    "选项为?\\s+\\(?\\*?\\*?([{o}])\\*?\\*?\\)?",
    "答案选项是?\\s*:\\s*([{o}])",
    "答案为\\s*([{o}])",
    "答案选\\s*([{o}])",
    "选择?\\s*([{o}])",
    kJoinedPattern,
    "只有选?项?\\s?([{o}])\\s?是?错",
    "只有选?项?\\s?([{o}])\\s?不?正确",
    "只有选?项?\\s?([{o}])\\s?错误",
    "说法不?对选?项?的?是\\s?([{o}])",
    "说法不?正确选?项?的?是\\s?([{o}])",
    "说法错误选?项?的?是\\s?([{o}])",
    "([{o}])\\s?是正确的",
    "([{o}])\\s?是正确答案",
    "选项\\s?([{o}])\\s?正确",
    "所以答\\s?([{o}])",
    "所以\\s?([{o}][.。$]?$)",
    "所有\\s?([{o}][.。$]?$)",
    "[\\s，：:,]([{o}])[。，,\\.]?$",
    "[\\s，,：:][故即]([{o}])[。\\.]?$",
    "[\\s，,：:]因此([{o}])[。\\.]?$",
    "[是为。]\\s?([{o}])[。\\.]?$",
    "因此\\s?([{o}])[。\\.]?$",
    "显然\\s?([{o}])[。\\.]?$",
    "答案是\\s?(\\S+)(?:。|$)",
    "答案应该是\\s?(\\S+)(?:。|$)",
    "答案为\\s?(\\S+)(?:。|$)",
    "(?i)ANSWER\\s*:\\s*([{o}])",
    "[Tt]he answer is:?\\s+\\(?([{o}])\\)?",
    "[Tt]he answer is:?\\s+\\(?\\*?\\*?([{o}])\\*?\\*?\\)?",
    "[Tt]he answer is option:?\\s+\\(?([{o}])\\)?",
    "[Tt]he correct answer is:?\\s+\\(?([{o}])\\)?",
    "[Tt]he correct answer is option:?\\s+\\(?([{o}])\\)?",
    "[Tt]he correct answer is:?.*?boxed{([{o}])}",
    "[Tt]he correct option is:?.*?boxed{([{o}])}",
    "[Tt]he correct answer option is:?.*?boxed{([{o}])}",
    "[Tt]he answer to the question is:?\\s+\\(?([{o}])\\)?",
    "^选项\\s?([{o}])",
    "^([{o}])\\s?选?项",
    "(\\s|^)[{o}][\\s。，,：:\\.$]",
    "1.\\s?(.*?)$",
    "1.\\s?([{o}])[.。$]?$",
    "答案:\\s*([{o}])",
    "故此为\\s*([{o}])",
    "boxed\\{([{o}])\\}",
    "([{o}]):",  // the fallbacks: any option letter
    "([{o}])",
};

const PostProcessClasses::Registration kFirstOption{
    {Kind::post_process, "first_option",
     "The option letter an answer chose, by UltraEval-Audio's FirstOption patterns (Chinese and English phrasings, "
     "then any option letter); the default (or empty) when none matches",
     {arg::required_text("options", "the option letters, e.g. ABCD"),
      arg::text("default_option", "", "the answer when no pattern finds an option (none: empty)"),
      arg::boolean("separate_joined_patterns", false,
                   "correct UEA's missing comma: try '故选' and '只有选项…是对' as two patterns (default: UEA's one)")},
     {},
     {{"audio_evals.process.firstoption.FirstOption"}}},
    [](const Args& args) {
      const std::string options = args.text("options");
      const bool defaulted = args.given("default_option");
      const std::string fallback = args.text("default_option");
      const bool separate = args.boolean("separate_joined_patterns");
      std::vector<std::string> sources;
      for (const char* pattern : kOptionPatterns) {
        if (separate && std::string_view(pattern) == kJoinedPattern) {
          const std::string_view joined = kJoinedPattern;
          const std::size_t cut = joined.find("只有");
          sources.emplace_back(joined.substr(0, cut));
          sources.emplace_back(joined.substr(cut));
        } else {
          sources.emplace_back(pattern);
        }
      }
      auto patterns = std::make_shared<std::vector<text::Regex>>();
      for (const std::string& pattern : sources) {
        std::string p = pattern;
        for (std::size_t at; (at = p.find("{o}")) != std::string::npos;) p.replace(at, 3, options);
        try {
          patterns->emplace_back("(?si)" + p);
        } catch (const Error& e) {
          args.fail(fmt::format("options '{}' make an invalid pattern: {}", options, e.what()));
        }
      }
      const std::u32string letters = text::to_u32(options);
      PostProcess t = from_value(args, [=](const Value& answer) -> Value {
        if (!answer.is_string()) python_error("AttributeError", "'" + type_name(answer) + "' object has no attribute 'strip'");
        const std::string stripped = text::strip(answer.get<std::string>());
        for (const auto& regex : *patterns) {
          const auto m = regex.find(stripped);
          if (!m) continue;
          const std::string outputs = text::upper(m->matched(1) && !m->group(1).empty() ? m->group(1) : m->group(0));
          for (const char32_t letter : letters)
            if (outputs.find(text::upper(text::to_utf8(letter))) != std::string::npos) return text::to_utf8(letter);
        }
        return defaulted ? Value(fallback) : Value("");
      });
      t.identity["options"] = options;
      t.identity["default_option"] = defaulted ? Value(fallback) : Value(nullptr);
      t.identity["separate_joined_patterns"] = separate;
      return t;
    }};

// QwenAudioASRExtract: Qwen-Audio's <|tags|> to spaces, whitespace runs to one space, no
// space before punctuation, leading spaces gone; for Chinese no whitespace at all.
const PostProcessClasses::Registration kQwenAsrCleanup{
    {Kind::post_process, "qwen_asr_cleanup",
     "Qwen-Audio's transcript cleanup (UltraEval-Audio's QwenAudioASRExtract): <|tags|> removed, spaces tidied; "
     "lang zh removes every space",
     {arg::required_text("lang", "en, or zh to remove every space")},
     {},
     {{"audio_evals.process.qwen.QwenAudioASRExtract"}}},
    [](const Args& args) {
      const bool chinese = args.text("lang") == "zh";
      static const text::Regex tags("<\\|.*?\\|>"), spaces("\\s+"), before_punctuation(" ?([!,.?;:])");
      PostProcess t = from_value(args, [chinese](const Value& answer) -> Value {
        if (!answer.is_string()) python_error("TypeError", "expected string or bytes-like object");
        std::string s = spaces.sub(tags.sub(answer.get<std::string>(), " "), " ");
        s = before_punctuation.sub(s, "\\1");
        s.erase(0, s.find_first_not_of(' ') == std::string::npos ? s.size() : s.find_first_not_of(' '));
        return chinese ? spaces.sub(s, "") : s;
      });
      t.identity["lang"] = args.text("lang");
      return t;
    }};

// Speech2text: what an ASR model hears in the audio file the answer names (UEA's extract_audio
// gives that path from a spoken answer), by the scoring model that runs UEA's recognizer.
std::optional<YAML::Node> uea_speech2text(const YAML::Node& uea, const std::filesystem::path&) {
  const auto arg = [&](const char* key, const char* fallback) {
    return uea[key] && uea[key].IsScalar() ? uea[key].Scalar() : std::string(fallback);
  };
  YAML::Node args;
  const UeaRecognizer recognizer = uea_recognizer(arg("model_name", "whisper"), arg("prompt_name", "whisper-asr"));
  args["model"] = recognizer.model;
  if (!recognizer.prompt.empty()) args["prompt"] = recognizer.prompt;
  return args;
}

const PostProcessClasses::Registration kSpeechToText{
    {Kind::post_process, "speech_to_text",
     "The transcript an ASR model makes of the audio file an answer names (UltraEval-Audio's Speech2text, after "
     "extract_audio takes the file from a spoken answer); an answer naming no file fails the sample",
     // A name, not a checked reference: UEA's entries name aeval's scoring models, which a
     // registry of UEA's entries alone lacks; the factory checks it in the run's registry.
     {arg::required_text("model", "the ASR model (a model entry reading audio, e.g. whisper-large-v3)"),
      recognizer_prompt_arg()},
     {},
     {{"audio_evals.process.speech.Speech2text", uea_speech2text}}},
    [](const Args& args, const Registry& registry, const std::shared_ptr<ScoringModels>& shared) {
      // Transcripts are shared with the task's evaluators (and cached by the audio's content).
      const auto scoring = shared ? shared : std::make_shared<ScoringModels>(registry);
      const std::string model = args.text("model");
      if (!registry.contains(Kind::model, model)) args.fail("model: no model entry '" + model + "' (`aeval list models`)");
      const Hearing hear = uea_hearing(registry, scoring, model, args.text("prompt"));
      PostProcess t = from_value(args, [hear](const Value& answer) -> Value {
        if (!answer.is_string())
          python_error("TypeError", "stat: path should be string, bytes, os.PathLike or integer, not " + type_name(answer));
        const std::string path = answer.get<std::string>();
        std::error_code missing;
        if (path.empty() || !std::filesystem::exists(path, missing))
          python_error("AssertionError", "must be a valid audio file, but got " + path);
        return hear(path, nlohmann::json::object());
      });
      t.identity["model"] = model;
      if (!args.text("prompt").empty()) t.identity["prompt"] = args.text("prompt");
      return t;
    }};

}  // namespace

}  // namespace aeval::pipeline
