#include "uea/uea_tts_text.hpp"

#include "aeval/error.hpp"
#include "aeval/metrics/wer.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::pipeline {

bool seed_tts_counts_characters(const std::string& lang) {
  return lang == "zh" || lang == "ja" || lang == "yue" || lang == "th" || lang == "ko";
}

SeedTtsTexts seed_tts_texts(const std::string& hypo, const std::string& truth, const std::string& lang,
                            const PostProcess& punctuation, bool keep_whitespace) {
  const bool characters = seed_tts_counts_characters(lang);
  const auto normalized = [&](const std::string& text) {
    const std::string removed = punctuation.apply(text, Sample{});
    std::string bare;  // str.replace("  ", " "): each pair of spaces, left to right, once
    for (std::size_t i = 0; i < removed.size(); ++i) {
      bare += removed[i];
      if (removed[i] == ' ' && i + 1 < removed.size() && removed[i + 1] == ' ') ++i;
    }
    if (!characters) return text::lower(bare);
    std::string spaced;  // " ".join(c for c in text if c.strip()), or of every c
    bool first = true;
    for (const char32_t c : text::to_u32(bare)) {
      const std::string one = text::to_utf8(c);
      if (!keep_whitespace && text::strip(one).empty()) continue;
      spaced += (first ? "" : " ") + one;
      first = false;
    }
    return spaced;
  };
  return {normalized(truth), normalized(hypo)};
}

double jiwer_pair_wer(const std::string& truth, const std::string& hypo) {
  // jiwer 2.6.0's two checks (UltraEval-Audio's pin): the text, then its words.
  if (truth.empty()) throw Error(ErrorCategory::data, "ValueError: one or more groundtruths are empty strings");
  const auto reference = metrics::jiwer_words(truth);
  if (reference.empty())
    throw Error(ErrorCategory::data,
                "ValueError: truth should be a list of list of strings after transform which are non-empty");
  const metrics::EditCounts counts = metrics::align(reference, metrics::jiwer_words(hypo));
  return double(counts.errors()) / double(counts.ref_tokens);
}

}  // namespace aeval::pipeline
