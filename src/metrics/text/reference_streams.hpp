#pragma once
// sacreBLEU's reference streams (references[k][i] = k-th reference of
// segment i), shared by BLEU and chrF.
#include <string>
#include <vector>

#include "aeval/error.hpp"

namespace aeval::metrics::detail {

using Streams = std::vector<std::vector<std::string>>;

inline void check_reference_streams(const char* metric, const std::vector<std::string>& hypotheses,
                                    const Streams& references) {
  if (references.empty()) throw Error(ErrorCategory::data, std::string(metric) + " needs at least one reference stream");
  for (const auto& stream : references)
    if (stream.size() != hypotheses.size())
      throw Error(ErrorCategory::data, std::string(metric) + ": a reference stream has " + std::to_string(stream.size()) +
                                           " segments but there are " + std::to_string(hypotheses.size()) +
                                           " hypotheses");
}

// sacreBLEU drops empty references; a segment left with none is an error.
[[noreturn]] inline void no_reference(const char* metric, std::size_t segment) {
  throw Error(ErrorCategory::data, std::string(metric) + ": segment " + std::to_string(segment + 1) +
                                       " has no non-empty reference (sacreBLEU drops empty ones)");
}

// nrefs in a signature: the count, or "var" when segments have different numbers (-1).
inline std::string nrefs_text(int nrefs) { return nrefs < 0 ? std::string("var") : std::to_string(nrefs); }

// The references of one segment as streams of one segment each.
inline Streams one_segment_streams(const std::vector<std::string>& references) {
  Streams streams;
  for (const auto& r : references) streams.push_back({r});
  return streams;
}

}  // namespace aeval::metrics::detail
