// UltraEval-Audio's evaluator classes with no aeval class run as UEA's own Python (`uea-python-evaluator`):
// VoiceBench's judges, which build UEA's `gpt4o-mini` (its GPT class, over a stand-in for the `openai` SDK that
// Debian lacks: tests/support/uea_python/openai_standin.py) and ask a local judge server, and IFEval, which checks
// instructions with UEA's vendored instruction_following_eval. Each is proved against UEA's own main.py on the same
// tree and answers: the judge gets the same requests, and the result files are byte-identical.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <set>

#include "support/openai_test_server.hpp"
#include "support/require.hpp"
#include "support/uea_python.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::testing::read_bytes;
using aeval::testing::run_aeval;
using aeval::testing::ScopedEnv;
using nlohmann::json;

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

class UeaJudgeEvaluatorsE2E : public aeval::testing::UeaTreeTest {
 protected:
  // The stand-in tree, and `standin-qa`: its six clips with a question each and IFEval's instruction columns,
  // a UEA JsonlFile set.
  void SetUp() override {
    UeaTreeTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    make_tree();
    ASSERT_FALSE(HasFatalFailure());
    ASSERT_TRUE(aeval::testing::write_python_standins("openai_standin.py", dir_ / "standins"));
    const std::string path = (dir_ / "standins").string() + ":" + python_path_;
    python_path_env_.emplace("PYTHONPATH", path.c_str());
    std::ofstream rows(dir_ / "qa.jsonl");
    for (int k = 0; k < 6; ++k) {
      // Even rows ask for lower case (every answer is), odd ones for the word "big" (the odd answers have it), the
      // last for at least six words.
      json instruction = k == 5       ? json{"length_constraints:number_words"}
                         : k % 2 == 0 ? json{"change_case:english_lowercase"}
                                      : json{"keywords:existence"};
      json arguments = k == 5       ? json{{{"relation", "at least"}, {"num_words", 6}}}
                       : k % 2 == 0 ? json{json::object()}
                                    : json{{{"keywords", {"big"}}}};
      rows << json{{"WavPath", (dir_ / "clips" / fmt::format("c{}.wav", k)).string()},
                   {"text", fmt::format("Answer question {} in your own words.", k)},
                   {"question", fmt::format("What does clip {} say?", k)},
                   {"instruction_id_list", instruction},
                   {"kwargs", arguments}}
                  .dump()
           << "\n";
    }
    std::ofstream(dir_ / "uea" / "registry" / "dataset" / "standin-qa.yaml")
        << "standin-qa:\n  class: audio_evals.dataset.dataset.JsonlFile\n  args:\n    default_task: asr\n"
        << "    f_name: " << (dir_ / "qa.jsonl").string() << "\n    ref_col: text\n";
  }

  // aeval, then UEA's main.py, on standin-qa with UEA's stand-in model, `evaluator` and UEA's mean.
  void run_both(const std::string& evaluator) {
    const auto ours = run_aeval(fmt::format("uea run --uea-dir {} --dataset standin-qa --model minicpm-standin "
                                            "--evaluator {} --agg mean --output {} --quiet --save {}",
                                            quoted(dir_ / "uea"), evaluator, quoted(dir_ / "results"),
                                            quoted(dir_ / "aeval.jsonl")));
    ASSERT_EQ(0, ours.status) << ours.output;
    asked_by_aeval_ = judge_.requests();
    const auto theirs = uea_main(fmt::format("--dataset standin-qa --model minicpm-standin --evaluator {} --agg mean "
                                             "--save {}",
                                             evaluator, quoted(dir_ / "uea.jsonl")));
    ASSERT_EQ(0, theirs.status) << theirs.output;
    EXPECT_EQ(read_bytes(dir_ / "uea.jsonl"), read_bytes(dir_ / "aeval.jsonl"));
    EXPECT_EQ(read_bytes(dir_ / "uea-overall.json"), read_bytes(dir_ / "aeval-overall.json"));
  }

  // The judge got the same requests from aeval as from UEA's main.py: three per sample.
  void expect_the_same_judge_requests() const {
    const auto all = judge_.received();
    ASSERT_EQ(36u, all.size());
    std::multiset<std::string> by_aeval, by_uea;
    for (std::size_t k = 0; k < all.size(); ++k)
      (int(k) < asked_by_aeval_ ? by_aeval : by_uea).insert(all[k].path + " " + all[k].authorization + " " + all[k].body.dump());
    EXPECT_EQ(by_uea, by_aeval) << "the judge got other requests from aeval than from UEA's main.py";
  }

  // What the judge answers a request whose prompt holds "big" (the odd clips' answers), and other requests.
  std::string with_big_ = "Yes", without_big_ = "No";
  aeval::testing::OpenAiTestServer judge_{[this](const aeval::testing::ReceivedRequest& r, int) {
    aeval::testing::ScriptedReply reply;
    reply.text = r.body.dump().find(" big ") != std::string::npos ? with_big_ : without_big_;
    return reply;
  }};
  ScopedEnv base_url_{"OPENAI_BASE_URL", judge_.base_url().c_str()}, key_{"OPENAI_API_KEY", "test-key"};
  int asked_by_aeval_ = 0;
};

TEST_F(UeaJudgeEvaluatorsE2E, VoiceBenchsReferenceJudgeGivesUeasNumbers) {
  run_both("qa_with_reference");
  ASSERT_FALSE(HasFatalFailure());
  expect_the_same_judge_requests();
  EXPECT_EQ("Bearer test-key", judge_.received().front().authorization);
  EXPECT_EQ("gpt-4o-mini", judge_.received().front().body["model"]);
  // Half the answers judged right: UEA's mean of its majority votes.
  EXPECT_NE(read_bytes(dir_ / "aeval-overall.json").find("'gpt_score(%)': 50.0"), std::string::npos)
      << read_bytes(dir_ / "aeval-overall.json");
}

TEST_F(UeaJudgeEvaluatorsE2E, VoiceBenchsOpenRatingJudgeGivesUeasNumbers) {
  with_big_ = "4";
  without_big_ = "2";
  run_both("qa_open_5_rating");
  ASSERT_FALSE(HasFatalFailure());
  expect_the_same_judge_requests();
  EXPECT_NE(read_bytes(dir_ / "aeval-overall.json").find("'gpt_score(%)': 300.0"), std::string::npos)
      << read_bytes(dir_ / "aeval-overall.json");
}

TEST_F(UeaJudgeEvaluatorsE2E, IfEvalGivesUeasNumbers) {
  AEVAL_REQUIRE(aeval::testing::run_shell(aeval::testing::kDebianPython + " -c 'import langdetect, nltk, absl, immutabledict' 2>&1").status == 0,
                "what UEA's IFEval imports (python3-langdetect python3-nltk python3-absl python3-immutabledict)");
  run_both("ifeval");
  EXPECT_EQ(0, judge_.requests());
  // Five of six followed: the last answer ("good big morning") has fewer than six words.
  EXPECT_NE(read_bytes(dir_ / "aeval-overall.json").find("'strict_prompt(%)': 83.33"), std::string::npos)
      << read_bytes(dir_ / "aeval-overall.json");
}

}  // namespace
