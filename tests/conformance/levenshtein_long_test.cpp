// RapidFuzz's Levenshtein opcodes on pairs of up to 30,000 tokens, where its
// C++ library splits the alignment by Hirschberg's method, against
// tests/data/levenshtein_long (written by rapidfuzz-cpp f34fe29 itself).
#include <gtest/gtest.h>

#include "aeval/metrics/wer.hpp"
#include "support/levenshtein_cases.hpp"
#include "support/reference.hpp"

namespace {

// Pairs of 120,000 tokens take seconds each: bench/compare/levenshtein_long.cpp
// checks and times those.
#ifdef AEVAL_SANITIZED
constexpr std::size_t kLongest = 3000;
#else
constexpr std::size_t kLongest = 30000;
#endif

TEST(LevenshteinConformance, LongPairsAlignAsRapidFuzzAlignsThem) {
  const auto cases = aeval::testing::read_test_data("levenshtein_long/levenshtein_long.jsonl");
  ASSERT_EQ(cases.size(), 128u);
  for (const auto& c : cases) {
    if (c["length"].get<std::size_t>() > kLongest) continue;
    const auto pair = aeval::testing::levenshtein_case(c["seed"], c["length"], c["vocab"], c["edits_per_mille"]);
    ASSERT_EQ(pair.hypothesis.size(), c["hyp_length"].get<std::size_t>()) << "seed " << c["seed"];
    std::vector<aeval::metrics::AlignmentChunk> chunks;
    const auto counts = aeval::metrics::align(pair.reference, pair.hypothesis, &chunks);
    const std::string label = "seed " + c["seed"].dump() + ", length " + c["length"].dump();
    EXPECT_EQ(counts.hits, c["hits"].get<std::size_t>()) << label;
    EXPECT_EQ(counts.substitutions, c["substitutions"].get<std::size_t>()) << label;
    EXPECT_EQ(counts.deletions, c["deletions"].get<std::size_t>()) << label;
    EXPECT_EQ(counts.insertions, c["insertions"].get<std::size_t>()) << label;
    EXPECT_EQ(aeval::testing::opcodes_hash(chunks), c["opcodes_fnv1a"].get<std::string>()) << label;
  }
}

}  // namespace
