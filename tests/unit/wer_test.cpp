// jiwer 4.0's own test-suite vectors (shared/specs/metric-specs.md §1.4).
#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "aeval/metrics/wer.hpp"

namespace {

using aeval::metrics::process_characters;
using aeval::metrics::process_words;

TEST(Wer, JiwerMeasureVectors) {
  auto r = process_words({"This is a test"}, {"This test"}).rates();
  EXPECT_DOUBLE_EQ(r.wer, 0.5);
  EXPECT_DOUBLE_EQ(r.mer, 0.5);
  EXPECT_DOUBLE_EQ(r.wil, 0.5);
  r = process_words({"X Y X"}, {"X Z"}).rates();
  EXPECT_DOUBLE_EQ(r.wer, 2.0 / 3);
  EXPECT_DOUBLE_EQ(r.mer, 2.0 / 3);
  EXPECT_DOUBLE_EQ(r.wil, 5.0 / 6);
  r = process_words({"X"}, {"X X Y Y"}).rates();
  EXPECT_DOUBLE_EQ(r.wer, 3.0);
  EXPECT_DOUBLE_EQ(r.mer, 0.75);
  EXPECT_DOUBLE_EQ(r.wil, 0.75);
}

TEST(Wer, EmptyReferencesGiveIntegerCounts) {
  auto r = process_words({"hello world", ""}, {"hello world", "done"}).rates();
  EXPECT_DOUBLE_EQ(r.wer, 0.5);
  EXPECT_DOUBLE_EQ(r.mer, 1.0 / 3);
  EXPECT_DOUBLE_EQ(r.wip, 2.0 / 3);
  r = process_words({""}, {"0 1 2"}).rates();
  EXPECT_TRUE(r.wer_mer_are_ints);
  EXPECT_EQ(r.wer, 3.0);
  EXPECT_EQ(r.mer, 1.0);
  EXPECT_EQ(r.wip, 0.0);
}

TEST(Wer, CharacterVectors) {
  EXPECT_DOUBLE_EQ(process_characters({"This is a test"}, {"This test"}).rates().wer, 5.0 / 14);
  EXPECT_DOUBLE_EQ(process_characters({"X"}, {"X X Y Y"}).rates().wer, 6.0);
  EXPECT_DOUBLE_EQ(process_characters({"X Y X"}, {"X Z"}).rates().wer, 3.0 / 5);
}

TEST(Wer, AlignmentFollowsRapidFuzzBacktrace) {
  const auto a = process_words({"this test will  have a high word error rate"}, {"no it will not"});
  EXPECT_EQ(a.counts.substitutions, 3u);
  EXPECT_EQ(a.counts.deletions, 5u);
  EXPECT_EQ(a.counts.insertions, 0u);
  EXPECT_EQ(a.counts.hits, 1u);
  // Two substitutions, not delete + hit + insert, although both cost 2.
  const auto b = process_words({"a b"}, {"b c"});
  EXPECT_EQ(b.counts.substitutions, 2u);
  EXPECT_EQ(b.counts.hits, 0u);
  EXPECT_DOUBLE_EQ(b.rates().mer, 1.0);
}

TEST(Wer, SingleTabStaysInsideAWord) {
  EXPECT_DOUBLE_EQ(process_words({"a\tb c"}, {"a b c"}).rates().wer, 1.0);
  EXPECT_EQ(aeval::metrics::jiwer_words("a\t\tb  c"), (std::vector<std::string>{"a", "b", "c"}));
}

// jiwer's RemoveMultipleSpaces is re.sub(r"\s\s+", " "): a run of any whitespace, non-ASCII too, is one space
// (the regex search is skipped only where no two neighbouring characters can be whitespace).
TEST(Wer, RunsOfAnyWhitespaceBecomeOneSpace) {
  EXPECT_EQ(aeval::metrics::jiwer_words("a \u00a0b"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(aeval::metrics::jiwer_words("a\v b\r\nc"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(aeval::metrics::jiwer_words("a\u00a0b c"), (std::vector<std::string>{"a\u00a0b", "c"}));
}

TEST(Wer, MismatchedListsAreAnError) {
  EXPECT_THROW(process_words({"a", "b"}, {"a"}), aeval::Error);
}

}  // namespace
