// A model entry's own prompts: the catalog's tasks name generic prompts, and
// the entries of registry/models/audio-llms.yaml swap in the prompt each model
// is published with, per task prompt and language, unless --prompt is given.
#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "pipeline/task.hpp"
#include "registry/registry.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::pipeline::Kind;
using aeval::pipeline::Registry;
using aeval::pipeline::resolve_task;
using aeval::pipeline::TaskOverrides;

std::string prompt_of(const Registry& registry, const std::string& task, const std::string& model,
                      std::optional<std::string> prompt = std::nullopt) {
  TaskOverrides o;
  o.model = model;
  o.prompt = prompt;
  return resolve_task(registry, task, o).prompt;
}

TEST(ModelPrompts, EachModelGetsItsOwnPromptPerTaskPromptAndLanguage) {
  const Registry registry({aeval::pipeline::builtin_registry_dir()});
  EXPECT_EQ(prompt_of(registry, "librispeech-test-clean", "qwen2.5-omni-7b"), "qwen2.5-omni-asr-en");
  EXPECT_EQ(prompt_of(registry, "aishell-1", "qwen2.5-omni-7b"), "qwen2.5-omni-asr-zh");
  EXPECT_EQ(prompt_of(registry, "covost2-en-zh", "qwen2.5-omni-7b"), "qwen2.5-omni-ast-en2zh");
  EXPECT_EQ(prompt_of(registry, "covost2-zh-en", "qwen2.5-omni-7b"), "qwen2.5-omni-ast-zh2en");
  EXPECT_EQ(prompt_of(registry, "covost2-fr-en", "qwen2.5-omni-7b"), "translate-to-english")
      << "no French source prompt: the task's own";
  EXPECT_EQ(prompt_of(registry, "covost2-fr-en", "minicpm-o-2.6"), "minicpm-o-ast-en") << "by prompt, any language";
  EXPECT_EQ(prompt_of(registry, "aishell-1", "kimi-audio-7b-instruct"), "kimi-audio-asr-zh");
  EXPECT_EQ(prompt_of(registry, "librispeech-test-clean", "gpt-4o-audio-preview"), "uea-asr-en");
  EXPECT_EQ(prompt_of(registry, "librispeech-test-clean", "qwen2.5-omni-7b", "transcribe"), "transcribe")
      << "--prompt wins over the model's choice";
  EXPECT_EQ(prompt_of(registry, "librispeech-test-clean", "pocketsphinx-en"), "transcribe") << "models without prompts";
}

TEST(ModelPrompts, EveryModelResolvesWithEveryTaskOfTheCatalog) {
  const Registry registry({aeval::pipeline::builtin_registry_dir()});
  for (const auto& model : registry.names(Kind::model)) {
    if (!registry.get(Kind::model, model).args["prompts"]) continue;
    for (const auto& task : registry.names(Kind::task)) {
      TaskOverrides o;
      o.model = model;
      EXPECT_NO_THROW(resolve_task(registry, task, o)) << model << " with " << task;
    }
  }
}

TEST(ModelPrompts, AMisspeltKeyOrAMissingPromptIsAnError) {
  aeval::testing::TempDir dir;
  std::filesystem::create_directories(dir / "models");
  aeval::testing::write_bytes(dir / "models" / "m.yaml",
                              "typo-model:\n  class: predictions_file\n  args:\n    path: p.jsonl\n"
                              "    prompts: {transcibe@en: uea-asr-en}\n"
                              "lost-model:\n  class: predictions_file\n  args:\n    path: p.jsonl\n"
                              "    prompts: {transcribe@en: no-such-prompt}\n");
  const Registry registry({aeval::pipeline::builtin_registry_dir(), dir.path()});
  try {
    prompt_of(registry, "librispeech-test-clean", "typo-model");
    ADD_FAILURE() << "a misspelt key was accepted";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("prompts: 'transcibe@en' must be a prompt entry's name"), std::string::npos)
        << e.what();
  }
  try {
    prompt_of(registry, "librispeech-test-clean", "lost-model");
    ADD_FAILURE() << "a missing prompt was accepted";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("names prompt 'no-such-prompt' in its prompts"), std::string::npos) << e.what();
  }
}

}  // namespace
