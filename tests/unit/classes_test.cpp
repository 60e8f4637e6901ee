// Self-registration: a class declared in one place is validated, described
// and built from its entry, with typed defaults.
#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "aggregators/aggregator.hpp"
#include "post_process/post_process.hpp"
#include "prompts/prompt.hpp"
#include "registry/factory.hpp"
#include "support/config_error.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace aeval::registry;
using aeval::testing::config_error;

// A class only this test declares: a post-process "product" that is a string.
using TestClasses = ClassFactories<std::string>;
const TestClasses::Registration kTestClass{
    {Kind::post_process, "test_echo", "joins its arguments (test only)",
     {arg::integer("count", 3, "how many"), arg::choice("unit", "words", {"words", "chars"}),
      arg::path("file", "/absolute/default"), arg::texts("labels", {"A", "B"}), arg::optional_number("scale")},
     {"test_old_echo"}},
    [](const Args& args) {
      std::string out = std::to_string(args.integer("count")) + " " + args.text("unit") + " " +
                        args.path("file").string() + " " + std::to_string(args.strings("labels").size());
      if (const auto scale = args.optional_number("scale")) out += " " + std::to_string(*scale);
      return out;
    }};

Registry registry_with(const aeval::testing::TempDir& dir, const std::string& yaml) {
  std::filesystem::create_directories(dir / "post-process");
  aeval::testing::write_bytes(dir / "post-process" / "p.yaml", yaml);
  return Registry({dir.path()});
}

TEST(Classes, DeclaredClassIsInTheCatalogWithItsTypedDefaults) {
  const ClassSpec* found = nullptr;
  for (const ClassSpec* spec : class_catalog())
    if (spec->id == "test_echo") found = spec;
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->kind, Kind::post_process);
  EXPECT_EQ(found->find("count")->shown_default(), "3");
  EXPECT_EQ(found->find("labels")->shown_default(), "[A, B]");
  EXPECT_EQ(found->find("scale")->shown_default(), "");
}

TEST(Classes, FactoryBuildsFromDefaultsAndFromWrittenValues) {
  aeval::testing::TempDir dir;
  const Registry registry = registry_with(dir, "d:\n  class: test_echo\nw:\n  class: test_echo\n  args: {count: 7, unit: chars,"
                                               " file: rel.txt, labels: [X], scale: 0.5}\n");
  EXPECT_EQ(TestClasses::make(registry.get(Kind::post_process, "d"), Kind::post_process), "3 words /absolute/default 2");
  // A relative path is relative to the YAML file that wrote it.
  EXPECT_EQ(TestClasses::make(registry.get(Kind::post_process, "w"), Kind::post_process),
            "7 chars " + (dir / "post-process" / "rel.txt").string() + " 1 0.500000");
}

TEST(Classes, ValuesOutsideTheDeclaredChoicesFailWithTheirLine) {
  aeval::testing::TempDir dir;
  const std::string message =
      config_error([&] { registry_with(dir, "p:\n  class: test_echo\n  args:\n    unit: letters\n"); });
  EXPECT_NE(message.find("p.yaml:4: argument 'unit' of 'p' must be one of words, chars"), std::string::npos) << message;
}

TEST(Classes, WrongTypesAndUnknownClassesFailWhenTheRegistryLoads) {
  aeval::testing::TempDir dir;
  EXPECT_NE(config_error([&] { registry_with(dir, "p:\n  class: test_echo\n  args: {count: many}\n"); })
                .find("argument 'count' of 'p' must be an integer"),
            std::string::npos);
  aeval::testing::TempDir other;
  EXPECT_NE(config_error([&] { registry_with(other, "p:\n  class: test_ecko\n"); }).find("did you mean: test_echo"),
            std::string::npos);
}

TEST(Classes, AnOldClassIdBuildsTheRenamedClass) {
  aeval::testing::TempDir dir;
  const Registry registry = registry_with(dir, "o:\n  class: test_old_echo\n  args: {count: 1}\n");
  EXPECT_EQ(TestClasses::make(registry.get(Kind::post_process, "o"), Kind::post_process), "1 words /absolute/default 2");
}

TEST(Classes, EveryBuiltinEntryBuildsThroughItsClass) {
  // Each class the built-in registry names has a declaration (validation
  // passed) and the loaders build them without a list of class ids.
  const Registry registry({builtin_registry_dir()});
  for (const auto& name : registry.names(Kind::post_process))
    EXPECT_NO_THROW(aeval::pipeline::load_post_process(registry, name)) << name;
  for (const auto& name : registry.names(Kind::aggregator)) EXPECT_NO_THROW(aeval::pipeline::load_aggregator(registry, name)) << name;
  // A prompt read from its publishers' release downloads it when built: its test serves one
  // (tests/differential/audiocapbench_judge_prompt_test.cpp, anyaudio_judge_prompt_test.cpp).
  for (const auto& name : registry.names(Kind::prompt)) {
    if (registry.get(Kind::prompt, name).args["release"]) continue;
    EXPECT_NO_THROW(aeval::pipeline::Prompt::load(registry, name)) << name;
  }
}

}  // namespace
