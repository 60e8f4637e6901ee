#pragma once
// The pairs of tests/data/levenshtein_long, drawn from their seed exactly as
// make_levenshtein_golden.cpp draws them: a 64-bit LCG gives the reference's
// tokens, then an edit at each position with probability per_mille/1000.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "aeval/metrics/wer.hpp"

namespace aeval::testing {

struct TokenPair {
  std::vector<std::string> reference, hypothesis;
};

inline TokenPair levenshtein_case(uint64_t seed, std::size_t length, uint32_t vocab, uint32_t per_mille) {
  uint64_t state = seed;
  const auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return uint32_t(state >> 33);
  };
  const auto token = [&] { return std::to_string(next() % vocab); };
  TokenPair pair;
  auto& a = pair.reference;
  auto& b = pair.hypothesis;
  for (std::size_t k = 0; k < length; ++k) a.push_back(token());
  for (std::size_t k = 0; k < length; ++k) {
    if (next() % 1000 >= per_mille) {
      b.push_back(a[k]);
      continue;
    }
    switch (next() % 3) {
      case 0: b.push_back(token()); break;  // substitute
      case 1: break;                        // delete
      case 2: b.push_back(token()); b.push_back(a[k]); break;  // insert
    }
  }
  return pair;
}

// FNV-1a over each opcode's RapidFuzz EditType code and its four bounds.
inline std::string opcodes_hash(const std::vector<metrics::AlignmentChunk>& chunks) {
  uint64_t fnv = 1469598103934665603ULL;
  const auto mix = [&](uint64_t v) {
    for (int k = 0; k < 8; ++k) {
      fnv ^= (v >> (8 * k)) & 0xff;
      fnv *= 1099511628211ULL;
    }
  };
  for (const auto& c : chunks) {
    const uint64_t code = c.type == metrics::AlignmentChunk::Type::equal        ? 0
                          : c.type == metrics::AlignmentChunk::Type::substitute ? 1
                          : c.type == metrics::AlignmentChunk::Type::insert     ? 2
                                                                       : 3;
    mix(code);
    mix(c.ref_start);
    mix(c.ref_end);
    mix(c.hyp_start);
    mix(c.hyp_end);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv));
  return hex;
}

}  // namespace aeval::testing
