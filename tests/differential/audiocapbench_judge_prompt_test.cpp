// AudioCapBench's judge prompt is read from its publishers' metrics.py: what aeval renders from the file is the text
// the file's own evaluate_with_llm_judge sends (Python runs it with a client that keeps the messages), for each
// category, with and without a transcript, with quotes and braces in the captions. The file here is a stand-in of the
// same shape in the team's words (the release's is not in the repository); with AEVAL_AUDIOCAPBENCH_METRICS set to
// the release's audiocapbench/metrics.py (commit e2a1d3e) the same comparison runs on it too.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdlib>

#include "aeval/error.hpp"
#include "prompts/prompt.hpp"
#include "registry/registry.hpp"
#include "support/audiocapbench_stand_in.hpp"
#include "support/file_server.hpp"
#include "support/python_references.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::pipeline::Prompt;
using nlohmann::json;



// The prompt entry reading `metrics` from a release served here, rendered for each case, against Python's.
void expect_python_s_prompts(const std::string& metrics) {
  aeval::testing::TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  const aeval::testing::FileServer release("/release/audiocapbench/metrics.py", metrics);
  std::filesystem::create_directories(dir / "registry" / "prompts");
  aeval::testing::write_bytes(dir / "registry" / "prompts" / "p.yaml",
                              aeval::testing::audiocapbench_judge_prompt_entry("judge-prompt", release.url("/release"), metrics));
  const aeval::registry::Registry registry({aeval::registry::builtin_registry_dir(), dir / "registry"});
  const Prompt prompt = Prompt::load(registry, "judge-prompt");
  aeval::testing::write_bytes(dir / "metrics.py", metrics);
  json cases = json::array();
  for (const auto& [category, transcript] : std::vector<std::pair<std::string, std::string>>{
           {"speech", "well, \"hello\" {there}"}, {"speech", ""}, {"music", "ignored"}, {"sound", ""}, {"other", ""}})
    cases.push_back({{"file", (dir / "metrics.py").string()},
                     {"prediction", "a man says \"hi\" {loudly}"},
                     {"references", {"a man talks", "someone {speaks} \"twice\""}},
                     {"category", category},
                     {"transcript", transcript}});
  const json expected = aeval::testing::python_references("audiocapbench_judge_prompt", cases);
  ASSERT_EQ(expected.size(), cases.size());
  for (std::size_t k = 0; k < cases.size(); ++k) {
    aeval::pipeline::Sample s;
    s.id = "x";
    s.fields = {{"prediction", cases[k]["prediction"]}, {"references", cases[k]["references"]},
                {"category", cases[k]["category"]}, {"transcript", cases[k]["transcript"]}};
    const json shape = prompt.render(s).shape;
    ASSERT_EQ(shape.size(), 1u) << shape.dump();
    EXPECT_EQ(shape[0]["role"], expected[k][0]["role"]);
    EXPECT_EQ(shape[0]["content"][0]["text"], expected[k][0]["content"]) << cases[k].dump();
  }
}

TEST(AudioCapBenchJudgePrompt, TheFilesOwnFunctionSendsWhatAevalRendersFromIt) {
  AEVAL_REQUIRE(aeval::testing::python_references_available(), "python3-nltk, python3-scipy or python3-sklearn");
  expect_python_s_prompts(aeval::testing::kAudioCapBenchMetricsStandIn);
}

TEST(AudioCapBenchJudgePrompt, TheReleasesOwnFileWhenGiven) {
  const char* metrics = std::getenv("AEVAL_AUDIOCAPBENCH_METRICS");
  if (!metrics) GTEST_SKIP() << "set AEVAL_AUDIOCAPBENCH_METRICS to the release's audiocapbench/metrics.py";
  expect_python_s_prompts(aeval::testing::read_bytes(metrics));
}

// A file without the function's pieces is refused naming what is missing.
TEST(AudioCapBenchJudgePrompt, AFileWithoutTheJudgeFunctionIsRefused) {
  aeval::testing::TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  const std::string other = "def something_else():\n    return 1\n";
  const aeval::testing::FileServer release("/release/audiocapbench/metrics.py", other);
  std::filesystem::create_directories(dir / "registry" / "prompts");
  aeval::testing::write_bytes(dir / "registry" / "prompts" / "p.yaml",
                              aeval::testing::audiocapbench_judge_prompt_entry("judge-prompt", release.url("/release"), other));
  const aeval::registry::Registry registry({aeval::registry::builtin_registry_dir(), dir / "registry"});
  try {
    Prompt::load(registry, "judge-prompt");
    FAIL() << "loaded";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no 'def evaluate_with_llm_judge(' where AudioCapBench's judge prompt is read"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
