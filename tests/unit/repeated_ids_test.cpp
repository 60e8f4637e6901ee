// RepeatedIds: an id given twice found from hashes alone, telling a repeat from ids that merely hash alike.
#include "util/repeated_ids.hpp"

#include <gtest/gtest.h>

#include "aeval/error.hpp"

#include <string>
#include <vector>

namespace {

using aeval::RepeatedIds;

TEST(RepeatedIds, TheEarliestRepeatIsNamedWithItsFirstPlace) {
  const std::vector<std::string> ids{"a", "b", "c", "d", "c", "a", "b"};
  RepeatedIds seen;
  for (std::size_t i = 0; i < ids.size(); ++i) seen.add(ids[i], 10 * i);
  const auto repeat = seen.first_repeat([&](std::uint64_t place) { return ids[place / 10]; });
  ASSERT_TRUE(repeat.has_value());
  EXPECT_EQ(repeat->id, "c");
  EXPECT_EQ(repeat->first, 20u);
  EXPECT_EQ(repeat->again, 40u);
}

TEST(RepeatedIds, IdsThatHashAlikeAreReadBackAndToldApart) {
  // Every id hashes to 7: only reading them back tells "b" twice from "a", "b", "c".
  const std::vector<std::string> ids{"a", "b", "c", "b"};
  RepeatedIds seen([](std::string_view) { return std::uint64_t(7); });
  for (std::size_t i = 0; i < 3; ++i) seen.add(ids[i], i);
  const auto id_at = [&](std::uint64_t place) { return ids[place]; };
  EXPECT_FALSE(seen.first_repeat(id_at).has_value());
  std::vector<std::uint64_t> asked;
  EXPECT_TRUE(seen.any_of("c", [&](std::uint64_t place) {
    asked.push_back(place);
    return ids[place] == "c";
  }));
  EXPECT_EQ(asked, (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_FALSE(seen.any_of("z", [&](std::uint64_t place) { return ids[place] == "z"; }));

  seen.add(ids[3], 3);
  const auto repeat = seen.first_repeat(id_at);
  ASSERT_TRUE(repeat.has_value());
  EXPECT_EQ(repeat->id, "b");
  EXPECT_EQ(repeat->first, 1u);
  EXPECT_EQ(repeat->again, 3u);
}

TEST(RepeatedIds, LookingUpBeforeTheCheckIsAnInternalError) {
  RepeatedIds seen;
  seen.add("a", 0);
  EXPECT_THROW(seen.any_of("a", [](std::uint64_t) { return true; }), aeval::Error);
}

}  // namespace
