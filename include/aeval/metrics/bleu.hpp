#pragma once
// BLEU as sacreBLEU 2.6.0 computes it (tokenizers 13a, intl, zh, char, ja-mecab, none;
// smoothing exp, floor, add-k, none; effective order; multiple references)
// and its reproducibility signature; shared/specs/metric-specs.md §3.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aeval::metrics {

struct BleuOptions {
  bool lowercase = false;
  std::string tokenize = "13a";      // 13a | intl | zh | char | ja-mecab | none
  std::string smooth_method = "exp";  // exp | floor | add-k | none
  std::optional<double> smooth_value;  // floor: 0.1, add-k: 1 when unset
  int max_ngram_order = 4;
  bool effective_order = false;
  // sacreBLEU 2.x scores 0 when no unigram matches (its #141); 1.5.1, UltraEval-Audio's pin, smooths those
  // statistics like any others.
  bool zero_without_match = true;
};

struct BleuScore {
  double score = 0;  // 0-100
  // add-k smoothing adds k to counts/totals of orders > 1, as sacreBLEU reports them.
  std::vector<double> counts, totals, precisions;
  double bp = 0;
  long sys_len = 0, ref_len = 0;
  // sacreBLEU's str(score): "BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = ...)"
  std::string format() const;
};

// The tokenizer alone, as sacreBLEU applies it to an rstripped segment.
// Throws aeval::Error (config) for an unknown tokenizer.
std::string bleu_tokenize(std::string_view line, const std::string& tokenizer);

// `references[k][i]` is the k-th reference of segment i (sacreBLEU's streams).
// A segment with fewer references has "" in the other streams: sacreBLEU
// drops empty references. Throws aeval::Error (data) when a stream's length
// differs from the hypotheses' or a segment has no non-empty reference.
BleuScore corpus_bleu(const std::vector<std::string>& hypotheses,
                      const std::vector<std::vector<std::string>>& references, const BleuOptions& options = {});
// The score from sufficient statistics (matches and totals per order, hypothesis and closest reference
// lengths), summed over segments as corpus_bleu sums them: the same score, digit for digit.
BleuScore bleu_from_statistics(std::vector<double> correct, std::vector<double> total, long sys_len, long ref_len,
                               const BleuOptions& options = {});
// BLEU(...).sentence_score(hypothesis, references): one segment.
BleuScore sentence_bleu(const std::string& hypothesis, const std::vector<std::string>& references,
                        const BleuOptions& options = {});

// sacreBLEU's num_refs: the number of non-empty references every segment
// has, or -1 when segments differ (shown as "nrefs:var").
int reference_count(const std::vector<std::vector<std::string>>& references);

// "nrefs:4|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0" (or the short form).
std::string bleu_signature(const BleuOptions& options, int nrefs, bool short_form = false);

struct ChrfOptions {
  int char_order = 6;
  int word_order = 0;  // 2 gives chrF++
  double beta = 2;
  bool lowercase = false;
  bool whitespace = false;
  bool eps_smoothing = false;
};

struct ChrfScore {
  double score = 0;  // 0-100
  std::vector<long> stats;  // [hyp, ref, match] per char order, then per word order
  std::string name;         // "chrF2" or "chrF2++"
  std::string format() const;  // "chrF2 = 59.73"
};

ChrfScore corpus_chrf(const std::vector<std::string>& hypotheses,
                      const std::vector<std::vector<std::string>>& references, const ChrfOptions& options = {});
ChrfScore sentence_chrf(const std::string& hypothesis, const std::vector<std::string>& references,
                        const ChrfOptions& options = {});
std::string chrf_signature(const ChrfOptions& options, int nrefs, bool short_form = false);

}  // namespace aeval::metrics
