// The text metrics of the catalog: each one's declaration next to the
// adapter from segments to the metric function that computes it.
#include <algorithm>
#include <cstdlib>

#include "aeval/error.hpp"
#include "aeval/metrics/catalog.hpp"
#include "aeval/metrics/cider.hpp"
#include "aeval/metrics/classification.hpp"
#include "aeval/metrics/correlation.hpp"
#include "aeval/metrics/match.hpp"
#include "aeval/metrics/meteor.hpp"
#include "aeval/metrics/nltk_bleu.hpp"
#include "aeval/metrics/rouge.hpp"
#include "aeval/metrics/wer.hpp"
#include "metrics/catalog/segment_values.hpp"

namespace aeval::metrics {

namespace {

using nlohmann::json;
using Results = std::vector<json>;
using Options = TextMetricOptions;

// Error rates: a segment keeps its edit counts, the corpus sums them (jiwer). The keys go in in their order,
// each at the map's end without a search (placing them, and nlohmann's initializer lists, were half of a tiny
// call); a segment has its error rate, the corpus MER, WIL and WIP too.
json error_rate_json(bool characters, const EditCounts& c, const ErrorRates& r, bool corpus) {
  json::object_t o;
  const auto put = [&](const char* key, json value) { o.emplace_hint(o.end(), key, std::move(value)); };
  if (characters) put("cer", r.wer);
  put("deletions", c.deletions);
  put("hits", c.hits);
  put("hypothesis_tokens", c.hyp_tokens);
  put("insertions", c.insertions);
  if (corpus) put("mer", r.mer);
  put("reference_tokens", c.ref_tokens);
  put("substitutions", c.substitutions);
  if (!characters) put("wer", r.wer);
  if (corpus) {
    put("wil", r.wil);
    put("wip", r.wip);
  }
  return json(std::move(o));
}

template <bool Characters>
json error_rate_segment(const std::string& hypothesis, const std::vector<std::string>& references, const Options&) {
  const EditCounts c = Characters ? align(jiwer_chars(references[0]), jiwer_chars(hypothesis))
                                  : align(jiwer_words(references[0]), jiwer_words(hypothesis));
  return error_rate_json(Characters, c, error_rates(c), false);
}

template <bool Characters>
json error_rate_corpus(const Segments&, Results& results, const Options&) {
  EditCounts total;
  for (const json& r : results) {
    EditCounts c;
    c.hits = r.at("hits");
    c.substitutions = r.at("substitutions");
    c.deletions = r.at("deletions");
    c.insertions = r.at("insertions");
    c.ref_tokens = r.at("reference_tokens");
    c.hyp_tokens = r.at("hypothesis_tokens");
    total += c;
  }
  return error_rate_json(Characters, total, error_rates(total), true);
}

EditCounts summed_counts(const std::vector<double>& sums) {
  const auto count = [&](std::size_t k) { return std::size_t(sums[k]); };
  return {count(0), count(1), count(2), count(3), count(4), count(5)};
}

// The corpus rate from the segments' edit counts, summed as error_rate_corpus sums them.
template <bool Characters>
CorpusFromSegments error_rate_sums(const Options&) {
  static constexpr const char* kCounts[] = {"hits", "substitutions", "deletions", "insertions", "reference_tokens",
                                           "hypothesis_tokens"};
  return {CorpusFromSegments::Way::sums, 6,
          [](const json& r, double* row) {
            for (const char* key : kCounts) *row++ = r.at(key).get<double>();
          },
          [](const std::vector<double>& sums, const Options&) { return error_rates(summed_counts(sums)).wer; },
          [](const std::vector<double>& sums, const Options&) {
            const EditCounts c = summed_counts(sums);
            return error_rate_json(Characters, c, error_rates(c), true);
          }};
}

// sacreBLEU's reference streams, refs[k][i] = k-th reference of segment i;
// a segment with fewer references has "" in the streams it lacks, which
// sacreBLEU drops (its way of taking a variable number of references).
std::vector<std::vector<std::string>> streams_of(const Segments& s) {
  std::size_t count = 0;
  for (const auto& refs : s.references) count = std::max(count, refs.size());
  std::vector<std::vector<std::string>> streams(count, std::vector<std::string>(s.references.size()));
  for (std::size_t i = 0; i < s.references.size(); ++i)
    for (std::size_t k = 0; k < s.references[i].size(); ++k) streams[k][i] = s.references[i][k];
  return streams;
}

json bleu_json(const BleuScore& s) {
  return {{"score", s.score}, {"counts", s.counts}, {"totals", s.totals}, {"precisions", s.precisions},
          {"bp", s.bp},       {"sys_len", s.sys_len}, {"ref_len", s.ref_len}};
}

json bleu_segment(const std::string& hypothesis, const std::vector<std::string>& references, const Options& o) {
  return bleu_json(sentence_bleu(hypothesis, references, o.bleu));
}

// sacreBLEU's corpus score from the segments' matches, totals and lengths, which corpus_bleu sums as it goes.
// Not with add-k smoothing, whose segment results report smoothed counts.
CorpusFromSegments bleu_sums(const Options& o) {
  if (o.bleu.smooth_method == "add-k") return {};
  return {CorpusFromSegments::Way::sums, 2 * std::size_t(o.bleu.max_ngram_order) + 2,
          [](const json& r, double* row) {
            for (const auto& c : r.at("counts")) *row++ = c.get<double>();
            for (const auto& t : r.at("totals")) *row++ = t.get<double>();
            *row++ = r.at("sys_len").get<double>();
            *row = r.at("ref_len").get<double>();
          },
          [](const std::vector<double>& sums, const Options& o) {
            const auto order = std::ptrdiff_t(o.bleu.max_ngram_order);
            return bleu_from_statistics({sums.begin(), sums.begin() + order}, {sums.begin() + order, sums.begin() + 2 * order},
                                        long(sums[std::size_t(2 * order)]), long(sums[std::size_t(2 * order + 1)]), o.bleu)
                .score;
          }};
}

json bleu_corpus(const Segments& s, Results&, const Options& o) {
  const auto streams = streams_of(s);
  const BleuScore b = corpus_bleu(s.hypotheses, streams, o.bleu);
  json out = bleu_json(b);
  out["signature"] = bleu_signature(o.bleu, reference_count(streams));
  out["formatted"] = b.format();
  return out;
}

json chrf_segment(const std::string& hypothesis, const std::vector<std::string>& references, const Options& o) {
  return {{"score", sentence_chrf(hypothesis, references, o.chrf).score}};
}

json chrf_corpus(const Segments& s, Results&, const Options& o) {
  const auto streams = streams_of(s);
  const ChrfScore c = corpus_chrf(s.hypotheses, streams, o.chrf);
  return {{"score", c.score}, {"stats", c.stats}, {"signature", chrf_signature(o.chrf, reference_count(streams))},
          {"formatted", c.format()}};
}

// NLTK BLEU-1..4 as AudioCapBench reports them: lower().split() tokens.
std::vector<Tokens> token_lists(const std::vector<std::string>& texts) {
  std::vector<Tokens> out;
  for (const auto& t : texts) out.push_back(lower_split(t));
  return out;
}

// Each segment's n-grams are counted once; BLEU-1..4 of the segment, or of the corpus from the
// segments' summed counts, follow from them.
json nltk_bleu_1_to_4(const NltkBleuCounts& counts) {
  json out;
  for (int n = 1; n <= 4; ++n) out["bleu_" + std::to_string(n)] = nltk_bleu(counts, audiocapbench_bleu_n(n));
  return out;
}

json nltk_bleu_segment(const std::string& hypothesis, const std::vector<std::string>& references, const Options&) {
  return nltk_bleu_1_to_4(nltk_bleu_counts(token_lists(references), lower_split(hypothesis), 4));
}

json nltk_bleu_corpus(const Segments& s, Results& results, const Options& o) {
  if (o.segment_mean) {  // AudioCapBench's fallback metrics: each sample's sentence BLEU, averaged
    json out{{"average", "mean of segments"}};
    for (int n = 1; n <= 4; ++n) out["bleu_" + std::to_string(n)] = detail::mean_of(results, "bleu_" + std::to_string(n));
    return out;
  }
  if (s.references.size() != s.hypotheses.size())
    throw Error(ErrorCategory::data, "BLEU: " + std::to_string(s.hypotheses.size()) + " hypotheses but " +
                                         std::to_string(s.references.size()) + " reference lists");
  NltkBleuCounts total{std::vector<long>(4, 0), std::vector<long>(4, 0)};
  for (std::size_t i = 0; i < s.hypotheses.size(); ++i)
    total += nltk_bleu_counts(token_lists(s.references[i]), lower_split(s.hypotheses[i]), 4);
  return nltk_bleu_1_to_4(total);
}

json meteor_segment(const std::string& hypothesis, const std::vector<std::string>& references, const Options&) {
  return {{"meteor", meteor_score(token_lists(references), lower_split(hypothesis), text::default_wordnet())}};
}

// METEOR's and ROUGE-L's corpus values are the means of their segments'; NLTK BLEU's under segment_mean.
CorpusFromSegments segment_mean(const Options&) { return {CorpusFromSegments::Way::mean}; }
CorpusFromSegments nltk_bleu_from_segments(const Options& o) {
  return o.segment_mean ? CorpusFromSegments{CorpusFromSegments::Way::mean} : CorpusFromSegments{};
}

json meteor_corpus(const Segments&, Results& results, const Options&) {
  return {{"meteor", detail::mean_of(results, "meteor")}, {"wordnet", text::default_wordnet().dir().string()}};
}

json rouge_segment(const std::string& hypothesis, const std::vector<std::string>& references, const Options& o) {
  const RougeScores s = rouge_score_multi(references, hypothesis, o.stem);
  return {{"rouge1", s.rouge1.fmeasure}, {"rouge2", s.rouge2.fmeasure}, {"rougeL", s.rougeL.fmeasure},
          {"rougeL_precision", s.rougeL.precision}, {"rougeL_recall", s.rougeL.recall}};
}

json rouge_corpus(const Segments&, Results& results, const Options& o) {
  return {{"rougeL", detail::mean_of(results, "rougeL")}, {"rouge1", detail::mean_of(results, "rouge1")},
          {"rouge2", detail::mean_of(results, "rouge2")}, {"stemmer", o.stem}};
}

// CIDEr-D's idf is a property of the corpus: segments get their values from it.
json cider_corpus(const Segments& s, Results& results, const Options&) {
  std::vector<std::string> candidates;
  std::vector<std::vector<std::string>> refs;
  for (std::size_t i = 0; i < s.hypotheses.size(); ++i) {
    candidates.push_back(cider_simple_tokenize(s.hypotheses[i]));
    refs.emplace_back();
    for (const auto& r : s.references[i]) refs.back().push_back(cider_simple_tokenize(r));
  }
  const CiderResult c = cider_d(candidates, refs);
  results.resize(c.per_item.size());
  for (std::size_t i = 0; i < c.per_item.size(); ++i) results[i] = {{"cider_d", c.per_item[i]}};
  return {{"cider_d", c.corpus}};
}

template <double (*Match)(std::string_view, const std::vector<std::string>&)>
json match_segment(const std::string& hypothesis, const std::vector<std::string>& references, const Options&) {
  return {{"score", Match(hypothesis, references)}};
}

// MMAU's rule needs the answer and the other choices: the first reference is the
// answer, the rest are the choices (the answer may be among them, as in MMAU's rows).
json choice_strings_segment(const std::string& hypothesis, const std::vector<std::string>& references, const Options&) {
  const std::vector<std::string> choices(references.begin() + 1, references.end());
  return {{"score", choice_strings_match(hypothesis, references.front(), choices)}};
}

// Correlations and ROC-AUC read numbers: references are x (or labels), hypotheses y (or scores).
std::vector<double> numbers(const std::vector<std::string>& texts, const char* what) {
  std::vector<double> out;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    char* end = nullptr;
    const double v = std::strtod(texts[i].c_str(), &end);
    if (texts[i].empty() || *end != '\0')
      throw Error(ErrorCategory::data,
                  std::string(what) + " " + std::to_string(i + 1) + " is not a number: '" + texts[i] + "'");
    out.push_back(v);
  }
  return out;
}

std::vector<std::string> first_references(const Segments& s) {
  std::vector<std::string> out;
  for (const auto& r : s.references) out.push_back(r.at(0));
  return out;
}

template <Correlation (*Compute)(const std::vector<double>&, const std::vector<double>&)>
json correlation_numbers(const std::vector<double>& x, const std::vector<double>& y) {
  const Correlation c = Compute(x, y);
  return {{"statistic", c.statistic}, {"pvalue", c.pvalue}, {"n", x.size()}};
}

template <Correlation (*Compute)(const std::vector<double>&, const std::vector<double>&)>
json correlation_corpus(const Segments& s, Results&, const Options&) {
  return correlation_numbers<Compute>(numbers(first_references(s), "reference"), numbers(s.hypotheses, "hypothesis"));
}

Correlation kendall_b(const std::vector<double>& x, const std::vector<double>& y) { return kendall(x, y); }
Correlation kendall_c(const std::vector<double>& x, const std::vector<double>& y) {
  return kendall(x, y, KendallVariant::c);
}

// Labels may be numbers (the greater is positive) or any two strings.
json roc_auc_corpus(const Segments& s, Results&, const Options&) {
  const auto labels = first_references(s);
  const auto scores = numbers(s.hypotheses, "hypothesis");
  bool numeric = true;
  for (const auto& l : labels) {
    char* end = nullptr;
    std::strtod(l.c_str(), &end);
    numeric = numeric && !l.empty() && *end == '\0';
  }
  const auto positive = numeric ? positive_labels(numbers(labels, "label")) : positive_labels(labels);
  return {{"roc_auc", roc_auc(positive, scores)}, {"n", scores.size()}};
}

json roc_auc_numbers(const std::vector<double>& labels, const std::vector<double>& scores) {
  return {{"roc_auc", roc_auc(positive_labels(labels), scores)}, {"n", scores.size()}};
}

TextMetric with_numbers(TextMetric m, decltype(TextMetric::numbers) numbers) {
  m.numbers = numbers;
  return m;
}

TextMetric metric(MetricInfo info, std::string key, std::vector<std::string> parameters, ReferenceCount references,
                  decltype(TextMetric::segment) segment, decltype(TextMetric::corpus) corpus,
                  decltype(TextMetric::from_segments) from_segments = nullptr) {
  TextMetric m;
  static_cast<MetricInfo&>(m) = std::move(info);
  m.key = std::move(key);
  m.parameters = std::move(parameters);
  m.references = references;
  m.segment = segment;
  m.corpus = corpus;
  m.from_segments = from_segments;
  return m;
}

}  // namespace

const std::vector<TextMetric>& text_metrics() {
  // Statics of the function, not globals: classes of other files read the catalog while globals are being
  // initialised. (Plain locals were rebuilt on every look-up, a tenth of a tiny call.)
  static const LeaderboardScale kErrorScale{"100 − 100·x", -100, 100};
  static const LeaderboardScale kFractionScale{"100·x", 100, 0};
  static const LeaderboardScale kPercentScale{"x", 1, 0};
  static const LeaderboardScale kNotAveraged{};
  static const std::vector<std::string> kBleuParameters{"tokenize",     "lowercase",       "smooth_method",
                                                        "smooth_value", "max_ngram_order", "effective_order"};
  static const std::vector<TextMetric> metrics{
      metric({"wer", {}, "word error rate with MER/WIL/WIP and edit counts; corpus = summed edits / reference words",
              "jiwer 4.0.0 process_words (wer_default)", MetricInput::text, Better::lower, kErrorScale},
             "wer", {}, ReferenceCount::one, error_rate_segment<false>, error_rate_corpus<false>, error_rate_sums<false>),
      metric({"cer", {}, "character error rate (spaces are characters); corpus = summed edits / reference characters",
              "jiwer 4.0.0 process_characters (cer_default)", MetricInput::text, Better::lower, kErrorScale},
             "cer", {}, ReferenceCount::one, error_rate_segment<true>, error_rate_corpus<true>, error_rate_sums<true>),
      metric({"bleu", {}, "corpus BLEU (0–100) with sacreBLEU's signature; per segment: sentence BLEU",
              "sacreBLEU 2.6.0 corpus_bleu", MetricInput::text, Better::higher, kPercentScale},
             "score", kBleuParameters, ReferenceCount::any, bleu_segment, bleu_corpus, bleu_sums),
      metric({"chrf", {}, "corpus chrF (0–100; word_order 2 gives chrF++) with sacreBLEU's signature",
              "sacreBLEU 2.6.0 corpus_chrf", MetricInput::text, Better::higher, kPercentScale},
             "score", {"char_order", "word_order", "beta", "lowercase"}, ReferenceCount::any, chrf_segment,
             chrf_corpus),
      metric({"nltk-bleu", {}, "corpus BLEU-1..4 (0–1), smoothing method1, lower().split() tokens (AudioCapBench)",
              "NLTK 3.8 corpus_bleu", MetricInput::text, Better::higher, kFractionScale},
             "bleu_4", {"segment_mean"}, ReferenceCount::any, nltk_bleu_segment, nltk_bleu_corpus, nltk_bleu_from_segments),
      metric({"meteor", {}, "METEOR with WordNet 3.0 against the best reference; mean over segments",
              "NLTK 3.8 meteor_score, WordNet 3.0", MetricInput::text, Better::higher, kFractionScale},
             "meteor", {}, ReferenceCount::any, meteor_segment, meteor_corpus, segment_mean),
      metric({"rouge-l", {"rouge", "rouge_l"}, "ROUGE-L F (and ROUGE-1/2) against the best reference; mean over segments",
              "rouge-score 0.1.2", MetricInput::text, Better::higher, kFractionScale},
             "rougeL", {"stem"}, ReferenceCount::any, rouge_segment, rouge_corpus, segment_mean),
      metric({"cider-d", {"cider_d"}, "CIDEr-D with corpus idf (lowercase, punctuation removed)",
              "pycocoevalcap CIDEr-D (n 4, sigma 6)", MetricInput::text, Better::higher, kNotAveraged},
             "cider_d", {}, ReferenceCount::any, nullptr, cider_corpus),
      metric({"exact-match", {"exact_match"}, "1 when the answer equals a reference after SQuAD normalization; mean",
              "SQuAD normalization: lowercase, ASCII punctuation and articles removed", MetricInput::text,
              Better::higher, kFractionScale},
             "score", {}, ReferenceCount::any, match_segment<exact_match>, nullptr),
      metric({"exist-match", {"exist_match"}, "1 when a normalized reference occurs in the answer as whole words; mean",
              "SQuAD normalization, whole-word containment", MetricInput::text, Better::higher, kFractionScale},
             "score", {}, ReferenceCount::any, match_segment<exist_match>, nullptr),
      metric({"qa-exist-match", {}, "1 when a reference's tokens occur in a row in the answer's (DPR has_answer); mean",
              "UltraEval-Audio QAExistMatchEvaluator (DPR SimpleTokenizer, NFD, lowercase)", MetricInput::text,
              Better::higher, kFractionScale},
             "score", {}, ReferenceCount::any, match_segment<qa_exist_match>, nullptr),
      metric({"choice-strings-match", {},
              "MMAU string match; references: the answer first, then every choice; mean",
              "MMAU string_match (UltraEval-Audio ChoiceStringMatch)", MetricInput::text, Better::higher,
              kFractionScale},
             "score", {}, ReferenceCount::any, choice_strings_segment, nullptr),
      metric({"strip-equal", {}, "1 when the stripped answer equals a stripped reference; mean",
              "UltraEval-Audio EM (text labels)", MetricInput::text, Better::higher, kFractionScale},
             "score", {}, ReferenceCount::any, match_segment<strip_equal>, nullptr),
      metric({"prefix-match", {}, "1 when the lowercased, stripped answer starts with a reference; mean",
              "UltraEval-Audio PrefixMatch (ignore_case)", MetricInput::text, Better::higher, kFractionScale},
             "score", {}, ReferenceCount::any, match_segment<prefix_match>, nullptr),
      metric({"token-f1", {}, "SQuAD token F1 against the best reference; mean", "SQuAD v1.1 f1_score",
              MetricInput::text, Better::higher, kFractionScale},
             "score", {}, ReferenceCount::any, match_segment<token_f1>, nullptr),
      with_numbers(metric({"pearson", {}, "Pearson r and p-value (references = x numbers, hypotheses = y numbers)",
              "scipy 1.10 pearsonr", MetricInput::numbers, Better::higher, kNotAveraged},
             "statistic", {}, ReferenceCount::one, nullptr, correlation_corpus<pearson>), correlation_numbers<pearson>),
      with_numbers(metric({"spearman", {}, "Spearman rho (average ranks) and p-value", "scipy 1.10 spearmanr", MetricInput::numbers,
              Better::higher, kNotAveraged},
             "statistic", {}, ReferenceCount::one, nullptr, correlation_corpus<spearman>), correlation_numbers<spearman>),
      with_numbers(metric({"kendall", {}, "Kendall tau-b and p-value", "scipy 1.10 kendalltau (variant b)", MetricInput::numbers,
              Better::higher, kNotAveraged},
             "statistic", {}, ReferenceCount::one, nullptr, correlation_corpus<kendall_b>), correlation_numbers<kendall_b>),
      with_numbers(metric({"kendall-c", {}, "Kendall tau-c and p-value", "scipy 1.10 kendalltau (variant c)", MetricInput::numbers,
              Better::higher, kNotAveraged},
             "statistic", {}, ReferenceCount::one, nullptr, correlation_corpus<kendall_c>), correlation_numbers<kendall_c>),
      with_numbers(metric({"roc-auc", {}, "ROC-AUC (references = labels, the greater label positive; hypotheses = scores)",
              "scikit-learn 1.2 roc_auc_score", MetricInput::numbers, Better::higher, kNotAveraged},
             "roc_auc", {}, ReferenceCount::one, nullptr, roc_auc_corpus), roc_auc_numbers),
  };
  return metrics;
}

}  // namespace aeval::metrics
