// The judges' built-in prompts, in both languages, render every field they
// are given (and fail no template) for a sample shaped as the judges build it.
#include <gtest/gtest.h>

#include "components/aggregator.hpp"
#include "datasets/dataset.hpp"
#include "components/evaluator.hpp"
#include "components/model_loading.hpp"
#include "components/post_process.hpp"
#include "components/prompt.hpp"
#include "components/task.hpp"
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

TEST(JudgePrompts, EveryRubricStageRendersInEnglishAndChinese) {
  const Registry registry({aeval::registry::builtin_registry_dir()});
  aeval::pipeline::Sample s;
  s.id = "x";
  s.audio = "/tmp/clip.wav";
  s.reference = "A dog barks twice";  // what a judge evaluator sets, and a task's prompt reads, as the description
  s.fields = {{"text", "A dog barks twice"},
              {"dimension", "event"},
              {"question", "Does a dog bark?"},
              {"items", {{{"id", 0}, {"dimension", "event"}, {"question", "Does a dog bark?"}, {"basis", "a dog barks"}},
                         {{"id", 1}, {"dimension", "count"}, {"question", "Twice?"}, {"basis", "twice"}}}}};
  for (const char* language : {"en", "zh"}) {
    const auto text = [&](const std::string& base) {
      return rendered_text(Prompt::load(registry, base + "-" + language).render(s).shape);
    };
    EXPECT_NE(text("rubric-decompose").find("A dog barks twice"), std::string::npos) << language;
    const std::string filter = text("rubric-filter");
    EXPECT_NE(filter.find("[1]"), std::string::npos) << language;
    EXPECT_NE(filter.find("Twice?"), std::string::npos) << language;
    EXPECT_NE(text("rubric-judge").find("Does a dog bark?"), std::string::npos) << language;
    const std::string generate = text("rubric-generate");
    EXPECT_NE(generate.find("1. "), std::string::npos) << language;
    EXPECT_NE(generate.find(" 2 "), std::string::npos) << language << ": the item count";
    EXPECT_NE(text("holistic-judge").find("A dog barks twice"), std::string::npos) << language;
    EXPECT_EQ(Prompt::load(registry, std::string("rubric-judge-") + language).render(s).audio.size(), 1u);
  }
  EXPECT_NE(rendered_text(Prompt::load(registry, "rubric-judge-zh").render(s).shape).find("请判断"), std::string::npos);
}

}  // namespace
