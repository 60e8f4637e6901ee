// AnyAudio-Judge's prompts are read from its publishers' prompts.py (and decompose.py's /no_think marker): what aeval
// renders at each stage is what the file's own constants and builders give (Python runs them): the subset's
// decomposition prompt (speech_gen decomposed as speech, an unknown subset as mix), the cleaning prompt over items,
// the logits prompt with and without a dimension, the generate prompt over items. The files here are stand-ins of
// the same shape in the team's words; with AEVAL_ANYAUDIO_JUDGE_RELEASE set to a folder holding the release's
// anyaudio_judge/prompts.py and decompose.py the same comparison runs on them.
#include <gtest/gtest.h>

#include <cstdlib>

#include "aeval/error.hpp"
#include "prompts/prompt.hpp"
#include "registry/registry.hpp"
#include "support/anyaudio_judge_stand_in.hpp"
#include "support/file_server.hpp"
#include "support/python_references.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::pipeline::Prompt;
using nlohmann::json;

void expect_python_s_prompts(const std::string& prompts, const std::string& decompose) {
  aeval::testing::TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  const aeval::testing::FileServer release(aeval::testing::anyaudio_judge_release(prompts, decompose));
  std::filesystem::create_directories(dir / "registry" / "prompts");
  std::string entries;
  for (const char* stage : {"decompose", "clean", "judge", "generate"})
    entries += aeval::testing::anyaudio_judge_prompt_entry(std::string("p-") + stage, stage, release.url("/release"),
                                                           prompts, decompose);
  aeval::testing::write_bytes(dir / "registry" / "prompts" / "p.yaml", entries);
  aeval::testing::write_bytes(dir / "prompts.py", prompts);
  aeval::testing::write_bytes(dir / "decompose.py", decompose);
  const aeval::registry::Registry registry({aeval::registry::builtin_registry_dir(), dir / "registry"});

  // Arrays built by push_back: a braced list of one json value means the value itself to one compiler and an array
  // of it to another.
  json items = json::array();
  items.push_back({{"id", 0}, {"dimension", "音效类型"}, {"question", "是否有\"雨声\"{持续}？"}, {"basis", "rain {heavy}"}});
  items.push_back({{"id", 1}, {"dimension", ""}, {"question", "Is a dog barking?"}, {"basis", "a dog"}});
  const auto only = [&](std::size_t k) {
    json one = json::array();
    one.push_back(items[k]);
    return one;
  };
  const std::string text = "Rain falls; a dog barks \"twice\" {loudly}.";
  struct Case {
    std::string stage, subset, python_subset;
    json items;
  };
  const std::vector<Case> cases_here = {{"decompose", "speech_gen", "speech", json::array()},
                                        {"decompose", "mix", "mix", json::array()},
                                        {"decompose", "sound_unknown", "mix", json::array()},
                                        {"clean", "", "", items},
                                        {"judge", "", "", only(0)},
                                        {"judge", "", "", only(1)},
                                        {"generate", "", "", items}};
  json cases = json::array();
  for (const auto& c : cases_here)
    cases.push_back({{"prompts", (dir / "prompts.py").string()}, {"decompose", (dir / "decompose.py").string()},
                     {"stage", c.stage}, {"subset", c.python_subset}, {"text", text}, {"items", c.items}});
  const json expected = aeval::testing::python_references("anyaudio_judge_prompt", cases);
  ASSERT_EQ(expected.size(), cases.size());
  for (std::size_t k = 0; k < cases_here.size(); ++k) {
    const Case& c = cases_here[k];
    aeval::pipeline::Sample s;
    s.id = "x";
    s.audio = "/clips/x.wav";
    s.fields = {{"text", text}, {"subset", c.subset}, {"items", c.items}};
    if (c.stage == "judge") s.fields.update({{"dimension", c.items[0]["dimension"]}, {"question", c.items[0]["question"]}});
    const json shape = Prompt::load(registry, "p-" + c.stage).render(s).shape;
    SCOPED_TRACE(c.stage + " " + c.subset);
    ASSERT_EQ(shape.size(), 2u) << shape.dump();
    EXPECT_EQ(shape[0]["role"], "system");
    EXPECT_EQ(shape[0]["content"].back()["text"], expected[k][0]["content"]);
    EXPECT_EQ(shape[1]["role"], "user");
    EXPECT_EQ(shape[1]["content"].back()["text"], expected[k][1]["content"]);
    const bool hears = c.stage == "judge" || c.stage == "generate";
    EXPECT_EQ(shape[1]["content"].size(), hears ? 2u : 1u) << "the judge stages send the audio before the text";
    if (hears) {
      EXPECT_EQ(shape[1]["content"][0]["type"], "audio");
    }
  }
}

TEST(AnyAudioJudgePrompt, TheFilesOwnBuildersGiveWhatAevalRendersFromThem) {
  AEVAL_REQUIRE(aeval::testing::python_references_available(), "python3-nltk, python3-scipy or python3-sklearn");
  expect_python_s_prompts(aeval::testing::kAnyAudioJudgePromptsStandIn, aeval::testing::kAnyAudioJudgeDecomposeStandIn);
}

TEST(AnyAudioJudgePrompt, TheReleasesOwnFilesWhenGiven) {
  const char* folder = std::getenv("AEVAL_ANYAUDIO_JUDGE_RELEASE");
  if (!folder) GTEST_SKIP() << "set AEVAL_ANYAUDIO_JUDGE_RELEASE to a checkout of the release (anyaudio_judge/ inside)";
  const std::filesystem::path f(folder);
  expect_python_s_prompts(aeval::testing::read_bytes(f / "anyaudio_judge" / "prompts.py"),
                          aeval::testing::read_bytes(f / "anyaudio_judge" / "decompose.py"));
}

// A file without a builder is refused naming it.
TEST(AnyAudioJudgePrompt, AFileWithoutABuilderIsRefused) {
  aeval::testing::TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  const std::string other = "# the system prompt alone\nJUDGE_LOGITS_SYSTEM_PROMPT = \"\"\"yes or no\"\"\"\n";
  const aeval::testing::FileServer release(aeval::testing::anyaudio_judge_release(other, ""));
  std::filesystem::create_directories(dir / "registry" / "prompts");
  aeval::testing::write_bytes(dir / "registry" / "prompts" / "p.yaml",
                              aeval::testing::anyaudio_judge_prompt_entry("p", "judge", release.url("/release"), other, ""));
  const aeval::registry::Registry registry({aeval::registry::builtin_registry_dir(), dir / "registry"});
  try {
    Prompt::load(registry, "p");
    FAIL() << "loaded";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no 'def build_logits_user_text(' where AnyAudio-Judge's prompts are read"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
