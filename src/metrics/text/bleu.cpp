// BLEU: sacreBLEU 2.6.0 (metrics/bleu.py compute_bleu, sufficient statistics,
// closest reference length, signature, str()); shared/specs/metric-specs.md §3.2-3.3.
#include <fmt/format.h>

#include <cmath>

#include "aeval/error.hpp"
#include "aeval/metrics/bleu.hpp"
#include "aeval/text/japanese_tokenizer.hpp"
#include "aeval/text/unicode.hpp"
#include "metrics/text/ngram_counts.hpp"
#include "metrics/text/reference_streams.hpp"

namespace aeval::metrics {

namespace {

constexpr const char* kSacrebleuVersion = "2.6.0";

std::optional<double> default_smooth_value(const std::string& method) {
  if (method == "floor") return 0.1;
  if (method == "add-k") return 1.0;
  if (method == "exp" || method == "none") return std::nullopt;
  throw Error(ErrorCategory::config, "unknown BLEU smooth_method '" + method + "' (exp, floor, add-k, none)");
}

std::vector<std::string> preprocess(std::string_view segment, const BleuOptions& o) {
  const std::string cased = o.lowercase ? text::lower(segment) : std::string(segment);
  // sacreBLEU rstrips before tokenizing, then splits the result on whitespace.
  std::u32string u = text::to_u32(cased);
  while (!u.empty() && text::is_space(u.back())) u.pop_back();
  return text::split_whitespace(bleu_tokenize(text::to_utf8(u), o.tokenize));
}

long closest_ref_len(long hyp_len, const std::vector<long>& ref_lens) {
  long best_diff = -1, best = -1;
  for (long len : ref_lens) {
    const long diff = std::labs(hyp_len - len);
    if (best_diff == -1 || diff < best_diff) {
      best_diff = diff;
      best = len;
    } else if (diff == best_diff && len < best) {
      best = len;
    }
  }
  return best;
}

double my_log(double x) { return x == 0.0 ? -9999999999.0 : std::log(x); }

}  // namespace

BleuScore bleu_from_statistics(std::vector<double> correct, std::vector<double> total, long sys_len, long ref_len,
                               const BleuOptions& o) {
  const std::optional<double> smooth_value = o.smooth_value ? o.smooth_value : default_smooth_value(o.smooth_method);
  BleuScore s;
  s.sys_len = sys_len;
  s.ref_len = ref_len;
  s.bp = sys_len < ref_len ? (sys_len > 0 ? std::exp(1.0 - double(ref_len) / double(sys_len)) : 0.0) : 1.0;
  const auto order = static_cast<std::size_t>(o.max_ngram_order);
  s.precisions.assign(order, 0.0);
  bool any_correct = !o.zero_without_match;
  for (double c : correct) any_correct = any_correct || c != 0;
  if (any_correct) {
    double smooth_mteval = 1.0;
    std::size_t eff_order = order;
    for (std::size_t n = 1; n <= order; ++n) {
      if (o.smooth_method == "add-k" && n > 1) {
        correct[n - 1] += *smooth_value;
        total[n - 1] += *smooth_value;
      }
      if (total[n - 1] == 0) break;
      if (o.effective_order) eff_order = n;
      if (correct[n - 1] == 0) {
        if (o.smooth_method == "exp") {
          smooth_mteval *= 2;
          s.precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1]);
        } else if (o.smooth_method == "floor") {
          s.precisions[n - 1] = 100.0 * *smooth_value / total[n - 1];
        }
      } else {
        s.precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1];
      }
    }
    double log_sum = 0;  // Python's sum(): left to right
    for (std::size_t n = 0; n < eff_order; ++n) log_sum += my_log(s.precisions[n]);
    s.score = s.bp * std::exp(log_sum / double(eff_order));
  }
  s.counts = std::move(correct);
  s.totals = std::move(total);
  return s;
}

std::string BleuScore::format() const {
  std::string precision_text;
  for (std::size_t i = 0; i < precisions.size(); ++i) precision_text += fmt::format("{}{:.1f}", i ? "/" : "", precisions[i]);
  const double ratio = ref_len ? double(sys_len) / double(ref_len) : 0.0;
  return fmt::format("BLEU = {:.2f} {} (BP = {:.3f} ratio = {:.3f} hyp_len = {} ref_len = {})", score, precision_text,
                     bp, ratio, sys_len, ref_len);
}

BleuScore corpus_bleu(const std::vector<std::string>& hypotheses,
                      const std::vector<std::vector<std::string>>& references, const BleuOptions& o) {
  default_smooth_value(o.smooth_method);  // validates the method before any work
  if (o.max_ngram_order < 1) throw Error(ErrorCategory::config, "BLEU max_ngram_order must be at least 1");
  detail::check_reference_streams("BLEU", hypotheses, references);
  const auto order = static_cast<std::size_t>(o.max_ngram_order);
  std::vector<double> correct(order, 0), total(order, 0);
  long sys_len = 0, ref_len = 0;
  detail::Interner interner;
  detail::with_ngram_key(o.max_ngram_order, detail::kWordBits, [&]<class Key>() {
    for (std::size_t i = 0; i < hypotheses.size(); ++i) {
      std::vector<detail::Counts<Key>> max_ref(order);
      std::vector<long> ref_lens;
      for (const auto& stream : references) {
        if (stream[i].empty()) continue;  // sacreBLEU: a segment with fewer references leaves "" (or None) in a stream
        const std::u32string ids = interner.ids(preprocess(stream[i], o));
        ref_lens.push_back(long(ids.size()));
        for (std::size_t n = 0; n < order; ++n)
          max_ref[n] = detail::max_counts(max_ref[n], detail::count_ngrams<Key>(ids, int(n + 1), detail::kWordBits));
      }
      if (ref_lens.empty()) detail::no_reference("BLEU", i);
      const std::u32string hyp = interner.ids(preprocess(hypotheses[i], o));
      const long hyp_len = long(hyp.size());
      sys_len += hyp_len;
      ref_len += closest_ref_len(hyp_len, ref_lens);
      for (std::size_t n = 0; n < order; ++n) {
        const auto counts = detail::count_ngrams<Key>(hyp, int(n + 1), detail::kWordBits);
        total[n] += double(detail::total(counts));
        correct[n] += double(detail::clipped_matches(counts, max_ref[n]));
      }
    }
  });
  return bleu_from_statistics(std::move(correct), std::move(total), sys_len, ref_len, o);
}

BleuScore sentence_bleu(const std::string& hypothesis, const std::vector<std::string>& references,
                        const BleuOptions& options) {
  return corpus_bleu({hypothesis}, detail::one_segment_streams(references), options);
}

int reference_count(const std::vector<std::vector<std::string>>& references) {
  std::optional<int> count;
  for (std::size_t i = 0; i < (references.empty() ? 0 : references[0].size()); ++i) {
    int here = 0;
    for (const auto& stream : references) here += stream.at(i).empty() ? 0 : 1;
    if (count && *count != here) return -1;
    count = here;
  }
  return count.value_or(0);
}

std::string bleu_signature(const BleuOptions& o, int nrefs, bool short_form) {
  std::string smooth = o.smooth_method;
  if (const auto fallback = default_smooth_value(o.smooth_method))
    smooth += fmt::format("[{:.2f}]", o.smooth_value.value_or(*fallback));
  const char* case_text = o.lowercase ? "lc" : "mixed";
  const char* eff = o.effective_order ? "yes" : "no";
  // sacreBLEU names the MeCab tokenizer by its version and dictionary ("ja-mecab-0.996-IPA").
  const std::string tok = o.tokenize == "ja-mecab" ? text::sacrebleu_japanese_tokenizer().signature() : o.tokenize;
  if (short_form)
    return fmt::format("#:{}|c:{}|e:{}|tok:{}|s:{}|v:{}", detail::nrefs_text(nrefs), case_text, eff, tok, smooth,
                       kSacrebleuVersion);
  return fmt::format("nrefs:{}|case:{}|eff:{}|tok:{}|smooth:{}|version:{}", detail::nrefs_text(nrefs), case_text, eff,
                     tok, smooth, kSacrebleuVersion);
}

}  // namespace aeval::metrics
