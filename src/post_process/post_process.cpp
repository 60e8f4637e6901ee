#include <fmt/format.h>

#include <memory>

#include "aeval/error.hpp"
#include "aeval/metrics/bleu.hpp"
#include "aeval/metrics/match.hpp"
#include "registry/args.hpp"
#include "post_process/post_process.hpp"
#include "aeval/text/chinese_script.hpp"
#include "aeval/text/chinese_text_norm.hpp"
#include "aeval/text/japanese_tokenizer.hpp"
#include "aeval/text/json_in_text.hpp"
#include "aeval/text/number_words.hpp"
#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "aeval/text/whisper_normalizers.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::Kind;
using registry::Registry;
using registry::UeaClass;

namespace {

// "yes" or "no" when the answer says exactly one of them, else "".
std::string yes_or_no(const std::string& answer) {
  static const text::Regex yes("(?i)\\b(yes|yeah|yep|true|correct)\\b"), no("(?i)\\b(no|nope|false|incorrect)\\b"),
      leading("(?i)^\\W*(yes|no)\\b");
  // The first word decides ("No, there is a dog... yes" is a no).
  if (const auto first = leading.find(answer)) return text::lower(first->group(1));
  const bool y = yes.search(answer), n = no.search(answer);
  return y == n ? "" : (y ? "yes" : "no");
}

}  // namespace

PostProcess load_post_process(const Registry& registry, const std::string& name,
                              const std::shared_ptr<ScoringModels>& scoring) {
  return PostProcessClasses::make(registry.get(Kind::post_process, name), Kind::post_process, registry, scoring);
}

namespace {

// Normalizers apply to references too by default; extractors to the answer only.
ArgSpec apply_to(const char* fallback) {
  return arg::choice("apply_to", fallback, {"both", "prediction"},
                     "prediction (the model's answer only) or both (references too)");
}

// UltraEval-Audio's TextNormalization(lang): Whisper's English normalizer for "en" (with the
// spelling table UEA ships, which is not Whisper's), cn_tn for "zh", Whisper's basic one for
// anything else; on the answer alone, as UEA's processes run.
UeaClass uea_text_normalization(bool (*chooses)(const std::string& lang)) {
  return {"audio_evals.process.normalization.TextNormalization",
          [chooses](const YAML::Node& uea, const std::filesystem::path& root) -> std::optional<YAML::Node> {
            const std::string lang = uea["lang"] && uea["lang"].IsScalar() ? uea["lang"].Scalar() : "";
            if (!chooses(lang)) return std::nullopt;
            YAML::Node args;
            args["apply_to"] = "prediction";
            if (lang == "en") args["spelling_table"] = (root / "audio_evals/lib/text_normalization/english.json").string();
            return args;
          }};
}

// The parts every post-process shares: its name, where it applies, its identity.
PostProcess base(const Args& args) {
  PostProcess t;
  t.name = args.entry().name;
  t.references_too = args.text("apply_to") == "both";
  t.identity = {{"name", t.name}, {"class", args.entry().class_id}, {"apply_to", args.text("apply_to")}};
  return t;
}

const PostProcessClasses::Registration kWhisperEnglish{
    {Kind::post_process, "whisper_english", "Whisper's English text normalizer (openai/whisper c0d2f62)",
     {arg::path("spelling_table", "", "the British->American table (default: whisper's, from `aeval fetch whisper-spelling`)"),
      apply_to("both")},
     {}, {uea_text_normalization([](const std::string& lang) { return lang == "en"; })}},
    [](const Args& args) {
      PostProcess t = base(args);
      auto normalizer = std::make_shared<text::EnglishTextNormalizer>(
          args.given("spelling_table") ? text::read_spelling_table(args.path("spelling_table")) : text::load_spelling_table());
      const auto& spelling = normalizer->spelling();
      t.apply = [normalizer](const std::string& s, const Sample&) { return (*normalizer)(s); };
      t.identity["reference"] = "openai/whisper c0d2f62 EnglishTextNormalizer";
      if (spelling.available()) {
        t.identity["spelling_table"] = {{"path", spelling.source.string()}, {"sha256", spelling.sha256}};
      } else {
        t.identity["spelling_table"] = nullptr;
        t.notes.push_back(t.name + ": no spelling table at " + text::default_spelling_table_path().string() +
                          ", so British spellings are not mapped to American ones (run `aeval fetch whisper-spelling`"
                          " where there is network, or copy whisper's english.json there)");
      }
      return t;
    }};

const PostProcessClasses::Registration kWhisperBasic{
    {Kind::post_process, "whisper_basic", "Whisper's language-independent normalizer",
     {arg::boolean("remove_diacritics", false), arg::boolean("split_letters", false), apply_to("both")},
     {},
     {uea_text_normalization([](const std::string& lang) { return lang != "en" && lang != "zh"; })}},
    [](const Args& args) {
      PostProcess t = base(args);
      text::BasicNormalizerOptions options;
      options.remove_diacritics = args.boolean("remove_diacritics");
      options.split_letters = args.boolean("split_letters");
      t.apply = [options](const std::string& s, const Sample&) { return text::whisper_basic_normalize(s, options); };
      t.identity["reference"] = "openai/whisper c0d2f62 BasicTextNormalizer";
      t.identity["remove_diacritics"] = options.remove_diacritics;
      t.identity["split_letters"] = options.split_letters;
      return t;
    }};

const PostProcessClasses::Registration kStrip{
    {Kind::post_process, "strip", "Remove leading and trailing whitespace", {apply_to("both")}},
    [](const Args& args) {
      PostProcess t = base(args);
      t.apply = [](const std::string& s, const Sample&) { return text::strip(s); };
      return t;
    }};

const PostProcessClasses::Registration kLower{
    {Kind::post_process, "lower", "Lowercase (Python str.lower)", {apply_to("both")}},
    [](const Args& args) {
      PostProcess t = base(args);
      t.apply = [](const std::string& s, const Sample&) { return text::lower(s); };
      return t;
    }};

// Long-TTS-Eval's (MGM-Omni's) number step before its WER: digits spelled as num2words' English cardinals.
const PostProcessClasses::Registration kSpellNumbers{
    {Kind::post_process, "spell_numbers",
     "Every run of digits as its English cardinal with a space either side (num2words 0.5.10: 1001 -> one thousand "
     "and one); a number num2words cannot spell (10^306 and above) leaves the whole text as it was",
     {apply_to("both")}},
    [](const Args& args) {
      PostProcess t = base(args);
      t.apply = [](const std::string& s, const Sample&) { return text::spell_out_numbers(s); };
      return t;
    }};

// UltraEval-Audio's WER tokenizes both texts with a sacreBLEU tokenizer (13a, or zh for
// Chinese and Cantonese) and lowercases them before counting word edits.
const PostProcessClasses::Registration kTokenize{
    {Kind::post_process, "tokenize", "A sacreBLEU tokenizer (spaces around punctuation, CJK characters), then lowercase",
     {arg::choice("tokenizer", "13a", {"13a", "intl", "zh", "char", "ja-mecab", "none"},
                  "sacreBLEU 2.6.0's tokenizer of that name (ja-mecab: MeCab with the IPA dictionary)"),
      arg::boolean("lowercase", true, "lowercase after tokenizing (UltraEval-Audio's EvaluationTokenizer)"),
      apply_to("both")}},
    [](const Args& args) {
      PostProcess t = base(args);
      const std::string tokenizer = args.text("tokenizer");
      const bool lowercase = args.boolean("lowercase");
      t.apply = [tokenizer, lowercase](const std::string& s, const Sample&) {
        // sacreBLEU tokenizes an rstripped line; the edit distance ignores the spacing around it.
        const std::string tokens = metrics::bleu_tokenize(text::strip(s), tokenizer);
        return lowercase ? text::lower(tokens) : tokens;
      };
      t.identity["reference"] = "sacreBLEU 2.6.0 tokenizer";
      t.identity["tokenizer"] = tokenizer;
      t.identity["lowercase"] = lowercase;
      if (tokenizer == "ja-mecab") {
        const auto& mecab = text::sacrebleu_japanese_tokenizer();
        t.identity["mecab"] = {{"signature", mecab.signature()}, {"dictionary", mecab.dictionary().string()},
                               {"entries", mecab.dictionary_entries()}};
        if (!mecab.is_sacrebleu_dictionary())
          t.notes.push_back(t.name + ": MeCab uses Debian's IPA dictionary, which splits 令和 unlike the one sacreBLEU "
                                     "asserts; scripts/build_sacrebleu_ipadic.sh " + text::sacrebleu_ipadic_dir().string() +
                                     " builds that one");
      }
      return t;
    }};

// UltraEval-Audio's Chinese WER normalizes both texts with SpeechColab's cn_tn TextNorm, every option off.
const PostProcessClasses::Registration kChineseTextNorm{
    {Kind::post_process, "chinese_text_norm",
     "SpeechColab's Chinese text normalization (numbers, dates, money as characters; punctuation to spaces)",
     {apply_to("both")},
     {},
     {uea_text_normalization([](const std::string& lang) { return lang == "zh"; })}},
    [](const Args& args) {
      PostProcess t = base(args);
      t.apply = [](const std::string& s, const Sample&) { return text::chinese_text_normalize(s); };
      t.identity["reference"] = "SpeechColab cn_tn.py TextNorm (as UltraEval-Audio configures it)";
      return t;
    }};

// UltraEval-Audio converts Cantonese to simplified characters (zhconv zh-cn) before scoring.
const PostProcessClasses::Registration kToSimplified{
    {Kind::post_process, "to_simplified", "Traditional to simplified Chinese characters (OpenCC)",
     {arg::text("config", "t2s.json", "an OpenCC configuration (t2s.json, hk2s.json, tw2sp.json) or its path"),
      apply_to("both")}},
    [](const Args& args) {
      PostProcess t = base(args);
      std::shared_ptr<text::ChineseScriptConverter> converter;
      try {
        converter = std::make_shared<text::ChineseScriptConverter>(args.text("config"));
      } catch (const Error& e) {
        args.fail(e.what());
      }
      t.apply = [converter](const std::string& s, const Sample&) { return (*converter)(s); };
      t.identity["reference"] = "OpenCC 1.1.6 (in place of zhconv zh-cn; docs/benchmarks.md says what differs)";
      t.identity["config"] = args.text("config");
      return t;
    }};

const PostProcessClasses::Registration kChoice{
    {Kind::post_process, "choice",
     "The option label a free-form answer chose ('The answer is (B).' gives B); empty when ambiguous",
     {arg::texts("labels", {"A", "B", "C", "D", "E"}, "the option labels"),
      arg::text("options_field", "", "sample field listing the option texts, matched when no label is given"),
      apply_to("prediction")}},
    [](const Args& args) {
      PostProcess t = base(args);
      const std::vector<std::string> labels = args.strings("labels");
      const std::string options_field = args.text("options_field"), name = t.name;
      t.apply = [labels, options_field, name](const std::string& s, const Sample& sample) {
        std::vector<std::string> options;
        if (!options_field.empty()) {
          const auto& f = sample.fields;
          if (!f.contains(options_field) || !f[options_field].is_array())
            throw Error(ErrorCategory::data, fmt::format("sample '{}': post-process '{}' needs a list in field '{}'",
                                                         sample.id, name, options_field));
          for (const auto& o : f[options_field]) options.push_back(o.is_string() ? o.get<std::string>() : o.dump());
          if (options.size() > labels.size())
            throw Error(ErrorCategory::data, fmt::format("sample '{}': {} options but only {} labels in '{}'", sample.id,
                                                         options.size(), labels.size(), name));
        }
        // Only the labels this sample's options use ("I think..." is no answer I among four options).
        const std::vector<std::string> used(labels.begin(),
                                            labels.begin() + long(options.empty() ? labels.size() : options.size()));
        return metrics::extract_choice(s, used, options).value_or("");
      };
      t.identity["labels"] = labels;
      t.identity["options_field"] = options_field;
      return t;
    }};

const PostProcessClasses::Registration kYesNo{
    {Kind::post_process, "yes_no", "yes or no from a free-form answer; empty when it says neither or both",
     {apply_to("prediction")}},
    [](const Args& args) {
      PostProcess t = base(args);
      t.apply = [](const std::string& s, const Sample&) { return yes_or_no(s); };
      return t;
    }};

const PostProcessClasses::Registration kJsonField{
    {Kind::post_process, "json_field", "One field of the JSON object in an answer (code fences and prose around it are ignored)",
     {arg::required_text("field", "the field to take"), apply_to("prediction")}},
    [](const Args& args) {
      PostProcess t = base(args);
      const std::string field = args.text("field");
      t.apply = [field](const std::string& s, const Sample&) -> std::string {
        const auto object = text::find_json(s);
        if (!object || !object->contains(field)) return "";
        const auto& v = (*object)[field];
        return v.is_string() ? v.get<std::string>() : v.dump();
      };
      t.identity["field"] = field;
      return t;
    }};

const PostProcessClasses::Registration kRegex{
    {Kind::post_process, "regex", "The text a regular expression (Python syntax) captures; empty when it does not match",
     {arg::required_text("pattern"), arg::integer("group", 1, "capture group (0: the whole match)"), apply_to("prediction")}},
    [](const Args& args) {
      PostProcess t = base(args);
      const std::string pattern = args.text("pattern");
      const int group = args.integer("group");
      std::shared_ptr<text::Regex> regex;
      try {
        regex = std::make_shared<text::Regex>(pattern);
      } catch (const Error& e) {
        args.fail(fmt::format("pattern: {}", e.what()));
      }
      t.apply = [regex, group](const std::string& s, const Sample&) {
        const auto m = regex->find(s);
        return m ? m->group(group) : std::string();
      };
      t.identity["pattern"] = pattern;
      t.identity["group"] = group;
      return t;
    }};

const PostProcessClasses::Registration kReplace{
    {Kind::post_process, "replace", "Python's re.sub: every match of a regular expression replaced (\\1, \\g<1> refer to groups)",
     {arg::required_text("pattern"), arg::text("replacement", "", "what each match becomes"), apply_to("both")}},
    [](const Args& args) {
      PostProcess t = base(args);
      const std::string pattern = args.text("pattern"), replacement = args.text("replacement");
      std::shared_ptr<text::Regex> regex;
      try {
        regex = std::make_shared<text::Regex>(pattern);
      } catch (const Error& e) {
        args.fail(fmt::format("pattern: {}", e.what()));
      }
      t.apply = [regex, replacement](const std::string& s, const Sample&) { return regex->sub(s, replacement); };
      t.identity["pattern"] = pattern;
      t.identity["replacement"] = replacement;
      return t;
    }};

}  // namespace

}  // namespace aeval::pipeline
