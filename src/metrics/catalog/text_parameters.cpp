// The parameters of the text metrics: one name, meaning and default each
// (the default is TextMetricOptions' own), shared by every metric reading it.
#include <fmt/format.h>

#include "aeval/error.hpp"
#include "aeval/metrics/catalog.hpp"

namespace aeval::metrics {

namespace {

using nlohmann::json;
using Options = TextMetricOptions;

template <class T>
T value_as(const json& v, const char* name) {
  try {
    return v.get<T>();
  } catch (const json::exception&) {
    throw Error(ErrorCategory::config, fmt::format("text metric parameter '{}' cannot be {}", name, v.dump()));
  }
}

}  // namespace

const std::vector<TextParameter>& text_parameters() {
  static const std::vector<TextParameter> parameters{
      {"tokenize", "bleu: sacreBLEU tokenizer", {"13a", "intl", "zh", "char", "ja-mecab", "none"},
       [](const Options& o) -> json { return o.bleu.tokenize; },
       [](Options& o, const json& v) { o.bleu.tokenize = value_as<std::string>(v, "tokenize"); }},
      {"lowercase", "bleu, chrf: lowercase both sides", {},
       [](const Options& o) -> json { return o.bleu.lowercase; },
       [](Options& o, const json& v) { o.bleu.lowercase = o.chrf.lowercase = value_as<bool>(v, "lowercase"); }},
      {"smooth_method", "bleu: smoothing of zero n-gram counts", {"exp", "floor", "add-k", "none"},
       [](const Options& o) -> json { return o.bleu.smooth_method; },
       [](Options& o, const json& v) { o.bleu.smooth_method = value_as<std::string>(v, "smooth_method"); }},
      {"smooth_value", "bleu: the value of floor (0.1) or add-k (1) smoothing; null: that default", {},
       [](const Options& o) -> json { return o.bleu.smooth_value ? json(*o.bleu.smooth_value) : json(nullptr); },
       [](Options& o, const json& v) {
         o.bleu.smooth_value = v.is_null() ? std::nullopt : std::optional(value_as<double>(v, "smooth_value"));
       }},
      {"max_ngram_order", "bleu: the highest n-gram order", {},
       [](const Options& o) -> json { return o.bleu.max_ngram_order; },
       [](Options& o, const json& v) { o.bleu.max_ngram_order = value_as<int>(v, "max_ngram_order"); }},
      {"effective_order", "bleu: skip n-gram orders the hypothesis is too short to have", {},
       [](const Options& o) -> json { return o.bleu.effective_order; },
       [](Options& o, const json& v) { o.bleu.effective_order = value_as<bool>(v, "effective_order"); }},
      {"char_order", "chrf: character n-gram order", {},
       [](const Options& o) -> json { return o.chrf.char_order; },
       [](Options& o, const json& v) { o.chrf.char_order = value_as<int>(v, "char_order"); }},
      {"word_order", "chrf: word n-gram order (2 gives chrF++)", {},
       [](const Options& o) -> json { return o.chrf.word_order; },
       [](Options& o, const json& v) { o.chrf.word_order = value_as<int>(v, "word_order"); }},
      {"beta", "chrf: weight of recall against precision", {},
       [](const Options& o) -> json { return o.chrf.beta; },
       [](Options& o, const json& v) { o.chrf.beta = value_as<double>(v, "beta"); }},
      {"stem", "rouge-l: Porter-stem tokens longer than 3 characters (AudioCapBench does)", {},
       [](const Options& o) -> json { return o.stem; },
       [](Options& o, const json& v) { o.stem = value_as<bool>(v, "stem"); }},
      {"segment_mean", "nltk-bleu: the mean of the segments' sentence BLEU, not corpus BLEU (AudioCapBench's table)", {},
       [](const Options& o) -> json { return o.segment_mean; },
       [](Options& o, const json& v) { o.segment_mean = value_as<bool>(v, "segment_mean"); }},
  };
  return parameters;
}

const TextParameter& text_parameter(std::string_view name) {
  for (const auto& p : text_parameters())
    if (p.name == name) return p;
  throw Error(ErrorCategory::internal, fmt::format("no text metric parameter '{}'", name));
}

}  // namespace aeval::metrics
