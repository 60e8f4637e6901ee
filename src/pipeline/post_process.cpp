#include <fmt/format.h>

#include <memory>

#include "aeval/error.hpp"
#include "aeval/metrics/match.hpp"
#include "aeval/pipeline/args.hpp"
#include "aeval/pipeline/components.hpp"
#include "aeval/text/json_in_text.hpp"
#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "aeval/text/whisper_normalizers.hpp"

namespace aeval::pipeline {

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

PostProcess load_post_process(const Registry& registry, const std::string& name) {
  const Entry& entry = registry.get(Kind::post_process, name);
  Args args(entry);  // validated against the catalog when the registry loaded
  PostProcess t;
  t.name = name;
  const std::string& c = entry.class_id;
  const bool normalizer = c == "whisper_english" || c == "whisper_basic" || c == "strip" || c == "lower";
  const std::string apply_to = args.choice("apply_to", normalizer ? "both" : "prediction", {"both", "prediction"});
  t.references_too = apply_to == "both";
  t.identity = {{"name", name}, {"class", c}, {"apply_to", apply_to}};

  if (c == "whisper_english") {
    auto normalizer_ = std::make_shared<text::EnglishTextNormalizer>(text::load_spelling_table());
    const auto& spelling = normalizer_->spelling();
    t.apply = [normalizer_](const std::string& s, const Sample&) { return (*normalizer_)(s); };
    t.identity["reference"] = "openai/whisper c0d2f62 EnglishTextNormalizer";
    if (spelling.available()) {
      t.identity["spelling_table"] = {{"path", spelling.source.string()}, {"sha256", spelling.sha256}};
    } else {
      t.identity["spelling_table"] = nullptr;
      t.notes.push_back(name + ": no spelling table at " + text::default_spelling_table_path().string() +
                        ", so British spellings are not mapped to American ones (run `aeval fetch whisper-spelling`"
                        " where there is network, or copy whisper's english.json there)");
    }
  } else if (c == "whisper_basic") {
    text::BasicNormalizerOptions options;
    options.remove_diacritics = args.boolean("remove_diacritics", false);
    options.split_letters = args.boolean("split_letters", false);
    t.apply = [options](const std::string& s, const Sample&) { return text::whisper_basic_normalize(s, options); };
    t.identity["reference"] = "openai/whisper c0d2f62 BasicTextNormalizer";
    t.identity["remove_diacritics"] = options.remove_diacritics;
    t.identity["split_letters"] = options.split_letters;
  } else if (c == "strip") {
    t.apply = [](const std::string& s, const Sample&) { return text::strip(s); };
  } else if (c == "lower") {
    t.apply = [](const std::string& s, const Sample&) { return text::lower(s); };
  } else if (c == "choice") {
    std::vector<std::string> labels = args.strings("labels");
    if (labels.empty()) labels = {"A", "B", "C", "D", "E"};
    const std::string options_field = args.string("options_field", "");
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
      const std::vector<std::string> used(labels.begin(), labels.begin() + long(options.empty() ? labels.size() : options.size()));
      return metrics::extract_choice(s, used, options).value_or("");
    };
    t.identity["labels"] = labels;
    t.identity["options_field"] = options_field;
  } else if (c == "yes_no") {
    t.apply = [](const std::string& s, const Sample&) { return yes_or_no(s); };
  } else if (c == "json_field") {
    const std::string field = args.required_string("field");
    t.apply = [field](const std::string& s, const Sample&) -> std::string {
      const auto object = text::find_json(s);
      if (!object || !object->contains(field)) return "";
      const auto& v = (*object)[field];
      return v.is_string() ? v.get<std::string>() : v.dump();
    };
    t.identity["field"] = field;
  } else if (c == "regex") {
    const std::string pattern = args.required_string("pattern");
    const int group = args.integer("group", 1);
    std::shared_ptr<text::Regex> regex;
    try {
      regex = std::make_shared<text::Regex>(pattern);
    } catch (const Error& e) {
      throw Error(ErrorCategory::config, fmt::format("{}: pattern of '{}': {}", entry.where(), name, e.what()));
    }
    t.apply = [regex, group](const std::string& s, const Sample&) {
      const auto m = regex->find(s);
      return m ? m->group(group) : std::string();
    };
    t.identity["pattern"] = pattern;
    t.identity["group"] = group;
  } else {
    throw Error(ErrorCategory::internal, entry.where() + ": post-process class '" + c + "' has no loader");
  }
  return t;
}

}  // namespace aeval::pipeline
