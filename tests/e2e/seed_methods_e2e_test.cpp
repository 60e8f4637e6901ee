// The seed methods on their own benchmarks, against local stand-ins: RELATE's
// ratings CSV in its published layout (one row per listener, quoted texts,
// splits, anchors) served over HTTP, clips in its archive's folders, and a
// scripted judge run as the model under test. The averaged ratings, the
// correlations and RELATE-Pair's pairs are computed again by Python's csv
// module, SciPy and a construction of their own (tests/differential/reference_tools.py).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "aeval/audio_io.hpp"
#include "support/file_server.hpp"
#include "support/judge_replies.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "util/sha256.hpp"

namespace {

using aeval::testing::FileServer;
using aeval::testing::OpenAiTestServer;
using aeval::testing::ReceivedRequest;
using aeval::testing::run_aeval;
using aeval::testing::ScriptedReply;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;

// REL.csv's header and rows as its publishers write them: wavname from the archive's root, one
// row per listener, a text with a comma quoted, anchors and other splits that a test run skips.
std::string relate_csv() {
  std::string csv = "wavname,text,score,listener_id,audio type,anchor label,in RELATE dataset,in AudioCaps\n";
  const std::vector<std::string> texts = {"A dog barks while birds chirp", "\"Rain falls, then thunder rumbles\"",
                                          "A man speaks and a door closes"};
  const std::vector<std::string> systems = {"audiocaps", "audioldm", "tango2"};
  for (std::size_t t = 0; t < texts.size(); ++t)
    for (std::size_t s = 0; s < systems.size(); ++s)
      for (int listener = 0; listener < 3; ++listener) {
        // Averaged, clips of one text differ by more than 2, by exactly 2 (no pair) or by less.
        const int score = int((s == 0 ? t * 2 + std::size_t(listener) + 9 : t * 2 + s * 2 + std::size_t(listener)) % 11);
        csv += fmt::format("/{}/test/{}.wav,{},{},{:04d},{},False,test,test\n", systems[s], 100 + t, texts[t], score,
                           listener, systems[s] == "audiocaps" ? "natural" : systems[s]);
      }
  csv += "/tango2/test/100.wav,A cat meows,0,0007,tango,True,excluded,\n";
  csv += "/audioldm/train/5.wav,Wind blows,9,0001,audioldm,False,train,train\n";
  return csv;
}

TEST(SeedMethodsE2E, RelateAndRelatePairRankTheJudgeAsTheirPaperDoes) {
  AEVAL_REQUIRE(std::system("/usr/bin/python3 -c 'import scipy, sklearn' >/dev/null 2>&1") == 0,
                "python3-scipy and python3-sklearn");
  TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());  // downloads counted from none
  const std::string csv = relate_csv();
  write_bytes(dir / "REL.csv", csv);
  FileServer ratings("/scores/REL.csv", csv);
  // The archive's folders, a distinct clip in each.
  int k = 0;
  for (const char* system : {"audiocaps", "audioldm", "tango2"})
    for (int t = 100; t < 103; ++t) {
      std::vector<float> tone(8000);
      for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = 0.1f * std::sin(0.01f * float((k + 1) * i));
      ++k;
      std::filesystem::create_directories(dir / "RELATE_wave" / system / "test");
      aeval::write_wav(dir / "RELATE_wave" / system / "test" / fmt::format("{}.wav", t), aeval::Audio{tone, 16000, 1});
    }
  // The judge's p(yes) follows from what it hears and reads.
  OpenAiTestServer judge([&](const ReceivedRequest& r, int) {
    const std::string heard = aeval::testing::all_text(r) + aeval::testing::sent_audio(r);
    ScriptedReply reply;
    reply.text = "Yes";
    reply.logprobs = aeval::testing::first_token(
        {{"Yes", -double(std::hash<std::string>{}(heard) % 3000) / 1000.0}, {"No", -1.2}});
    return reply;
  });
  aeval::testing::point_judges_at(dir / "registry", judge);
  const std::string sets = fmt::format("--set relate-test.url={} --set relate-test.sha256={} --set relate-test.audio_dir={}",
                                       ratings.url("/scores/REL.csv"), aeval::sha256_hex(csv),
                                       (dir / "RELATE_wave").string());
  const auto o = run_aeval(fmt::format("--registry {} run --suite seed-methods --model qwen2.5-omni-judge {} -q --output {}",
                                       (dir / "registry").string(), sets, (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(ratings.requests(), 1) << "the ratings are downloaded once and kept";

  const auto relate = aeval::testing::read_only_run(dir / "out" / "relate");
  const auto pairs = aeval::testing::read_only_run(dir / "out" / "relate-pair");
  json scores = json::object();
  for (const auto& [id, record] : relate.by_id) scores[id] = record["scores"]["answer-aqascore"]["value"];
  write_bytes(dir / "request.json",
              json{{"kind", "rated_csv"},
                   {"cases", {{{"csv", (dir / "REL.csv").string()}, {"split", "test"}, {"scores", scores}}}}}
                  .dump());
  ASSERT_EQ(std::system(fmt::format("/usr/bin/python3 {}/tests/differential/reference_tools.py {} {}", AEVAL_SOURCE_DIR,
                                    (dir / "request.json").string(), (dir / "answer.json").string())
                            .c_str()),
            0);
  const json reference = json::parse(aeval::testing::read_bytes(dir / "answer.json"))[0];
  ASSERT_EQ(reference["clips"], 9);
  ASSERT_EQ(relate.by_id.size(), 9u) << "the test split's clips, once each";
  for (const auto& [id, record] : relate.by_id) {
    EXPECT_DOUBLE_EQ(record["fields"]["human_score"].get<double>(), reference["means"][id].get<double>()) << id;
    EXPECT_EQ(record["fields"]["ratings"], 3) << id;
  }
  const json& m = relate.summary["metrics"];
  EXPECT_NEAR(m["answer-aqascore-lcc"]["value"].get<double>(), reference["pearson"].get<double>(), 1e-12);
  EXPECT_NEAR(m["answer-aqascore-srcc"]["value"].get<double>(), reference["spearman"].get<double>(), 1e-12);
  EXPECT_NEAR(m["answer-aqascore-ktau"]["value"].get<double>(), reference["kendall"].get<double>(), 1e-12);
  const json& p = pairs.summary["metrics"]["answer-aqascore-pair-accuracy"];
  EXPECT_EQ(p["pairs"], reference["pairs"]);
  EXPECT_GE(reference["pairs"].get<int>(), 4);
  EXPECT_DOUBLE_EQ(p["value"].get<double>(), reference["pairwise_accuracy"].get<double>());

  // The leaderboard holds each number against the paper's: this judge is no Qwen2.5-Omni-7B.
  const auto report = run_aeval(fmt::format("--registry {} report {}", (dir / "registry").string(), (dir / "out").string()), false);
  ASSERT_EQ(report.status, 0) << report.output;
  EXPECT_NE(report.output.find("| qwen2.5-omni-judge | answer-aqascore-lcc | 0.544 |"), std::string::npos) << report.output;
  EXPECT_NE(report.output.find("AQAScore Table 3 (Qwen2.5-Omni-7B)"), std::string::npos) << report.output;

  // A new release under the same name (other bytes, another SHA-256) is read, not the file kept before.
  std::string revised = csv;
  revised.replace(revised.find(",9,0000,"), 8, ",1,0000,");  // the first listener's first rating: 9 → 1
  FileServer revised_ratings("/scores/REL.csv", revised);
  const auto again = run_aeval(fmt::format(
      "--registry {} run --task relate --model qwen2.5-omni-judge --set relate-test.url={} --set relate-test.sha256={} "
      "--set relate-test.audio_dir={} -q --output {}",
      (dir / "registry").string(), revised_ratings.url("/scores/REL.csv"), aeval::sha256_hex(revised),
      (dir / "RELATE_wave").string(), (dir / "revised").string()));
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_EQ(revised_ratings.requests(), 1);
  const std::string first = "audiocaps/test/100.wav|A dog barks while birds chirp";
  EXPECT_NE(aeval::testing::read_only_run(dir / "revised").by_id.at(first)["fields"]["human_score"],
            relate.by_id.at(first)["fields"]["human_score"]);

  // Without the audio folder, one line says where to give it.
  const auto missing = run_aeval(fmt::format("--registry {} run --task relate --model qwen2.5-omni-judge -q --output {}",
                                             (dir / "registry").string(), (dir / "none").string()));
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.output.find("--set relate-test.audio_dir=DIR"), std::string::npos) << missing.output;
}

}  // namespace
