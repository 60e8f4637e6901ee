#pragma once
// Word and character error rates as jiwer 4.0 computes them with its default
// transforms, including RapidFuzz's choice among equally short alignments
// (which decides hits/substitutions/deletions/insertions, MER, WIL and WIP).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace aeval::metrics {

// jiwer.wer_default: collapse runs of 2+ whitespace, strip, split on " ".
// A single tab or NBSP stays inside a word, as in jiwer.
std::vector<std::string> jiwer_words(std::string_view text);
// jiwer.cer_default: strip, then every code point is a token.
std::vector<std::string> jiwer_chars(std::string_view text);

struct AlignmentChunk {
  enum class Type { equal, substitute, remove, insert };
  Type type;
  std::size_t ref_start, ref_end, hyp_start, hyp_end;
};
const char* to_string(AlignmentChunk::Type type);  // jiwer's names: equal, substitute, delete, insert

struct EditCounts {
  std::size_t hits = 0, substitutions = 0, deletions = 0, insertions = 0;
  std::size_t ref_tokens = 0, hyp_tokens = 0;
  EditCounts& operator+=(const EditCounts& other);
  std::size_t errors() const { return substitutions + deletions + insertions; }
};

// Aligns one pair of token sequences (reference first) exactly as
// rapidfuzz.distance.Levenshtein.opcodes does.
EditCounts align(const std::vector<std::string>& reference, const std::vector<std::string>& hypothesis,
                 std::vector<AlignmentChunk>* chunks = nullptr);

// jiwer's measures from summed counts. When every reference is empty jiwer
// returns Python ints (wer = number of insertions); when every hypothesis is
// empty wip = 0 and wil = 1 are ints. The flags say which values are ints.
struct ErrorRates {
  double wer = 0, mer = 0, wil = 0, wip = 0;
  bool wer_mer_are_ints = false;
  bool wip_wil_are_ints = false;
};
ErrorRates error_rates(const EditCounts& counts);

struct CorpusAlignment {
  EditCounts counts;  // summed over all pairs
  std::vector<EditCounts> per_pair;
  std::vector<std::vector<AlignmentChunk>> alignments;
  ErrorRates rates() const { return error_rates(counts); }
};

// jiwer.process_words / process_characters over parallel lists of texts.
// Throws aeval::Error (data) when the list lengths differ.
CorpusAlignment process_words(const std::vector<std::string>& references,
                              const std::vector<std::string>& hypotheses);
CorpusAlignment process_characters(const std::vector<std::string>& references,
                                   const std::vector<std::string>& hypotheses);

}  // namespace aeval::metrics
