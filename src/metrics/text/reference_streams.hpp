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

// The references of one segment as streams of one segment each.
inline Streams one_segment_streams(const std::vector<std::string>& references) {
  Streams streams;
  for (const auto& r : references) streams.push_back({r});
  return streams;
}

}  // namespace aeval::metrics::detail
