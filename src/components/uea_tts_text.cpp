#include "components/uea_tts_text.hpp"

#include "aeval/error.hpp"
#include "aeval/metrics/wer.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::pipeline {

bool seed_tts_counts_characters(const std::string& lang) {
  return lang == "zh" || lang == "ja" || lang == "yue" || lang == "th" || lang == "ko";
}

SeedTtsTexts seed_tts_texts(const std::string& hypo, const std::string& truth, const std::string& lang,
                            const PostProcess& punctuation) {
  const bool characters = seed_tts_counts_characters(lang);
  const auto normalized = [&](const std::string& text) {
    const std::string removed = punctuation.apply(text, Sample{});
    std::string bare;  // str.replace("  ", " "): each pair of spaces, left to right, once
    for (std::size_t i = 0; i < removed.size(); ++i) {
      bare += removed[i];
      if (removed[i] == ' ' && i + 1 < removed.size() && removed[i + 1] == ' ') ++i;
    }
    if (!characters) return text::lower(bare);
    std::string spaced;  // " ".join(c for c in text if c.strip())
    for (const char32_t c : text::to_u32(bare)) {
      const std::string one = text::to_utf8(c);
      if (!text::strip(one).empty()) spaced += (spaced.empty() ? "" : " ") + one;
    }
    return spaced;
  };
  return {normalized(truth), normalized(hypo)};
}

double jiwer_pair_wer(const std::string& truth, const std::string& hypo) {
  const auto reference = metrics::jiwer_words(truth);
  if (reference.empty()) throw Error(ErrorCategory::data, "ValueError: one or more references are empty strings");
  const metrics::EditCounts counts = metrics::align(reference, metrics::jiwer_words(hypo));
  return double(counts.errors()) / double(counts.ref_tokens);
}

}  // namespace aeval::pipeline
