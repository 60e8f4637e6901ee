// Corrections of UltraEval-Audio's bugs are options; UEA's behaviour stays the default.
#include <gtest/gtest.h>

#include "post_process/post_process.hpp"
#include "registry/classes.hpp"

namespace {

aeval::pipeline::PostProcess first_option(bool separate) {
  aeval::registry::Registry registry;
  aeval::registry::Entry e;
  e.name = "first_option";
  e.class_id = "first_option";
  e.args = YAML::Load(separate ? "{options: ABCD, separate_joined_patterns: true}" : "{options: ABCD}");
  e.file = "test.yaml";
  registry.add(aeval::registry::Kind::post_process, e);
  aeval::registry::validate_registry(registry);
  return aeval::pipeline::load_post_process(registry, "first_option");
}

// UEA's FirstOption misses a comma, so "故选?..." and "只有选?项?...是?对" are one pattern that needs both;
// "only option B is right" then falls through to the first letter anywhere, A (what UEA's own class returns).
TEST(UeaCorrections, FirstOptionJoinsTwoPatternsUnlessToldToSeparateThem) {
  const aeval::pipeline::Sample sample{"s", {}, std::nullopt, nlohmann::json::object()};
  const std::string answer = "A和B中只有选项B是对的";
  EXPECT_EQ("A", first_option(false).apply(answer, sample));
  EXPECT_EQ("B", first_option(true).apply(answer, sample));
}

}  // namespace
