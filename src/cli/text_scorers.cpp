#include "cli/text_scorers.hpp"

#include <cmath>
#include <cstdlib>

#include "aeval/error.hpp"
#include "aeval/metrics/cider.hpp"
#include "aeval/metrics/classification.hpp"
#include "aeval/metrics/correlation.hpp"
#include "aeval/metrics/match.hpp"
#include "aeval/metrics/meteor.hpp"
#include "aeval/metrics/nltk_bleu.hpp"
#include "aeval/metrics/rouge.hpp"
#include "aeval/metrics/wer.hpp"
#include "metrics/numpy_sum.hpp"

namespace aeval::cli {

namespace {

using nlohmann::json;
using PerSample = std::vector<json>*;

std::vector<std::string> single_references(const ScoreInput& in, const char* metric) {
  std::vector<std::string> refs;
  for (std::size_t i = 0; i < in.references.size(); ++i) {
    if (in.references[i].size() != 1)
      throw Error(ErrorCategory::data, std::string(metric) + " takes exactly one reference per segment; segment " +
                                           std::to_string(i + 1) + " has " + std::to_string(in.references[i].size()));
    refs.push_back(in.references[i][0]);
  }
  return refs;
}

// sacreBLEU's reference streams: every segment needs the same number of references.
std::vector<std::vector<std::string>> reference_streams(const ScoreInput& in) {
  const std::size_t count = in.references.empty() ? 0 : in.references[0].size();
  std::vector<std::vector<std::string>> streams(count);
  for (std::size_t i = 0; i < in.references.size(); ++i) {
    if (in.references[i].size() != count)
      throw Error(ErrorCategory::data, "segment " + std::to_string(i + 1) + " has " +
                                           std::to_string(in.references[i].size()) + " references, segment 1 has " +
                                           std::to_string(count));
    for (std::size_t k = 0; k < count; ++k) streams[k].push_back(in.references[i][k]);
  }
  return streams;
}

double mean_of(const std::vector<double>& v) { return v.empty() ? NAN : metrics::detail::numpy_mean(v.data(), v.size()); }

std::vector<double> numbers(const std::vector<std::string>& texts, const char* what) {
  std::vector<double> out;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    char* end = nullptr;
    const double v = std::strtod(texts[i].c_str(), &end);
    if (texts[i].empty() || *end != '\0')
      throw Error(ErrorCategory::data, std::string(what) + " " + std::to_string(i + 1) + " is not a number: '" + texts[i] + "'");
    out.push_back(v);
  }
  return out;
}

json counts_json(const metrics::EditCounts& c) {
  return {{"hits", c.hits}, {"substitutions", c.substitutions}, {"deletions", c.deletions},
          {"insertions", c.insertions}, {"reference_tokens", c.ref_tokens}, {"hypothesis_tokens", c.hyp_tokens}};
}

json error_rate(const ScoreInput& in, bool chars, PerSample per_sample) {
  const auto refs = single_references(in, chars ? "cer" : "wer");
  const auto a = chars ? metrics::process_characters(refs, in.hypotheses) : metrics::process_words(refs, in.hypotheses);
  const auto r = a.rates();
  json out = counts_json(a.counts);
  out[chars ? "cer" : "wer"] = r.wer;
  if (!chars) out.update({{"mer", r.mer}, {"wil", r.wil}, {"wip", r.wip}});
  if (per_sample)
    for (const auto& c : a.per_pair) {
      json s = counts_json(c);
      s[chars ? "cer" : "wer"] = metrics::error_rates(c).wer;
      per_sample->push_back(s);
    }
  return out;
}

json bleu_json(const metrics::BleuScore& s) {
  return {{"score", s.score}, {"counts", s.counts}, {"totals", s.totals}, {"precisions", s.precisions},
          {"bp", s.bp},       {"sys_len", s.sys_len}, {"ref_len", s.ref_len}};
}

json sacrebleu(const ScoreInput& in, const ScoreOptions& o, PerSample per_sample) {
  const auto streams = reference_streams(in);
  const auto s = metrics::corpus_bleu(in.hypotheses, streams, o.bleu);
  json out = bleu_json(s);
  out["signature"] = metrics::bleu_signature(o.bleu, int(streams.size()));
  out["formatted"] = s.format();
  if (per_sample)
    for (std::size_t i = 0; i < in.hypotheses.size(); ++i)
      per_sample->push_back(bleu_json(metrics::sentence_bleu(in.hypotheses[i], in.references[i], o.bleu)));
  return out;
}

json chrf(const ScoreInput& in, const ScoreOptions& o, PerSample per_sample) {
  const auto streams = reference_streams(in);
  const auto s = metrics::corpus_chrf(in.hypotheses, streams, o.chrf);
  json out{{"score", s.score}, {"stats", s.stats}, {"signature", metrics::chrf_signature(o.chrf, int(streams.size()))},
           {"formatted", s.format()}};
  if (per_sample)
    for (std::size_t i = 0; i < in.hypotheses.size(); ++i)
      per_sample->push_back({{"score", metrics::sentence_chrf(in.hypotheses[i], in.references[i], o.chrf).score}});
  return out;
}

json nltk_bleu(const ScoreInput& in, const ScoreOptions&, PerSample per_sample) {
  std::vector<metrics::Tokens> hyps;
  std::vector<std::vector<metrics::Tokens>> refs;
  for (std::size_t i = 0; i < in.hypotheses.size(); ++i) {
    hyps.push_back(metrics::lower_split(in.hypotheses[i]));
    refs.emplace_back();
    for (const auto& r : in.references[i]) refs.back().push_back(metrics::lower_split(r));
  }
  json out;
  for (int n = 1; n <= 4; ++n)
    out["bleu_" + std::to_string(n)] = metrics::nltk_corpus_bleu(refs, hyps, metrics::audiocapbench_bleu_n(n));
  if (per_sample)
    for (std::size_t i = 0; i < hyps.size(); ++i) {
      json s;
      for (int n = 1; n <= 4; ++n)
        s["bleu_" + std::to_string(n)] = metrics::nltk_sentence_bleu(refs[i], hyps[i], metrics::audiocapbench_bleu_n(n));
      per_sample->push_back(s);
    }
  return out;
}

json meteor(const ScoreInput& in, const ScoreOptions&, PerSample per_sample) {
  const auto& wordnet = text::default_wordnet();
  std::vector<double> scores;
  for (std::size_t i = 0; i < in.hypotheses.size(); ++i) {
    std::vector<metrics::Tokens> refs;
    for (const auto& r : in.references[i]) refs.push_back(metrics::lower_split(r));
    scores.push_back(metrics::meteor_score(refs, metrics::lower_split(in.hypotheses[i]), wordnet));
    if (per_sample) per_sample->push_back({{"meteor", scores.back()}});
  }
  return {{"meteor", mean_of(scores)}, {"wordnet", wordnet.dir().string()}};
}

json rouge(const ScoreInput& in, const ScoreOptions& o, PerSample per_sample) {
  std::vector<double> r1, r2, rl;
  for (std::size_t i = 0; i < in.hypotheses.size(); ++i) {
    const auto s = metrics::rouge_score_multi(in.references[i], in.hypotheses[i], o.stem);
    r1.push_back(s.rouge1.fmeasure);
    r2.push_back(s.rouge2.fmeasure);
    rl.push_back(s.rougeL.fmeasure);
    if (per_sample)
      per_sample->push_back({{"rouge1", s.rouge1.fmeasure}, {"rouge2", s.rouge2.fmeasure}, {"rougeL", s.rougeL.fmeasure},
                             {"rougeL_precision", s.rougeL.precision}, {"rougeL_recall", s.rougeL.recall}});
  }
  return {{"rougeL", mean_of(rl)}, {"rouge1", mean_of(r1)}, {"rouge2", mean_of(r2)}, {"stemmer", o.stem}};
}

json cider(const ScoreInput& in, const ScoreOptions&, PerSample per_sample) {
  std::vector<std::string> candidates;
  std::vector<std::vector<std::string>> refs(in.references.size());
  for (std::size_t i = 0; i < in.hypotheses.size(); ++i) {
    candidates.push_back(metrics::cider_simple_tokenize(in.hypotheses[i]));
    for (const auto& r : in.references[i]) refs[i].push_back(metrics::cider_simple_tokenize(r));
  }
  const auto result = metrics::cider_d(candidates, refs);
  if (per_sample)
    for (double s : result.per_item) per_sample->push_back({{"cider_d", s}});
  return {{"cider_d", result.corpus}};
}

template <double (*Match)(std::string_view, const std::vector<std::string>&)>
json match(const ScoreInput& in, const ScoreOptions&, PerSample per_sample) {
  std::vector<double> scores;
  for (std::size_t i = 0; i < in.hypotheses.size(); ++i) {
    scores.push_back(Match(in.hypotheses[i], in.references[i]));
    if (per_sample) per_sample->push_back({{"score", scores.back()}});
  }
  return {{"score", mean_of(scores)}};
}

template <class Compute>
json correlation(const ScoreInput& in, Compute compute) {
  const auto x = numbers(single_references(in, "a correlation"), "reference");
  const auto y = numbers(in.hypotheses, "hypothesis");
  const auto c = compute(x, y);
  return {{"statistic", c.statistic}, {"pvalue", c.pvalue}, {"n", x.size()}};
}

const std::vector<TextScorer> kScorers{
    {"wer", "word error rate with MER/WIL/WIP and counts (jiwer 4.0)",
     [](const ScoreInput& in, const ScoreOptions&, PerSample p) { return error_rate(in, false, p); }},
    {"cer", "character error rate (jiwer 4.0)",
     [](const ScoreInput& in, const ScoreOptions&, PerSample p) { return error_rate(in, true, p); }},
    {"bleu", "sacreBLEU 2.6.0 corpus BLEU (--tokenize, --smooth-method, ...), with signature", sacrebleu},
    {"chrf", "sacreBLEU 2.6.0 chrF (--word-order 2 for chrF++)", chrf},
    {"nltk-bleu", "NLTK 3.8 corpus BLEU-1..4, smoothing method1, lower().split() tokens (AudioCapBench)", nltk_bleu},
    {"meteor", "NLTK 3.8 METEOR with WordNet 3.0, mean over segments of the best reference", meteor},
    {"rouge", "rouge-score 0.1.2 ROUGE-1/2/L F, best reference, mean over segments (--stem)", rouge},
    {"cider-d", "pycocoevalcap CIDEr-D over the corpus (lowercase, punctuation removed)", cider},
    {"exact-match", "normalized answer equals a reference (SQuAD normalization)", match<metrics::exact_match>},
    {"exist-match", "a normalized reference occurs in the answer as whole words", match<metrics::exist_match>},
    {"token-f1", "SQuAD token F1, best reference", match<metrics::token_f1>},
    {"pearson", "scipy 1.10 Pearson r and p-value (--ref = x numbers, --hyp = y numbers)",
     [](const ScoreInput& in, const ScoreOptions&, PerSample) { return correlation(in, metrics::pearson); }},
    {"spearman", "scipy 1.10 Spearman rho (average ranks) and p-value",
     [](const ScoreInput& in, const ScoreOptions&, PerSample) { return correlation(in, metrics::spearman); }},
    {"kendall", "scipy 1.10 Kendall tau-b and p-value",
     [](const ScoreInput& in, const ScoreOptions&, PerSample) {
       return correlation(in, [](const auto& x, const auto& y) { return metrics::kendall(x, y); });
     }},
    {"kendall-c", "scipy 1.10 Kendall tau-c and p-value",
     [](const ScoreInput& in, const ScoreOptions&, PerSample) {
       return correlation(in, [](const auto& x, const auto& y) { return metrics::kendall(x, y, metrics::KendallVariant::c); });
     }},
    {"roc-auc", "scikit-learn 1.2 ROC-AUC (--ref = labels, greater label positive; --hyp = scores)",
     [](const ScoreInput& in, const ScoreOptions&, PerSample) -> json {
       const auto labels = single_references(in, "roc-auc");
       const auto scores = numbers(in.hypotheses, "hypothesis");
       bool numeric = true;
       for (const auto& l : labels) {
         char* end = nullptr;
         std::strtod(l.c_str(), &end);
         numeric = numeric && !l.empty() && *end == '\0';
       }
       const auto positive = numeric ? metrics::positive_labels(numbers(labels, "label")) : metrics::positive_labels(labels);
       return {{"roc_auc", metrics::roc_auc(positive, scores)}, {"n", scores.size()}};
     }},
};

}  // namespace

const std::vector<TextScorer>& text_scorers() { return kScorers; }

const TextScorer* find_text_scorer(const std::string& name) {
  for (const auto& s : kScorers)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace aeval::cli
