// p(yes) from first-token log-probabilities: variants, absences, errors.
#include <gtest/gtest.h>

#include <cmath>

#include "aeval/error.hpp"
#include "aeval/metrics/yes_no.hpp"
#include "aeval/text/json_in_text.hpp"

namespace {

using aeval::metrics::yes_no_probability;
using nlohmann::json;

json first_token(const std::string& token, double lp, json top) {
  return {{"content", {{{"token", token}, {"logprob", lp}, {"top_logprobs", top}}}}};
}

TEST(YesNoProbability, TakesTheLargestVariantOfEachWord) {
  const json lp = first_token(" Yes", -0.3, {{{"token", " Yes"}, {"logprob", -0.3}}, {{"token", "yes"}, {"logprob", -1.2}},
                                             {{"token", "\xC4\xA0no"}, {"logprob", -2.0}}, {{"token", "NO"}, {"logprob", -1.4}},
                                             {{"token", "Maybe"}, {"logprob", -0.1}}});
  const auto p = yes_no_probability(lp);
  EXPECT_DOUBLE_EQ(*p.logprob_yes, -0.3);
  EXPECT_DOUBLE_EQ(*p.logprob_no, -1.4);
  EXPECT_NEAR(p.p_yes, std::exp(-0.3) / (std::exp(-0.3) + std::exp(-1.4)), 1e-15);
}

TEST(YesNoProbability, AnAbsentWordIsImpossibleAndNeitherIsAnError) {
  EXPECT_EQ(yes_no_probability(first_token("yes", -0.01, json::array())).p_yes, 1.0);
  EXPECT_EQ(yes_no_probability(first_token("Hmm", -0.5, {{{"token", "No"}, {"logprob", -0.9}}})).p_yes, 0.0);
  EXPECT_THROW(yes_no_probability(first_token("Maybe", -0.1, {{{"token", "yesterday"}, {"logprob", -2}}})), aeval::Error);
  EXPECT_THROW(yes_no_probability(json()), aeval::Error);
  EXPECT_THROW(yes_no_probability(json{{"content", json::array()}}), aeval::Error);
}

TEST(YesNoProbability, ExtremeLogprobsDoNotOverflow) {
  const auto p = yes_no_probability(first_token("yes", -0.0, {{{"token", "no"}, {"logprob", -1000.0}}}));
  EXPECT_EQ(p.p_yes, 1.0);
  const auto q = yes_no_probability(first_token("no", -0.0, {{{"token", "yes"}, {"logprob", -1000.0}}}));
  EXPECT_GE(q.p_yes, 0.0);
  EXPECT_LT(q.p_yes, 1e-300);
}

TEST(JsonInText, FindsObjectsAndArraysInsideFencesAndProse) {
  EXPECT_EQ(aeval::text::find_json("Sure!\n```json\n{\"a\": [1, 2,], \"b\": {\"c\": 3},}\n```\nDone.")->dump(),
            R"({"a":[1,2],"b":{"c":3}})");
  EXPECT_EQ(aeval::text::find_json("answers: [{\"id\": 0}, {\"id\": 1}] ok", '[')->size(), 2u);
  EXPECT_EQ(aeval::text::find_json("a comma, inside \"strings,]\" stays: {\"s\": \"x,}\"}")->at("s"), "x,}");
  EXPECT_FALSE(aeval::text::find_json("no json here {oops").has_value());
}

}  // namespace
