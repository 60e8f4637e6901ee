// A model entry's own prompts: the catalog's tasks run UltraEval-Audio's definitions, whose
// eval tasks name UEA's generic prompts, and the entries of registry/models/audio-llms.yaml
// swap in UEA's prompt for that model (uea_prompts, per UEA prompt and language), unless
// --prompt is given. The prompts are UEA's, read from ../shared/uea here.
#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "run/invocation.hpp"
#include "components/task.hpp"
#include "registry/registry.hpp"
#include "registry/uea_entries.hpp"
#include "support/reference.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::pipeline::Invocation;
using aeval::registry::Kind;
using aeval::registry::Registry;
using aeval::pipeline::TaskOverrides;

Invocation invocation(const std::vector<std::filesystem::path>& folders = {aeval::registry::builtin_registry_dir()}) {
  Invocation inv;
  inv.registry = folders;
  inv.uea = aeval::testing::shared_uea_dir();
  return inv;
}

std::string prompt_of(Invocation inv, const std::string& task, const std::string& model,
                      std::optional<std::string> prompt = std::nullopt) {
  TaskOverrides o;
  o.model = model;
  o.prompt = prompt;
  aeval::pipeline::bind_task(inv, task, o);
  return inv.task.prompt;
}

TEST(ModelPrompts, EachModelGetsUltraEvalAudiosPromptForItPerTaskPromptAndLanguage) {
  AEVAL_REQUIRE_SHARED_UEA();
  const Invocation inv = invocation();
  EXPECT_EQ(prompt_of(inv, "librispeech-test-clean", "qwen2.5-omni-7b"), "qwen-omni-asr-en");
  EXPECT_EQ(prompt_of(inv, "aishell-1", "qwen2.5-omni-7b"), "qwen-omni-asr-zh");
  EXPECT_EQ(prompt_of(inv, "covost2-en-zh", "qwen2.5-omni-7b"), "qwen-omni-ast-en2zh");
  EXPECT_EQ(prompt_of(inv, "covost2-zh-en", "qwen2.5-omni-7b"), "qwen-omni-ast-zh2en");
  EXPECT_EQ(prompt_of(inv, "covost2-fr-en", "qwen2.5-omni-7b"), "sst2en") << "no French source prompt: UEA's generic";
  EXPECT_EQ(prompt_of(inv, "covost2-fr-en", "minicpm-o-2.6"), "mini-cpm-omni-ast-en") << "by prompt, any language";
  EXPECT_EQ(prompt_of(inv, "covost2-en-zh", "minicpm-o-2.6"), "mini-cpm-omni-asr-zh") << "UEA's FAQ: AST into zh";
  EXPECT_EQ(prompt_of(inv, "aishell-1", "kimi-audio-7b-instruct"), "kimi-audio-asr-zh");
  EXPECT_EQ(prompt_of(inv, "librispeech-test-clean", "gpt-4o-audio-preview"), "asr") << "UEA's generic prompt";
  EXPECT_EQ(prompt_of(inv, "librispeech-test-clean", "qwen2.5-omni-7b", "simple-asr"), "simple-asr")
      << "--prompt wins over the model's choice";
  EXPECT_EQ(prompt_of(inv, "librispeech-test-clean", "pocketsphinx-en"), "asr") << "models without prompts";
}

// Binding every (model, task) pair would load UEA's registry hundreds of times: each key and value is
// checked against UEA's prompts instead (a misspelt key would never be chosen).
TEST(ModelPrompts, EveryUeaPromptAModelNamesIsUltraEvalAudios) {
  AEVAL_REQUIRE_SHARED_UEA();
  const Registry registry({aeval::registry::builtin_registry_dir()});
  const aeval::uea::TranslatedRegistry uea = aeval::uea::translate_registry(aeval::uea::UeaRegistry(aeval::testing::shared_uea_dir()));
  std::size_t checked = 0;
  for (const auto& model : registry.names(Kind::model))
    for (const auto& item : registry.get(Kind::model, model).args["uea_prompts"]) {
      const std::string key = item.first.Scalar();
      EXPECT_TRUE(uea.registry.contains(Kind::prompt, key.substr(0, key.find('@')))) << model << ": " << key;
      EXPECT_TRUE(uea.registry.contains(Kind::prompt, item.second.Scalar())) << model << ": " << item.second.Scalar();
      ++checked;
    }
  EXPECT_GE(checked, 15u);
}

TEST(ModelPrompts, AMissingUeaPromptIsAnError) {
  AEVAL_REQUIRE_SHARED_UEA();
  aeval::testing::TempDir dir;
  std::filesystem::create_directories(dir / "models");
  aeval::testing::write_bytes(dir / "models" / "m.yaml",
                              "lost-model:\n  class: predictions_file\n  args:\n    path: p.jsonl\n"
                              "    uea_prompts: {asr@en: no-such-prompt}\n");
  try {
    prompt_of(invocation({aeval::registry::builtin_registry_dir(), dir.path()}), "librispeech-test-clean", "lost-model");
    ADD_FAILURE() << "a missing prompt was accepted";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("uea_prompts: 'asr@en' must name an UltraEval-Audio prompt entry"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
