#include <memory>

#include "aeval/error.hpp"
#include "aeval/pipeline/args.hpp"
#include "aeval/pipeline/components.hpp"
#include "aeval/text/whisper_normalizers.hpp"

namespace aeval::pipeline {

TextTransform load_post_process(const Registry& registry, const std::string& name) {
  const Entry& entry = registry.get(Kind::post_process, name);
  Args args(entry);
  TextTransform t;
  t.name = name;
  if (entry.class_id == "whisper_english") {
    args.reject_unknown();
    auto normalizer = std::make_shared<text::EnglishTextNormalizer>(text::load_spelling_table());
    const auto& spelling = normalizer->spelling();
    t.apply = [normalizer](const std::string& s) { return (*normalizer)(s); };
    t.identity = {{"class", entry.class_id}, {"reference", "openai/whisper c0d2f62 EnglishTextNormalizer"}};
    if (spelling.available()) {
      t.identity["spelling_table"] = {{"path", spelling.source.string()}, {"sha256", spelling.sha256}};
    } else {
      t.identity["spelling_table"] = nullptr;
      t.notes.push_back("whisper-english: no spelling table at " + text::default_spelling_table_path().string() +
                        ", so British spellings are not mapped to American ones (run `aeval fetch whisper-spelling`"
                        " where there is network, or copy whisper's english.json there)");
    }
    return t;
  }
  if (entry.class_id == "whisper_basic") {
    text::BasicNormalizerOptions options;
    options.remove_diacritics = args.boolean("remove_diacritics", false);
    options.split_letters = args.boolean("split_letters", false);
    args.reject_unknown();
    t.apply = [options](const std::string& s) { return text::whisper_basic_normalize(s, options); };
    t.identity = {{"class", entry.class_id}, {"reference", "openai/whisper c0d2f62 BasicTextNormalizer"},
                  {"remove_diacritics", options.remove_diacritics}, {"split_letters", options.split_letters}};
    return t;
  }
  throw Error(ErrorCategory::config, entry.where() + ": unknown post-process class '" + entry.class_id + "'" +
                                         suggestion_suffix(entry.class_id, {"whisper_english", "whisper_basic"}));
}

}  // namespace aeval::pipeline
