// A model entry's own prompts: the catalog's tasks and `aeval uea run` run UltraEval-Audio's definitions, whose
// eval tasks name UEA's generic prompts, and the entries of registry/models/audio-llms.yaml swap in UEA's prompt
// for that model (uea_prompts, per UEA prompt, dataset and language; with the evaluator UEA pairs it with where
// it asks for another answer form), for their own entry and UEA's entries of the same model (uea_models), unless
// --prompt is given. The prompts are UEA's, read from ../shared/uea here.
#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "run/invocation.hpp"
#include "tasks/task.hpp"
#include "uea/uea_task.hpp"
#include "registry/registry.hpp"
#include "uea/uea_entries.hpp"
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

struct Setup {
  std::string prompt, evaluator, aggregator;
  bool operator==(const Setup&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Setup& s) {
  return out << "{" << s.prompt << ", " << s.evaluator << ", " << s.aggregator << "}";
}

// A catalog task bound for a model: the prompt, and UEA's evaluator and aggregation (the first of each).
Setup catalog_setup(Invocation inv, const std::string& task, const std::string& model) {
  TaskOverrides o;
  o.model = model;
  aeval::pipeline::bind_task(inv, task, o);
  return {inv.task.prompt, inv.task.evaluators.at(0), inv.task.aggregators.at(0)};
}

// `aeval uea run --dataset <the catalog task's UEA dataset> --model <model>`, bound.
Setup uea_run_setup(const Registry& registry, const std::string& task, const std::string& model) {
  TaskOverrides o;
  o.model = model;
  const std::string dataset = registry.get(Kind::task, task).args["uea_dataset"].Scalar();
  const auto bound = aeval::uea::bind_task(registry, aeval::testing::shared_uea_dir(), dataset, "", o);
  return {bound.spec.prompt, bound.spec.evaluators.at(0), bound.spec.aggregators.at(0)};
}

// Each family: the catalog's entry and UEA's own entries of the model send the same requests, scored the same way,
// through the catalog's task and through `aeval uea run`.
void expect_family(const std::string& catalog_model, const std::vector<std::string>& uea_models,
                   const std::vector<std::pair<std::string, Setup>>& expected) {
  Invocation inv = invocation();
  Invocation with_uea = inv;
  const Registry registry = aeval::pipeline::load_registry(with_uea);
  // Each binding reads UEA's registry anew (seconds under the sanitizers): there one task in eight stands for all.
  for (std::size_t k = 0; k < expected.size(); ++k) {
    if (!aeval::testing::checked_in_this_build(k)) continue;
    const auto& [task, setup] = expected[k];
    SCOPED_TRACE(task);
    EXPECT_EQ(catalog_setup(inv, task, catalog_model), setup) << catalog_model << " in the catalog";
    EXPECT_EQ(uea_run_setup(registry, task, catalog_model), setup) << catalog_model << " in aeval uea run";
    for (const auto& model : uea_models) {
      EXPECT_EQ(catalog_setup(inv, task, model), setup) << model << " in the catalog";
      EXPECT_EQ(uea_run_setup(registry, task, model), setup) << model << " in aeval uea run";
    }
  }
}

TEST(ModelPrompts, MiniCpmOFamilySendsItsPublishersPromptsEverywhere) {
  AEVAL_REQUIRE_SHARED_UEA();
  expect_family("minicpm-o-2.6", {"MiniCPMo2_6-audio", "MiniCPMo2_6-speech"},
                {{"librispeech-test-clean", {"mini-cpm-omni-asr-en", "wer", "wer"}},
                 {"aishell-1", {"mini-cpm-omni-asr-zh", "cer", "wer-zh"}},
                 {"meld-sentiment", {"mini-cpm-omni-sentiment_analysis", "prefix-match", "acc"}},
                 {"meld-emotion", {"mini-cpm-omni-emotion_analysis", "prefix-match", "acc"}},
                 {"voxceleb1-gender", {"mini-cpm-omni-gender_analysis", "prefix-match", "acc"}},
                 {"catdog", {"mini-cpm-omni-catdog_identify", "prefix-match", "acc"}},
                 {"desed", {"mini-cpm-omni-desed_sound_analysis", "prefix-match", "acc"}},
                 {"vocalsound", {"mini-cpm-omni-vocalsound_analysis", "prefix-match", "acc"}},
                 {"audiocaps", {"mini-cpm-omni-caption", "dump", "coco"}}});
}

TEST(ModelPrompts, KimiAudioFamilyAnswersByLetterWhereItsPromptsAskForOne) {
  AEVAL_REQUIRE_SHARED_UEA();
  expect_family("kimi-audio-7b-instruct", {"kimiaudio", "kimiaudio-speech"},
                {{"aishell-1", {"kimi-audio-asr-zh", "cer", "wer-zh"}},
                 {"mmau-test-mini", {"kimi-mmau", "kimi-mmau-choices", "mean"}},
                 {"vocalsound", {"kimi-cocalsound", "kimi-vocalsound-choices", "mean"}},
                 {"catdog", {"catdog_identify", "prefix-match", "acc"}}});
}

TEST(ModelPrompts, QwenOmniFamilySendsItsPublishersPromptsEverywhere) {
  AEVAL_REQUIRE_SHARED_UEA();
  expect_family("qwen2.5-omni-7b", {"qwen2.5-omni-audio", "qwen2.5-omni-speech"},
                {{"librispeech-test-clean", {"qwen-omni-asr-en", "wer", "wer"}},
                 {"covost2-en-zh", {"qwen-omni-ast-en2zh", "bleu-zh", "bleu-zh"}},
                 {"vocalsound", {"qwen-omni-vocalsound_analysis", "prefix-match", "acc"}},
                 {"mmau-test-mini", {"single_choice_with_answer", "choice-strings-match", "mean"}}});
}

// UEA's prompt/qwen3-omni.yaml: by language for ASR, translation and TTS; captioning; UEA's mmsu eval task.
TEST(ModelPrompts, QwenThreeOmniFamilySendsItsPublishersPromptsEverywhere) {
  AEVAL_REQUIRE_SHARED_UEA();
  expect_family("qwen3-omni-30b-a3b-instruct", {"qwen3-omni-audio", "qwen3-omni-speech"},
                {{"librispeech-test-clean", {"qwen3-omni-asr-en", "wer", "wer"}},
                 {"aishell-1", {"qwen3-omni-asr-zh", "cer", "wer-zh"}},
                 {"fleurs-ja", {"qwen3-omni-asr-ja", "wer-jp", "wer-jp"}},
                 {"fleurs-ko", {"qwen3-omni-asr-ko", "wer", "wer"}},
                 {"fleurs-ru", {"qwen3-omni-asr-ru", "wer", "wer"}},
                 {"mls-spanish", {"qwen3-omni-asr-es", "wer", "wer"}},
                 {"common-voice-15-yue", {"asr", "wer-yue", "wer-yue"}},
                 {"covost2-zh-en", {"qwen3-omni-s2tt-zh2en", "bleu", "bleu"}},
                 {"covost2-en-zh", {"qwen3-omni-s2tt-en2zh", "bleu-zh", "bleu-zh"}},
                 {"covost2-en-de", {"qwen3-omni-s2tt-en2de", "bleu", "bleu"}},
                 {"covost2-de-en", {"qwen3-omni-s2tt-de2en", "bleu", "bleu"}},
                 {"covost2-en-ja", {"qwen3-omni-s2tt-en2ja", "bleu", "bleu"}},
                 {"covost2-fr-en", {"sst2en", "bleu", "bleu"}},
                 {"audiocaps", {"qwen3-omni-audio-caption", "dump", "coco"}},
                 {"long-tts-eval-en", {"qwen3-omni-tts-en", "long-tts-eval-asr-wer-en", "long-tts-wer"}},
                 {"long-tts-eval-zh", {"qwen3-omni-tts-zh", "long-tts-eval-asr-wer-zh", "long-tts-wer"}},
                 {"mmau-test-mini", {"single_choice_with_answer", "choice-strings-match", "mean"}}});
  expect_family("qwen3-omni-30b-a3b-thinking", {"qwen3-omni-thinking"},
                {{"librispeech-test-clean", {"qwen3-omni-asr-en", "wer", "wer"}},
                 {"covost2-en-zh", {"qwen3-omni-s2tt-en2zh", "bleu-zh", "bleu-zh"}}});
  // UEA's mmsu eval task names a dataset `mmsu` its registry lacks: the key is chosen by the task's prompt alone.
  Invocation inv = invocation();
  const Registry registry = aeval::pipeline::load_registry(inv);
  for (const std::string model : {"qwen3-omni-30b-a3b-instruct", "qwen3-omni-audio", "qwen3-omni-thinking"}) {
    const auto setup = aeval::uea::model_setup(registry, model, "mmsu", "", "");
    ASSERT_TRUE(setup) << model;
    EXPECT_EQ(setup->prompt, "qwen3-mmsu") << model;
    EXPECT_EQ(setup->evaluator, "") << model << ": UEA's mmsu-choices, as for its own mmsu prompt";
  }
}

// UEA's prompt/step-audio-r1.yaml: only its MMAU prompt has a UEA dataset; MMAU's eval task scores it.
TEST(ModelPrompts, StepAudioROneFamilySendsItsMmauPrompt) {
  AEVAL_REQUIRE_SHARED_UEA();
  expect_family("step-audio-r1.1-openai", {"step-audio-r1.1"},
                {{"mmau-test-mini", {"step_audio_r1_mmau", "choice-strings-match", "mean"}},
                 {"librispeech-test-clean", {"asr", "wer", "wer"}}});
  expect_family("step-audio-r1-openai", {"step-audio-r1"},
                {{"mmau-test-mini", {"step_audio_r1_mmau", "choice-strings-match", "mean"}}});
}

// UEA's prompt/ola.yaml: ola-asr in every language, ola-aqa where UEA's prompt is the spoken question alone.
TEST(ModelPrompts, OlaFamilySendsItsPublishersPromptsEverywhere) {
  AEVAL_REQUIRE_SHARED_UEA();
  expect_family("ola-7b-openai", {},
                {{"librispeech-test-clean", {"ola-asr", "wer", "wer"}},
                 {"aishell-1", {"ola-asr", "cer", "wer-zh"}},
                 {"speech-triviaqa", {"ola-aqa", "qa-exist-match", "acc"}},
                 {"speech-hsk1", {"ola-aqa", "em", "acc"}},
                 {"covost2-en-zh", {"sst2zh", "bleu-zh", "bleu-zh"}}});
  // UEA's ola-7b runs only with Ola cloned into UEA's tree (its script is a git submodule): its setup, unbound.
  Invocation inv = invocation();
  const Registry registry = aeval::pipeline::load_registry(inv);
  const auto asr = aeval::uea::model_setup(registry, "ola-7b", "asr", "aishell-1", "zh");
  ASSERT_TRUE(asr);
  EXPECT_EQ(asr->prompt, "ola-asr");
  const auto aqa = aeval::uea::model_setup(registry, "ola-7b", "direct-aqa", "speech-triviaqa-s2t", "en");
  ASSERT_TRUE(aqa);
  EXPECT_EQ(aqa->prompt, "ola-aqa");
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
      const std::string prompt = item.second.IsMap() ? item.second["prompt"].Scalar() : item.second.Scalar();
      EXPECT_TRUE(uea.registry.contains(Kind::prompt, prompt)) << model << ": " << prompt;
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
