#include "uea/uea_wer.hpp"

#include <mutex>
#include <optional>
#include <unordered_map>

#include "aeval/error.hpp"
#include "aeval/metrics/bleu.hpp"
#include "aeval/metrics/wer.hpp"
#include "aeval/text/chinese_script.hpp"
#include "aeval/text/chinese_text_norm.hpp"
#include "aeval/text/spelling_table.hpp"
#include "aeval/text/unicode.hpp"
#include "aeval/text/whisper_normalizers.hpp"

namespace aeval::pipeline {

struct UeaWer::Impl {
  explicit Impl(text::SpellingTable spelling) : english(std::move(spelling)) {}
  text::EnglishTextNormalizer english;
  text::ChineseScriptConverter simplified{"t2s.json"};  // OpenCC in place of zhconv's zh-cn
  // Each pair's edits and reference tokens, by language, reference and hypothesis: a bootstrap
  // recomputes the aggregation over resamples of the same pairs, and normalizing is the cost.
  std::mutex mutex;
  std::unordered_map<std::string, metrics::EditCounts> pairs;
};

UeaWer::UeaWer(const std::filesystem::path& spelling_table)
    : impl_(std::make_unique<Impl>(text::read_spelling_table(spelling_table))) {}

UeaWer::~UeaWer() = default;

double UeaWer::operator()(const std::vector<std::string>& refs, const std::vector<std::string>& hyps,
                          const std::string& language) const {
  // sacreBLEU 1.5.1's TOKENIZERS: none, zh, 13a, intl, char, ja-mecab.
  std::string tokenizer = "13a";
  if (language == "yue") tokenizer = "zh";
  else if (language == "jp") tokenizer = "ja-mecab";
  else if (language == "none" || language == "zh" || language == "intl" || language == "char" || language == "ja-mecab")
    tokenizer = language;
  const auto tokens = [&](std::string s) {
    s = impl_->english(s);
    if (language == "yue") s = impl_->simplified(s);
    if (language == "zh" || language == "yue") s = text::chinese_text_normalize(s);
    return text::split_whitespace(text::lower(metrics::bleu_tokenize(text::strip(s), tokenizer)));
  };
  std::size_t distance = 0, ref_length = 0;
  for (std::size_t i = 0; i < refs.size() && i < hyps.size(); ++i) {
    const std::string key = language + '\0' + refs[i] + '\0' + hyps[i];
    std::optional<metrics::EditCounts> known;
    {
      const std::lock_guard lock(impl_->mutex);
      if (const auto found = impl_->pairs.find(key); found != impl_->pairs.end()) known = found->second;
    }
    if (!known) {
      known = metrics::align(tokens(refs[i]), tokens(hyps[i]));
      const std::lock_guard lock(impl_->mutex);
      impl_->pairs.emplace(key, *known);
    }
    const metrics::EditCounts& counts = *known;
    distance += counts.errors();
    ref_length += counts.ref_tokens;
  }
  if (ref_length == 0) throw Error(ErrorCategory::data, "ZeroDivisionError: division by zero (no reference word left)");
  return double(distance) / double(ref_length);
}

}  // namespace aeval::pipeline
