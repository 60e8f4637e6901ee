#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "aeval/pipeline/components.hpp"
#include "aeval/pipeline/registry.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::pipeline::Kind;
using aeval::pipeline::Registry;
using aeval::testing::TempDir;

std::string config_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const aeval::Error& e) {
    EXPECT_EQ(e.category(), aeval::ErrorCategory::config);
    return e.what();
  }
  return "<no error>";
}

TEST(Registry, BuiltinTaskResolves) {
  const Registry registry({aeval::pipeline::builtin_registry_dir()});
  const auto task = aeval::pipeline::resolve_task(registry, "asr-quickstart");
  EXPECT_EQ(task.dataset, "asterisk-en");
  EXPECT_EQ(task.model, "pocketsphinx-en");
  EXPECT_EQ(task.evaluators, (std::vector<std::string>{"wer", "cer"}));
}

TEST(Registry, UnknownNamesSuggestTheClosest) {
  const Registry registry({aeval::pipeline::builtin_registry_dir()});
  const std::string message = config_error([&] { aeval::pipeline::resolve_task(registry, "asr-quikstart"); });
  EXPECT_NE(message.find("did you mean: asr-quickstart"), std::string::npos) << message;
  aeval::pipeline::TaskOverrides overrides;
  overrides.model = "pocketsphinx";
  EXPECT_NE(config_error([&] { aeval::pipeline::resolve_task(registry, "asr-quickstart", overrides); })
                .find("pocketsphinx-en"),
            std::string::npos);
}

TEST(Registry, MalformedYamlNamesFileAndLine) {
  TempDir dir;
  std::filesystem::create_directories(dir / "tasks");
  aeval::testing::write_bytes(dir / "tasks" / "bad.yaml", "ok:\n  class: task\n  args: [unclosed\n");
  const std::string message = config_error([&] { Registry({dir.path()}); });
  EXPECT_NE(message.find("bad.yaml:"), std::string::npos) << message;
}

TEST(Registry, UnknownArgumentIsRejectedWithItsLine) {
  TempDir dir;
  std::filesystem::create_directories(dir / "evaluators");
  aeval::testing::write_bytes(dir / "evaluators" / "e.yaml", "wer2:\n  class: error_rate\n  args:\n    unti: words\n");
  const Registry registry({aeval::pipeline::builtin_registry_dir(), dir.path()});
  const std::string message = config_error([&] { aeval::pipeline::load_evaluator(registry, "wer2"); });
  EXPECT_NE(message.find("e.yaml:4"), std::string::npos) << message;
  EXPECT_NE(message.find("unti"), std::string::npos) << message;
}

TEST(Registry, LaterFoldersOverrideEarlierOnes) {
  TempDir dir;
  std::filesystem::create_directories(dir / "evaluators");
  aeval::testing::write_bytes(dir / "evaluators" / "e.yaml", "wer:\n  class: error_rate\n  args:\n    unit: chars\n");
  const Registry registry({aeval::pipeline::builtin_registry_dir(), dir.path()});
  EXPECT_TRUE(aeval::pipeline::load_evaluator(registry, "wer").characters);
}

}  // namespace
