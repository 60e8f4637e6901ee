#include <gtest/gtest.h>

#include "aeval/metrics/match.hpp"

namespace {

using namespace aeval::metrics;

TEST(Match, NormalizationFollowsSquad) {
  EXPECT_EQ(normalize_answer("The  Eiffel Tower!"), "eiffel tower");
  EXPECT_EQ(normalize_answer("An apple, a day"), "apple day");
}

TEST(Match, ExactExistAndF1) {
  EXPECT_EQ(exact_match("The Eiffel tower.", {"eiffel tower"}), 1.0);
  EXPECT_EQ(exact_match("the tower", {"eiffel tower"}), 0.0);
  EXPECT_EQ(exist_match("I think it is Paris, France", {"paris"}), 1.0);
  EXPECT_EQ(exist_match("I know", {"no"}), 0.0) << "containment respects word boundaries";
  EXPECT_EQ(exist_match("anything", {""}), 0.0);
  EXPECT_DOUBLE_EQ(token_f1("the cat sat", {"a cat sat down"}), 2 * (1.0 * (2.0 / 3)) / (1.0 + 2.0 / 3));
  EXPECT_EQ(token_f1("", {""}), 1.0);
  EXPECT_EQ(token_f1("", {"cat"}), 0.0);
}

TEST(Match, ChoiceExtraction) {
  const std::vector<std::string> labels{"A", "B", "C", "D"};
  const std::vector<std::string> texts{"a dog barking", "rain", "a car horn", "music"};
  EXPECT_EQ(extract_choice("B", labels, texts), "B");
  EXPECT_EQ(extract_choice("(C) a car horn", labels, texts), "C");
  EXPECT_EQ(extract_choice("The answer is D.", labels, texts), "D");
  EXPECT_EQ(extract_choice("I hear rain falling", labels, texts), "B");
  EXPECT_EQ(extract_choice("rain or music", labels, texts), std::nullopt) << "two options mentioned";
  EXPECT_EQ(extract_choice("nothing relevant", labels, texts), std::nullopt);
  EXPECT_EQ(extract_choice("the answer is a car horn", labels, texts), "C") << "labels are case-sensitive";
  EXPECT_EQ(choice_accuracy("Answer: A", "A", labels, texts), 1.0);
  EXPECT_EQ(choice_accuracy("Answer: A", "B", labels, texts), 0.0);
}

}  // namespace
