// WER, MER, WIL, WIP and CER: jiwer 4.0.0 (process_words/process_characters
// with wer_default/cer_default) on RapidFuzz's Levenshtein editops;
// shared/specs/metric-specs.md §1.
#include "aeval/metrics/wer.hpp"

#include <bit>
#include <functional>
#include <string_view>

#include "aeval/error.hpp"
#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "levenshtein_editops.hpp"

namespace aeval::metrics {

namespace {

// Whether `\s\s+` can match: two neighbouring bytes that may be whitespace (ASCII's, or any non-ASCII byte). Most
// texts have none, and skipping the regex search is a tenth of a short WER.
bool may_have_space_runs(std::string_view text) {
  const auto maybe_space = [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return (b >= 9 && b <= 13) || (b >= 28 && b <= 32) || b >= 0x80;
  };
  for (std::size_t i = 1; i < text.size(); ++i)
    if (maybe_space(text[i - 1]) && maybe_space(text[i])) return true;
  return false;
}

}  // namespace

std::vector<std::string> jiwer_words(std::string_view text) {
  static const text::Regex multiple_spaces(R"(\s\s+)");
  const std::string collapsed =
      text::strip(may_have_space_runs(text) ? multiple_spaces.sub(text, " ") : std::string(text));
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start <= collapsed.size()) {
    std::size_t end = collapsed.find(' ', start);
    if (end == std::string::npos) end = collapsed.size();
    if (end > start) words.push_back(collapsed.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

std::vector<std::string> jiwer_chars(std::string_view text) {
  std::vector<std::string> chars;
  for (char32_t c : text::to_u32(text::strip(text))) chars.push_back(text::to_utf8(c));
  return chars;
}

const char* to_string(AlignmentChunk::Type type) {
  switch (type) {
    case AlignmentChunk::Type::equal: return "equal";
    case AlignmentChunk::Type::substitute: return "substitute";
    case AlignmentChunk::Type::remove: return "delete";
    case AlignmentChunk::Type::insert: return "insert";
  }
  return "equal";
}

EditCounts& EditCounts::operator+=(const EditCounts& other) {
  hits += other.hits;
  substitutions += other.substitutions;
  deletions += other.deletions;
  insertions += other.insertions;
  ref_tokens += other.ref_tokens;
  hyp_tokens += other.hyp_tokens;
  return *this;
}

namespace {

using Type = AlignmentChunk::Type;

using levenshtein::EditOp;

// RapidFuzz's Editops.as_opcodes(): runs of one operation become one block,
// gaps between them are equal blocks.
std::vector<AlignmentChunk> to_chunks(const std::vector<EditOp>& ops, std::size_t src_len, std::size_t dst_len) {
  std::vector<AlignmentChunk> chunks;
  std::size_t src = 0, dst = 0, k = 0;
  while (k < ops.size()) {
    if (src < ops[k].src || dst < ops[k].dst) {
      chunks.push_back({Type::equal, src, ops[k].src, dst, ops[k].dst});
      src = ops[k].src;
      dst = ops[k].dst;
    }
    const std::size_t src_begin = src, dst_begin = dst;
    const Type type = ops[k].type;
    while (k < ops.size() && ops[k].type == type && ops[k].src == src && ops[k].dst == dst) {
      if (type != Type::insert) ++src;
      if (type != Type::remove) ++dst;
      ++k;
    }
    chunks.push_back({type, src_begin, src, dst_begin, dst});
  }
  if (src < src_len || dst < dst_len) chunks.push_back({Type::equal, src, src_len, dst, dst_len});
  return chunks;
}

// Dense ids for tokens, equal tokens alike, in an open-addressed table of views (the tokens outlive it). A
// node-based map allocated once a token: a third of a short CER's time went there.
class TokenIds {
 public:
  explicit TokenIds(std::size_t tokens) : slots_(std::bit_ceil(2 * tokens + 1)) {}

  std::vector<int> of(const std::vector<std::string>& tokens) {
    std::vector<int> out;
    out.reserve(tokens.size());
    for (const auto& t : tokens) out.push_back(id(t));
    return out;
  }

 private:
  struct Slot {
    std::string_view token;
    int id = -1;
  };
  int id(std::string_view token) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = std::hash<std::string_view>{}(token) & mask;
    while (slots_[i].id >= 0 && slots_[i].token != token) i = (i + 1) & mask;
    if (slots_[i].id < 0) slots_[i] = {token, next_++};
    return slots_[i].id;
  }
  std::vector<Slot> slots_;  // at least half empty: a probe always ends
  int next_ = 0;
};

}  // namespace

EditCounts align(const std::vector<std::string>& reference, const std::vector<std::string>& hypothesis,
                 std::vector<AlignmentChunk>* chunks_out) {
  TokenIds ids(reference.size() + hypothesis.size());
  const std::vector<int> a = ids.of(reference), b = ids.of(hypothesis);
  const std::vector<AlignmentChunk> chunks = to_chunks(levenshtein::editops(a, b), a.size(), b.size());
  EditCounts counts;
  counts.ref_tokens = a.size();
  counts.hyp_tokens = b.size();
  for (const auto& c : chunks) {
    switch (c.type) {
      case Type::equal: counts.hits += c.ref_end - c.ref_start; break;
      case Type::substitute: counts.substitutions += c.ref_end - c.ref_start; break;
      case Type::remove: counts.deletions += c.ref_end - c.ref_start; break;
      case Type::insert: counts.insertions += c.hyp_end - c.hyp_start; break;
    }
  }
  if (chunks_out) *chunks_out = chunks;
  return counts;
}

ErrorRates error_rates(const EditCounts& c) {
  ErrorRates r;
  const double n = double(c.ref_tokens), p = double(c.hyp_tokens), h = double(c.hits);
  if (c.ref_tokens == 0) {
    r.wer = double(c.insertions);
    r.mer = c.hyp_tokens == 0 ? 0.0 : 1.0;
    r.wip = c.hyp_tokens == 0 ? 1.0 : 0.0;
    r.wer_mer_are_ints = r.wip_wil_are_ints = true;
  } else {
    r.wer = double(c.errors()) / n;
    r.mer = double(c.errors()) / double(c.hits + c.substitutions + c.deletions + c.insertions);
    r.wip = c.hyp_tokens >= 1 ? (h / n) * (h / p) : 0.0;
    r.wip_wil_are_ints = c.hyp_tokens == 0;
  }
  r.wil = 1.0 - r.wip;
  return r;
}

namespace {

template <class Tokenize>
CorpusAlignment process(const std::vector<std::string>& references, const std::vector<std::string>& hypotheses,
                        Tokenize tokenize) {
  if (references.size() != hypotheses.size())
    throw Error(ErrorCategory::data, "error rate: " + std::to_string(references.size()) + " references but " +
                                         std::to_string(hypotheses.size()) + " hypotheses");
  CorpusAlignment result;
  for (std::size_t k = 0; k < references.size(); ++k) {
    std::vector<AlignmentChunk> chunks;
    const EditCounts counts = align(tokenize(references[k]), tokenize(hypotheses[k]), &chunks);
    result.counts += counts;
    result.per_pair.push_back(counts);
    result.alignments.push_back(std::move(chunks));
  }
  return result;
}

}  // namespace

CorpusAlignment process_words(const std::vector<std::string>& references, const std::vector<std::string>& hypotheses) {
  return process(references, hypotheses, jiwer_words);
}

CorpusAlignment process_characters(const std::vector<std::string>& references,
                                   const std::vector<std::string>& hypotheses) {
  return process(references, hypotheses, jiwer_chars);
}

}  // namespace aeval::metrics
