#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "aggregators/aggregator.hpp"
#include "datasets/dataset.hpp"
#include "evaluators/evaluator.hpp"
#include "evaluators/model_loading.hpp"
#include "post_process/post_process.hpp"
#include "prompts/prompt.hpp"
#include "tasks/task.hpp"
#include "registry/registry.hpp"
#include "support/config_error.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::registry::Kind;
using aeval::registry::Registry;
using aeval::testing::TempDir;
using aeval::testing::config_error;

TEST(Registry, BuiltinTaskResolves) {
  const Registry registry({aeval::registry::builtin_registry_dir()});
  const auto task = aeval::pipeline::resolve_task(registry, "asr-quickstart");
  EXPECT_EQ(task.dataset, "asterisk-en");
  EXPECT_EQ(task.model, "pocketsphinx-en");
  EXPECT_EQ(task.evaluators, (std::vector<std::string>{"wer", "cer"}));
}

TEST(Registry, UnknownNamesSuggestTheClosest) {
  const Registry registry({aeval::registry::builtin_registry_dir()});
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
  EXPECT_NE(message.find("bad.yaml:4: malformed YAML: end of sequence flow not found"), std::string::npos) << message;
}

TEST(Registry, UnknownArgumentIsRejectedWithItsLineWhenTheRegistryLoads) {
  TempDir dir;
  std::filesystem::create_directories(dir / "evaluators");
  aeval::testing::write_bytes(dir / "evaluators" / "e.yaml", "wer2:\n  class: error_rate\n  args:\n    unti: words\n");
  const std::string message = config_error([&] { Registry({aeval::registry::builtin_registry_dir(), dir.path()}); });
  EXPECT_NE(message.find("e.yaml:4"), std::string::npos) << message;
  EXPECT_NE(message.find("unknown argument 'unti'"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean: unit"), std::string::npos) << message;
}

TEST(Registry, ATypoInATaskReferenceNamesFileLineAndFix) {
  TempDir dir;
  std::filesystem::create_directories(dir / "tasks");
  aeval::testing::write_bytes(dir / "tasks" / "t.yaml",
                              "mine:\n  class: task\n  args:\n    dataset: asterisk-en\n    model: pocketsphinx-en\n"
                              "    evaluators: [wer, cre]\n");
  const std::string message = config_error([&] { Registry({aeval::registry::builtin_registry_dir(), dir.path()}); });
  EXPECT_NE(message.find("t.yaml:6"), std::string::npos) << message;
  EXPECT_NE(message.find("evaluator 'cre'"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean: cer"), std::string::npos) << message;
}

TEST(Registry, WrongArgumentTypesAndUnknownClasses) {
  TempDir dir;
  std::filesystem::create_directories(dir / "aggregators");
  aeval::testing::write_bytes(dir / "aggregators" / "a.yaml", "boot:\n  class: summary\n  args:\n    bootstrap: many\n");
  std::string message = config_error([&] { Registry({dir.path()}); });
  EXPECT_NE(message.find("a.yaml:4: argument 'bootstrap' of 'boot' must be an integer"), std::string::npos) << message;
  aeval::testing::write_bytes(dir / "aggregators" / "a.yaml", "boot:\n  class: sumary\n");
  message = config_error([&] { Registry({dir.path()}); });
  EXPECT_NE(message.find("a.yaml:1: unknown aggregator class 'sumary' (did you mean: summary?)"), std::string::npos)
      << message;
  aeval::testing::write_bytes(dir / "aggregators" / "a.yaml", "boot:\n  class: summary\n  args: {}\n");
  std::filesystem::create_directories(dir / "post-process");
  aeval::testing::write_bytes(dir / "post-process" / "p.yaml", "field:\n  class: json_field\n");
  message = config_error([&] { Registry({dir.path()}); });
  EXPECT_NE(message.find("p.yaml:1: 'field' (class json_field) needs argument 'field'"), std::string::npos) << message;
}

TEST(Registry, LaterFoldersOverrideEarlierOnesAndSetChangesOneArgument) {
  TempDir dir;
  std::filesystem::create_directories(dir / "evaluators");
  aeval::testing::write_bytes(dir / "evaluators" / "e.yaml", "wer:\n  class: error_rate\n  args:\n    unit: chars\n");
  Registry registry({aeval::registry::builtin_registry_dir(), dir.path()});
  EXPECT_EQ(aeval::pipeline::load_evaluator(registry, "wer")->identity()["unit"], "chars");
  aeval::registry::apply_assignment(registry, "wer.unit=words");
  EXPECT_EQ(aeval::pipeline::load_evaluator(registry, "wer")->identity()["unit"], "words");
  EXPECT_NE(config_error([&] { aeval::registry::apply_assignment(registry, "wer.unti=words"); }).find("did you mean: unit"),
            std::string::npos);
  EXPECT_NE(config_error([&] { aeval::registry::apply_assignment(registry, "werr.unit=words"); }).find("did you mean"),
            std::string::npos);
  EXPECT_NE(config_error([&] { aeval::registry::apply_assignment(registry, "wer.unit"); }).find("NAME.ARG=VALUE"),
            std::string::npos);
}

}  // namespace

namespace {

TEST(PostProcess, YesNoTakesTheFirstWordElseTheOnlyAnswerGiven) {
  const Registry registry({aeval::registry::builtin_registry_dir()});
  const auto yes_no = aeval::pipeline::load_post_process(registry, "yes-no");
  const aeval::pipeline::Sample sample;
  EXPECT_EQ(yes_no.apply("Yes.", sample), "yes");
  EXPECT_EQ(yes_no.apply("No, there is a dog... yes", sample), "no");
  EXPECT_EQ(yes_no.apply("I think the answer is yes", sample), "yes");
  EXPECT_EQ(yes_no.apply("It is not correct, no", sample), "");
  EXPECT_EQ(yes_no.apply("maybe", sample), "");
}

}  // namespace
