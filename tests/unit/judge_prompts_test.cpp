// The judges' built-in prompts of the team's wording, in both languages, render the fields they are given (and
// fail no template) for a sample shaped as the judges build it.
#include <gtest/gtest.h>

#include "aggregators/aggregator.hpp"
#include "datasets/dataset.hpp"
#include "evaluators/evaluator.hpp"
#include "evaluators/model_loading.hpp"
#include "post_process/post_process.hpp"
#include "prompts/prompt.hpp"
#include "tasks/task.hpp"
#include "registry/registry.hpp"

namespace {

using aeval::pipeline::Prompt;
using aeval::registry::Registry;
using nlohmann::json;

std::string rendered_text(const json& shape) {
  std::string out;
  for (const auto& m : shape)  // chat prompts render to a list of messages
    for (const auto& part : m["content"])
      if (part.value("type", "") == "text") out += part["text"].get<std::string>();
  return out;
}

// The rubric stages' prompts are AnyAudio-Judge's own (tests/differential/anyaudio_judge_prompt_test.cpp); the
// holistic question is the team's, in both languages.
TEST(JudgePrompts, TheHolisticQuestionRendersTheDescriptionInEnglishAndChinese) {
  const Registry registry({aeval::registry::builtin_registry_dir()});
  aeval::pipeline::Sample s;
  s.id = "x";
  s.audio = "/tmp/clip.wav";
  s.reference = "A dog barks twice";  // what a judge evaluator sets, and a task's prompt reads, as the description
  s.fields = {{"text", "A dog barks twice"}};
  for (const char* language : {"en", "zh"}) {
    const auto rendered = Prompt::load(registry, std::string("holistic-judge-") + language).render(s);
    EXPECT_NE(rendered_text(rendered.shape).find("A dog barks twice"), std::string::npos) << language;
    EXPECT_EQ(rendered.audio.size(), 1u) << language;
  }
}

}  // namespace
