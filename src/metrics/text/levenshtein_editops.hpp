#pragma once
// The edit operations rapidfuzz.distance.Levenshtein.editops returns, in
// memory linear in the input: RapidFuzz's C++ library (rapidfuzz-cpp f34fe29,
// what the Python wheel runs) aligns short pairs by a backtrace through the
// whole matrix and splits long pairs by Hirschberg's method; which of the
// equally short alignments it returns depends on where it splits, so aeval
// splits exactly where it does (shared/specs/metric-specs.md §1.2).
#include <cstddef>
#include <span>
#include <vector>

#include "aeval/metrics/wer.hpp"

namespace aeval::metrics::levenshtein {

struct EditOp {
  AlignmentChunk::Type type;  // substitute, remove or insert
  std::size_t src, dst;       // positions before the operation applies
};

// Turns a (the reference) into b, in order of position.
std::vector<EditOp> editops(std::span<const int> a, std::span<const int> b);

}  // namespace aeval::metrics::levenshtein
