// text::Regex against Python's `re` (expected values printed by CPython 3.11's
// re.sub on the same patterns and texts).
#include <gtest/gtest.h>

#include "aeval/text/regex.hpp"

namespace {

using aeval::text::Regex;

TEST(PythonRegex, WhitespaceInsideAClassIsPythonsSet) {
  // \x1c is whitespace to Python, not to PCRE2.
  EXPECT_EQ(Regex("[^\\s]+").sub("a b\x1c" "c\u3000d", "<>"), "<> <>\x1c<>\u3000<>");
  EXPECT_EQ(Regex("(?<=[^\\s])([\\u4e00-\\u9fff])").sub("ab中文 x\x1c中", " \\1"), "ab 中 文 x\x1c中");
}

TEST(PythonRegex, NonWhitespaceAndWhitespaceRuns) {
  EXPECT_EQ(Regex("\\S+").sub("a b\x1c" "c\u3000d", "_"), "_ _\x1c_\u3000_");
  EXPECT_EQ(Regex("\\s+").sub(" a\t\x1f b\u00a0", " "), " a b ");
}

TEST(PythonRegex, ABracketFirstInAClassIsAMember) {
  EXPECT_EQ(Regex("[]a]+").sub("x]a]y", "."), "x.y");
  EXPECT_EQ(Regex("[^]a]").sub("x]a]y", "."), ".]a].");
}

TEST(PythonRegex, CodePointEscapes) {
  EXPECT_EQ(Regex("\\u00e9|\\U0001F600").sub("caf\u00e9 \U0001F600", "?"), "caf? ?");
}

}  // namespace
