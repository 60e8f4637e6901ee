// chrF and chrF++ as sacreBLEU 2.6.0 computes them (metrics/chrf.py: best
// reference by sentence F, corpus F from summed statistics);
// shared/specs/metric-specs.md §3.5.
#include <fmt/format.h>

#include "aeval/error.hpp"
#include "aeval/metrics/bleu.hpp"
#include "aeval/text/unicode.hpp"
#include "metrics/text/ngram_counts.hpp"
#include "metrics/text/reference_streams.hpp"

namespace aeval::metrics {

namespace {

constexpr double kEpsilon = 1e-16;

bool is_ascii_punctuation(char32_t c) {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

// "word," → "word" ","; "(word" → "(" "word"; one split per word at most.
std::vector<std::string> words_with_punctuation_split(std::string_view line) {
  std::vector<std::string> out;
  for (const std::string& word : text::split_whitespace(line)) {
    const std::u32string w = text::to_u32(word);
    if (w.size() > 1 && is_ascii_punctuation(w.back())) {
      out.push_back(text::to_utf8(std::u32string_view(w).substr(0, w.size() - 1)));
      out.push_back(text::to_utf8(w.back()));
    } else if (w.size() > 1 && is_ascii_punctuation(w.front())) {
      out.push_back(text::to_utf8(w.front()));
      out.push_back(text::to_utf8(std::u32string_view(w).substr(1)));
    } else {
      out.push_back(word);
    }
  }
  return out;
}

// One side of a comparison: its characters and its word ids.
struct Symbols {
  std::u32string chars, words;
};

Symbols symbols(const std::string& raw, const ChrfOptions& o, detail::Interner& interner) {
  const std::string line = o.lowercase ? text::lower(raw) : raw;
  Symbols s;
  s.chars = text::to_u32(o.whitespace ? line : text::join(text::split_whitespace(line), ""));
  if (o.word_order > 0) s.words = interner.ids(words_with_punctuation_split(line));
  return s;
}

template <class CharKey, class WordKey>
struct Counted {
  std::vector<detail::Counts<CharKey>> chars;
  std::vector<detail::Counts<WordKey>> words;
};

template <class CharKey, class WordKey>
Counted<CharKey, WordKey> count(const Symbols& s, const ChrfOptions& o) {
  Counted<CharKey, WordKey> c;
  for (int n = 1; n <= o.char_order; ++n) c.chars.push_back(detail::count_ngrams<CharKey>(s.chars, n, detail::kCharBits));
  for (int n = 1; n <= o.word_order; ++n) c.words.push_back(detail::count_ngrams<WordKey>(s.words, n, detail::kWordBits));
  return c;
}

template <class Key>
void append_match_statistics(const detail::Counts<Key>& hyp, const detail::Counts<Key>& ref, std::vector<long>& stats) {
  stats.push_back(ref.empty() ? 0 : detail::total(hyp));  // no credit for an order the reference lacks
  stats.push_back(detail::total(ref));
  stats.push_back(detail::clipped_matches(hyp, ref));
}

double f_score(const std::vector<long>& stats, const ChrfOptions& o) {
  const double factor = o.beta * o.beta;
  double score = 0, avg_precision = 0, avg_recall = 0;
  int effective = 0;
  for (std::size_t i = 0; i + 2 < stats.size(); i += 3) {
    const long hyp = stats[i], ref = stats[i + 1], match = stats[i + 2];
    const double precision = hyp > 0 ? double(match) / double(hyp) : kEpsilon;
    const double recall = ref > 0 ? double(match) / double(ref) : kEpsilon;
    const double denominator = factor * precision + recall;
    score += denominator > 0 ? (1 + factor) * precision * recall / denominator : kEpsilon;
    if (hyp > 0 && ref > 0) {
      avg_precision += precision;
      avg_recall += recall;
      ++effective;
    }
  }
  if (o.eps_smoothing) return 100 * score / double(o.char_order + o.word_order);
  if (effective == 0) {
    avg_precision = avg_recall = 0;
  } else {
    avg_precision /= effective;
    avg_recall /= effective;
  }
  if (avg_precision + avg_recall == 0) return 0.0;
  double f = (1 + factor) * avg_precision * avg_recall;
  f /= factor * avg_precision + avg_recall;
  return 100 * f;
}

std::string score_name(const ChrfOptions& o) {
  return fmt::format("chrF{}{}", o.beta, std::string(static_cast<std::size_t>(o.word_order), '+'));
}

}  // namespace

std::string ChrfScore::format() const { return fmt::format("{} = {:.2f}", name, score); }

ChrfScore corpus_chrf(const std::vector<std::string>& hypotheses,
                      const std::vector<std::vector<std::string>>& references, const ChrfOptions& o) {
  if (o.char_order < 0 || o.word_order < 0 || o.char_order + o.word_order == 0)
    throw Error(ErrorCategory::config, "chrF needs a positive char_order or word_order");
  detail::check_reference_streams("chrF", hypotheses, references);
  detail::Interner interner;
  std::vector<long> totals(3 * static_cast<std::size_t>(o.char_order + o.word_order), 0);
  detail::with_ngram_key(o.char_order, detail::kCharBits, [&]<class CharKey>() {
    detail::with_ngram_key(o.word_order, detail::kWordBits, [&]<class WordKey>() {
      for (std::size_t i = 0; i < hypotheses.size(); ++i) {
        const auto hyp = count<CharKey, WordKey>(symbols(hypotheses[i], o, interner), o);
        double best_f = -1;
        std::vector<long> best;
        for (const auto& stream : references) {
          if (stream[i].empty()) continue;  // a segment with fewer references (sacreBLEU)
          const auto ref = count<CharKey, WordKey>(symbols(stream[i], o, interner), o);
          std::vector<long> stats;
          for (std::size_t n = 0; n < hyp.chars.size(); ++n) append_match_statistics(hyp.chars[n], ref.chars[n], stats);
          for (std::size_t n = 0; n < hyp.words.size(); ++n) append_match_statistics(hyp.words[n], ref.words[n], stats);
          const double f = f_score(stats, o);
          if (f > best_f) {
            best_f = f;
            best = std::move(stats);
          }
        }
        if (best.empty()) detail::no_reference("chrF", i);
        for (std::size_t k = 0; k < totals.size(); ++k) totals[k] += best[k];
      }
    });
  });
  ChrfScore s;
  s.stats = totals;
  s.score = f_score(totals, o);
  s.name = score_name(o);
  return s;
}

ChrfScore sentence_chrf(const std::string& hypothesis, const std::vector<std::string>& references,
                        const ChrfOptions& options) {
  return corpus_chrf({hypothesis}, detail::one_segment_streams(references), options);
}

std::string chrf_signature(const ChrfOptions& o, int nrefs, bool short_form) {
  const char* case_text = o.lowercase ? "lc" : "mixed";
  const char* eff = o.eps_smoothing ? "no" : "yes";
  const char* space = o.whitespace ? "yes" : "no";
  if (short_form)
    return fmt::format("#:{}|c:{}|e:{}|nc:{}|nw:{}|s:{}|v:2.6.0", detail::nrefs_text(nrefs), case_text, eff, o.char_order, o.word_order,
                       space);
  return fmt::format("nrefs:{}|case:{}|eff:{}|nc:{}|nw:{}|space:{}|version:2.6.0", detail::nrefs_text(nrefs), case_text, eff, o.char_order,
                     o.word_order, space);
}

}  // namespace aeval::metrics
