// Reading judges' answers (metrics/judges.hpp): the rubric's decomposer,
// filter and generated answers, AudioCapBench's criteria, a holistic judge's verdict and a prompted judge's rating.
#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "aeval/metrics/judges.hpp"

namespace {

using namespace aeval::metrics;

TEST(JudgeAnswers, RubricItemsFromEnglishOrChineseKeysInsideProse) {
  const auto items = parse_rubric_items(
      "Here you go: {\"判断题列表\": [{\"维度\": \"音色\", \"题目\": \"是女声吗？\", \"依据\": \"女声\"}, {\"维度\": \"x\"}]} done");
  ASSERT_EQ(items.size(), 1u) << "an item without a question is dropped";
  EXPECT_EQ(items[0].dimension, "音色");
  EXPECT_EQ(items[0].question, "是女声吗？");
  EXPECT_EQ(parse_rubric_items("[{\"question\": \"Is it loud?\"}]").size(), 1u);
  EXPECT_THROW(parse_rubric_items("no list here"), aeval::Error);
}

TEST(JudgeAnswers, FilterKeepsWhatItDoesNotMention) {
  const auto keep = parse_rubric_filter(R"({"results": [{"id": 1, "judgment": "Drop"}, {"id": 9, "judgment": "drop"}]})", 3);
  EXPECT_EQ(keep, (std::vector<bool>{true, false, true}));
  EXPECT_THROW(parse_rubric_filter("{}", 3), aeval::Error);
}

TEST(JudgeAnswers, GeneratedAnswersByIdOrPosition) {
  const auto a = parse_rubric_answers(R"([{"id": 1, "answer": "YES", "evidence": "heard"}, {"answer": "maybe"}, {"id": 0, "answer": "no"}])", 3);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].yes, std::optional<bool>(false));
  EXPECT_EQ(a[1].yes, std::optional<bool>(true));
  EXPECT_EQ(a[1].evidence, "heard");
  EXPECT_FALSE(a[2].yes.has_value());
  EXPECT_DOUBLE_EQ(rubric_score({1.0, 0.0, 0.5}), 0.5);
  EXPECT_THROW(rubric_score({}), aeval::Error);
}

TEST(JudgeAnswers, CaptionCriteriaAreClampedAndTheOverallRoundedToTwoDecimals) {
  const auto j = parse_caption_judgement(R"(ok {"accuracy": 12, "completeness": 7, "hallucination": 8, "reasoning": "r"})");
  ASSERT_TRUE(j);
  EXPECT_EQ(j->accuracy, 10.0);
  EXPECT_EQ(j->overall, 8.33);
  EXPECT_EQ(j->reasoning, "r");
  EXPECT_FALSE(parse_caption_judgement(R"({"accuracy": 5, "completeness": "high", "hallucination": 1})"));
}

TEST(JudgeAnswers, AHolisticVerdictIsTrueOrFalseInItsField) {
  EXPECT_EQ(parse_verdict("```json\n{\"Audio Type\": \"speech\", \"Consistency\": true}\n```", "Consistency"), true);
  EXPECT_EQ(parse_verdict(R"(Verdict: {"Consistency": "False", "Speech-Gender": "male"})", "Consistency"), false);
  EXPECT_FALSE(parse_verdict(R"({"Consistency": "maybe"})", "Consistency").has_value());
  EXPECT_FALSE(parse_verdict(R"({"Consistency": 1})", "Consistency").has_value()) << "a number is not a verdict";
  EXPECT_FALSE(parse_verdict(R"({"consistency": true})", "Consistency").has_value()) << "the field as named";
  EXPECT_FALSE(parse_verdict("Yes, it matches.", "Consistency").has_value());
}

TEST(JudgeAnswers, ARatingIsTheNumberAfterTheLastLabel) {
  EXPECT_EQ(parse_rating("Score: 7", "Score"), 7.0);
  EXPECT_EQ(parse_rating("The clip matches well.\nScore: 8.5\n", "Score"), 8.5);
  EXPECT_EQ(parse_rating("Format: Score: <number>. Score:3", "Score"), 3.0) << "the last one stated";
  EXPECT_FALSE(parse_rating("Score: <number>", "Score").has_value());
  EXPECT_FALSE(parse_rating("I would give it a 7.", "Score").has_value());
  const std::map<std::string, double> decision = {{"preferred", 1}, {"rejected", 0}};
  EXPECT_EQ(parse_rating("Answer: Rejected", "Answer", decision), 0.0);
  EXPECT_EQ(parse_rating("It has both events. Answer: preferred.", "Answer", decision), 1.0);
  EXPECT_FALSE(parse_rating("Answer: <preferred or rejected>", "Answer", decision).has_value());
  EXPECT_FALSE(parse_rating("Answer: maybe", "Answer", decision).has_value());
  const std::map<std::string, double> caption = {{"1", 1}, {"2", 0}};  // the cascade on pairs names a caption
  EXPECT_EQ(parse_rating("Caption 2 misses the dog.\nBetter Caption: 1", "Better Caption", caption), 1.0);
  EXPECT_EQ(parse_rating("Better Caption: 2.", "Better Caption", caption), 0.0);
  EXPECT_FALSE(parse_rating("Better Caption: 12", "Better Caption", caption).has_value());
  EXPECT_FALSE(parse_rating("Better Caption: <1 or 2>", "Better Caption", caption).has_value());
}

}  // namespace
