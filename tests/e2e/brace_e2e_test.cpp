// BRACE as AQAScore (seed 003, Table 6) judges on it, against local stand-ins: BRACE's Main and Hallucination
// metadata in their published layouts, the clips beside them, a scripted judge run as the model under test. Each
// setup's accuracies (by kind of pair on Main, over all pairs on Hallucination) are BRACE's own reading of its files
// computed again in Python (tests/differential/reference_tools.py, "brace_json").
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <mutex>
#include <set>

#include "aeval/audio_io.hpp"
#include "support/judge_replies.hpp"
#include "support/python_references.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::ReceivedRequest;
using aeval::testing::ScriptedReply;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;

// BRACE-Main: the kinds of pair named freely per clip (numbered Human-Machine and Machine-Machine members), three
// scores a pair, a pair people tied on (an even number of scores), the clip's references beside its pairs.
const char* kMain = R"([
  {"file_name": "Glass bottles rattle.wav", "references": ["Glass bottles rattle", "Bottles clink together"],
   "Human-Human": ["Glass bottles rattle", "Bottles clink together", "human", "human", [1, 1, -1]],
   "Human-Machine_1": ["Glass bottles rattle", "a man speaks", "human", "qwen", [1, 1, 1]],
   "Human-Machine_2": ["Bottles clink together", "glass clinks and rattles", "human", "af3", [-1, -1, 1]],
   "Machine-Machine_1": ["glass clinks and rattles", "a man speaks", "af3", "qwen", [1, -1]]},
  {"file_name": "Rain on a tin roof.wav", "references": ["Rain falls on a tin roof"],
   "Human-Machine_1": ["Rain falls on a tin roof", "rain and thunder", "human", "gama", [-1, -1, -1]],
   "Machine-Machine_1": ["rain and thunder", "heavy rain falls", "gama", "ltu", [-1, 1, -1]],
   "Machine-Machine_2": ["heavy rain falls", "a car passes", "ltu", "qwen", [1, 1, 1]]}
])";

// BRACE-Hallucination: a faithful caption (type human) against the same with its nouns replaced, either first.
const char* kHallucination = R"([
  {"file_name": "Glass bottles rattle.wav",
   "caption_1": ["Glass bottles rattle", "Glass plates rattle", "human", "hallucination", {"references": ["Bottles clink together"]}],
   "caption_2": ["Metal cans clink together", "Bottles clink together", "hallucination", "human", {"references": []}]},
  {"file_name": "Rain on a tin roof.wav",
   "caption_1": ["Rain falls on a tin roof", "Hail falls on a tin roof", "human", "hallucination", {"references": []}]}
])";

const std::vector<std::string> kMainPairs = {
    "Glass bottles rattle.wav:Human-Human",      "Glass bottles rattle.wav:Human-Machine_1",
    "Glass bottles rattle.wav:Human-Machine_2",  "Rain on a tin roof.wav:Human-Machine_1",
    "Rain on a tin roof.wav:Machine-Machine_1",  "Rain on a tin roof.wav:Machine-Machine_2"};
const std::vector<std::string> kHallucinationPairs = {
    "Glass bottles rattle.wav:caption_1", "Glass bottles rattle.wav:caption_2", "Rain on a tin roof.wav:caption_1"};

TEST(BraceE2E, MainAndHallucinationAreReadAsBracesReaderReadsThemAndScoredPerKind) {
  AEVAL_REQUIRE(aeval::testing::python_references_available(), "python3-scipy and python3-sklearn");
  TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  std::filesystem::create_directories(dir / "brace");
  write_bytes(dir / "brace" / "Clotho_Main.json", kMain);
  write_bytes(dir / "brace" / "Clotho_Hallu.json", kHallucination);
  int c = 0;
  for (const char* clip : {"Glass bottles rattle.wav", "Rain on a tin roof.wav"}) {
    std::vector<float> tone(8000);
    ++c;
    for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = 0.2f * std::sin(0.01f * float(c * int(i % 4000)));
    aeval::write_wav(dir / "brace" / clip, aeval::Audio{tone, 16000, 1});
  }

  std::mutex mutex;
  std::set<std::string> cascaded;  // the cascade's comparisons: caption 1 and 2
  aeval::testing::OpenAiTestServer judge([&](const ReceivedRequest& r, int) {
    const std::string text = aeval::testing::all_text(r);
    const std::size_t heard = std::hash<std::string>{}(text + aeval::testing::sent_audio(r));
    ScriptedReply reply;
    const std::lock_guard lock(mutex);
    if (text.find("Evaluate which audio caption better matches the ground-truth description.") != std::string::npos) {
      cascaded.insert(text);
      reply.text = fmt::format("Better Caption: {}", heard % 2 ? 1 : 2);
    } else if (text.find("generate a detailed caption") != std::string::npos) {
      reply.text = fmt::format("a sound heard {} times", heard % 5);
    } else if (text.find("decide which caption better matches what is heard") != std::string::npos) {
      reply.text = fmt::format("Better Caption: {}", heard % 3 ? 1 : 2);
    } else {
      reply.text = "Yes";
      reply.logprobs = aeval::testing::first_token({{"Yes", -double(heard % 2000) / 1000.0 - 0.0005}, {"No", -1.0}});
    }
    return reply;
  });
  aeval::testing::point_judges_at(dir / "registry", judge);
  const std::string sets =
      fmt::format("--set brace-clotho-main-pairs.path={} --set brace-clotho-hallucination-pairs.path={}",
                  (dir / "brace" / "Clotho_Main.json").string(), (dir / "brace" / "Clotho_Hallu.json").string());

  struct Setup {
    const char* task;
    const char* type;
    const char* choice;
    const char* accuracy;
    const std::vector<std::string>& pairs;
  };
  for (const Setup& setup : {Setup{"brace-clotho-main", "Main", "answer-aqascore", "brace-accuracy", kMainPairs},
                             Setup{"brace-clotho-main-prompting", "Main", "caption-choice", "brace-prompting-accuracy",
                                   kMainPairs},
                             Setup{"brace-clotho-hallucination-cascade", "Hallu", "caption-cascade-choice",
                                   "brace-cascade-accuracy", kHallucinationPairs}}) {
    SCOPED_TRACE(setup.task);
    const auto o = aeval::testing::run_aeval(fmt::format("--registry {} run --task {} --model qwen2.5-omni-judge {} -q --output {}",
                                                         (dir / "registry").string(), setup.task, sets,
                                                         (dir / "out").string()));
    ASSERT_EQ(o.status, 0) << o.output;
    const auto run = aeval::testing::read_only_run(dir / "out" / setup.task);
    ASSERT_EQ(run.by_id.size(), setup.pairs.size()) << "the untied pairs once each, the references no pair";
    json scores = json::object();
    for (const auto& id : setup.pairs) {
      const json& record = run.by_id.at(id);
      EXPECT_EQ(std::filesystem::path(record["audio"].get<std::string>()).filename(), id.substr(0, id.find(':'))) << id;
      scores[id] = record["scores"][setup.choice]["value"];
    }
    const json expected = aeval::testing::python_references(
                              "brace_json", json::array({{{"json", (dir / "brace" / (std::string("Clotho_") + setup.type +
                                                                                     ".json")).string()},
                                                          {"type", setup.type},
                                                          {"scores", scores}}}))
                              .at(0);
    ASSERT_EQ(expected["pairs"], setup.pairs.size());
    const json& m = run.summary["metrics"];
    EXPECT_DOUBLE_EQ(m[setup.accuracy]["value"].get<double>(), expected["All"].get<double>());
    if (std::string(setup.type) == "Main")
      for (const char* kind : {"HH", "HM", "MM"}) {
        std::string lower = kind;
        for (auto& ch : lower) ch = char(std::tolower(ch));
        EXPECT_DOUBLE_EQ(m[std::string(setup.accuracy) + "-" + lower]["value"].get<double>(),
                         expected[kind].get<double>())
            << kind;
      }
  }
  EXPECT_EQ(cascaded.size(), kHallucinationPairs.size()) << "one comparison a pair";
}

}  // namespace
