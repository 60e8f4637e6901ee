// JSON from outside is refused past kMaxJsonDepth, by every reader of it:
// the limit itself, and the readers that must still tell whose the text was.
#include <gtest/gtest.h>

#include <string>

#include "aeval/text/json_in_text.hpp"
#include "aeval/text/python_values.hpp"
#include "models/process_model.hpp"
#include "util/untrusted_json.hpp"

namespace {

using aeval::JsonTooDeep;
using aeval::kMaxJsonDepth;
using aeval::parse_untrusted_json;

std::string nested_lists(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(UntrustedJson, TheLimitIsTheDepthOfArraysAndObjects) {
  EXPECT_NO_THROW(parse_untrusted_json(nested_lists(kMaxJsonDepth)));
  EXPECT_THROW(parse_untrusted_json(nested_lists(kMaxJsonDepth + 1)), JsonTooDeep);
  EXPECT_THROW(parse_untrusted_json(nested_lists(100'000), /*allow_exceptions=*/false), JsonTooDeep);
  std::string objects;
  for (std::size_t i = 0; i <= kMaxJsonDepth; ++i) objects += R"({"a":)";
  EXPECT_THROW(parse_untrusted_json(objects + "1" + std::string(kMaxJsonDepth + 1, '}')), JsonTooDeep);
}

TEST(UntrustedJson, BracketsInStringsDoNotCount) {
  const std::string text = R"({"a": ")" + std::string(5000, '[') + R"(\"]", "b": [1]})";
  EXPECT_EQ(parse_untrusted_json(text)["b"][0], 1);
}

TEST(UntrustedJson, WhatNestsTooDeepIsLeftOutByName) {
  const auto shallow = aeval::without_deep_members(R"({"id": "x", "deep": )" + nested_lists(100'000) +
                                                   R"(, "kept": [[1]], "also": {"b": )" + nested_lists(5000) + "}}");
  EXPECT_EQ(shallow.value, (nlohmann::json{{"id", "x"}, {"kept", {{1}}}}));
  EXPECT_EQ(shallow.left_out, (std::vector<std::string>{"deep", "also"}));
  EXPECT_TRUE(aeval::without_deep_members(nested_lists(100'000)).value.is_discarded());
}

TEST(UntrustedJson, AProcessReplyNestedTooDeepAnswersItsRequestWithAnError) {
  const auto reply = aeval::models::read_process_reply(R"({"type": "response", "id": "7", "text": )" +
                                                       nested_lists(100'000) + "}");
  EXPECT_EQ(reply.type, aeval::models::ProcessReply::Type::response);
  EXPECT_EQ(reply.id, "7");
  EXPECT_FALSE(reply.text);
  EXPECT_EQ(reply.error, "its reply is JSON nested deeper than 1000 levels");
}

TEST(UntrustedJson, AnAnswerNestedTooDeepIsAnError) {
  EXPECT_THROW(aeval::text::find_json("so: " + nested_lists(100'000), '['), aeval::Error);
}

// Where Python raises: json.loads' RecursionError, literal_eval's "too many nested parentheses" past 200.
TEST(UntrustedJson, PythonsReadersGiveUpWherePythonDoes) {
  EXPECT_FALSE(aeval::text::python_json_loads(nested_lists(100'000)));
  EXPECT_TRUE(aeval::text::python_literal_eval(nested_lists(200)));
  EXPECT_FALSE(aeval::text::python_literal_eval(nested_lists(201)));
  EXPECT_FALSE(aeval::text::python_literal_eval("{'a': (" + nested_lists(199) + ")}"));
  EXPECT_FALSE(aeval::text::python_literal_eval(nested_lists(100'000)));
}

}  // namespace
