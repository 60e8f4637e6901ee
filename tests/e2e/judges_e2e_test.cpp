// The language-model judges end to end against the local OpenAI-compatible
// test server, scripted with log-probabilities and JSON replies (malformed
// ones too): AQAScore and its correlation with ratings, the dynamic rubric
// judge on a judge benchmark, the captioning judge. Expected scores come from
// the formulas, computed here independently.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "aeval/audio_io.hpp"
#include "aeval/metrics/correlation.hpp"
#include "support/judge_replies.hpp"
#include "support/openai_test_server.hpp"
#include "support/python_references.hpp"
#include "support/asterisk.hpp"
#include "support/anyaudio_judge_stand_in.hpp"
#include "support/audiocapbench_stand_in.hpp"
#include "support/file_server.hpp"
#include "support/scoped_env.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::all_text;
using aeval::testing::first_token;
using aeval::testing::OpenAiTestServer;
using aeval::testing::point_judges_at;
using aeval::testing::sent_audio;
using aeval::testing::write_lines;
using aeval::testing::read_only_run;
using aeval::testing::ReceivedRequest;
using aeval::testing::run_aeval;
using aeval::testing::ScriptedReply;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;

const std::filesystem::path& kSounds = aeval::testing::kAsteriskSounds;

// The base64 length of a file as a judge receives it (16 kHz 16-bit WAV).
std::size_t sent_length(const std::filesystem::path& audio) {
  return (aeval::encode_wav(aeval::load_mono(audio, 16000)).size() + 2) / 3 * 4;
}

double two_way(double yes, double no) { return std::exp(yes) / (std::exp(yes) + std::exp(no)); }

// The runner starts with a thread per core; a worker waiting on a judge is
// replaced, so the judge still sees as many requests as --jobs allows.
TEST(JudgesE2E, WorkersWaitingOnAJudgeAreReplacedUpToTheConcurrency) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  OpenAiTestServer server([&](const ReceivedRequest&, int) {
    ScriptedReply reply;
    reply.delay_seconds = 0.150;
    reply.text = "Yes";
    reply.logprobs = first_token({{"Yes", -0.2}, {"No", -1.7}});
    return reply;
  });
  TempDir dir;
  point_judges_at(dir / "registry", server);
  std::vector<json> rows;
  for (int i = 0; i < 24; ++i)
    rows.push_back({{"id", std::to_string(i)}, {"audio", (kSounds / "vm-goodbye.g722").string()},
                    {"text", fmt::format("caption {}", i)}, {"human_score", i % 7}});
  write_lines(dir / "ratings.jsonl", rows);
  const auto o = run_aeval(fmt::format("--registry {} run --task judge-correlation --dataset {} --jobs 8 "
                                       "--set qwen2.5-omni-judge.max_concurrency=8 -q --no-cache --output {}",
                                       (dir / "registry").string(), (dir / "ratings.jsonl").string(),
                                       (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(read_only_run(dir / "out").summary["counts"]["succeeded"], 24);
  EXPECT_EQ(server.requests(), 24);
  EXPECT_EQ(server.most_in_flight(), 8) << "workers waiting on the judge were not replaced";
}

TEST(JudgesE2E, AqaScoreIsTheTwoWaySoftmaxAndCorrelatesWithRatings) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  // The judge's log-probabilities depend on the caption: "yes" as several variants.
  const std::map<std::string, std::pair<double, double>> logprobs = {
      {"goodbye", {-0.1, -2.5}}, {"phone", {-0.9, -0.6}}, {"rain", {-3.0, -0.05}}, {"orchestra", {-4.0, -0.02}}};
  std::mutex asked_mutex;
  json asked;  // the messages the judge got for the first caption
  OpenAiTestServer server([&](const ReceivedRequest& r, int) {
    const std::string text = all_text(r);
    if (text.find("goodbye") != std::string::npos) {
      const std::lock_guard lock(asked_mutex);
      asked = r.body["messages"];
    }
    ScriptedReply reply;
    for (const auto& [word, lp] : logprobs)
      if (text.find(word) != std::string::npos) {
        reply.text = lp.first > lp.second ? "Yes" : "No";
        reply.logprobs = first_token({{" yes", lp.first - 0.7}, {"Yes", lp.first}, {"NO", lp.second - 1}, {"No", lp.second}});
      }
    if (text.find("silence") != std::string::npos) reply.text = "Maybe", reply.logprobs = first_token({{"Maybe", -0.1}});
    return reply;
  });
  TempDir dir;
  point_judges_at(dir / "registry", server);
  const auto audio = (kSounds / "vm-goodbye.g722").string();
  write_lines(dir / "ratings.jsonl", {{{"id", "1"}, {"audio", audio}, {"text", "a woman says goodbye"}, {"human_score", 9}},
                                      {{"id", "2"}, {"audio", audio}, {"text", "a phone call"}, {"human_score", 6}},
                                      {{"id", "3"}, {"audio", audio}, {"text", "rain on a roof"}, {"human_score", 2}},
                                      {{"id", "4"}, {"audio", audio}, {"text", "an orchestra"}, {"human_score", 0}},
                                      {{"id", "5"}, {"audio", audio}, {"text", "silence"}, {"human_score", 3}}});
  const auto o = run_aeval(fmt::format("--registry {} run --task judge-correlation --dataset {} -q --output {}",
                                       (dir / "registry").string(), (dir / "ratings.jsonl").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = read_only_run(dir / "out");
  std::vector<double> system, human;
  for (const auto& [id, word, rating] : std::vector<std::tuple<std::string, std::string, double>>{
           {"1", "goodbye", 9}, {"2", "phone", 6}, {"3", "rain", 2}, {"4", "orchestra", 0}}) {
    const auto [yes, no] = logprobs.at(word);
    const double expected = two_way(yes, no);  // the largest variant of each word
    EXPECT_NEAR(run.by_id.at(id)["scores"]["aqascore"]["value"].get<double>(), expected, 1e-12) << id;
    system.push_back(expected);
    human.push_back(rating);
  }
  // AQAScore's prompt as its paper prints it: Table 7's system prompt, section 3's question.
  ASSERT_EQ(asked.size(), 2u) << asked.dump();
  EXPECT_EQ(asked[0]["role"], "system");
  EXPECT_EQ(asked[0]["content"][0]["text"],
            "Your role is to listen attentively to the given audio and decide whether the provided text accurately and "
            "completely describes what is heard.\nMake your judgment strictly based on the sounds in the audio – do not "
            "guess, imagine, or add information that is not clearly audible.\nIf something is missing, unclear, or "
            "uncertain, do not assume it exists.\nYour task: given an audio clip and a text description, carefully "
            "compare the text with what you actually hear.\nIdentify the main sound events (such as speech, background "
            "noise, music, or environmental sounds) and decide whether the text correctly reflects them.\nAlways respond "
            "objectively and concisely, using “yes” or “no” to indicate whether the text matches the audio content.");
  EXPECT_NE(asked[1].dump().find("\"Does this audio contain the sound events described by the text: a woman says "
                                 "goodbye? Please answer yes or no.\""),
            std::string::npos)
      << asked[1].dump();

  // Neither yes nor no among the candidates: that sample fails, it is not scored 0.5.
  EXPECT_NE(run.by_id.at("5")["error"]["message"].get<std::string>().find("neither yes nor no"), std::string::npos);
  const json& m = run.summary["metrics"];
  EXPECT_NEAR(m["aqascore-pearson"]["value"].get<double>(), aeval::metrics::pearson(system, human).statistic, 1e-12);
  EXPECT_NEAR(m["aqascore-spearman"]["value"].get<double>(), aeval::metrics::spearman(system, human).statistic, 1e-12);
  EXPECT_NEAR(m["aqascore-kendall"]["value"].get<double>(), aeval::metrics::kendall(system, human).statistic, 1e-12);
  EXPECT_EQ(m["aqascore-pearson"]["n"], 4);
  const json& interval = run.summary["aggregations"]["bootstrap-95"]["aqascore-spearman"]["interval"];
  EXPECT_LE(interval["low"].get<double>(), interval["high"].get<double>());
}

TEST(JudgesE2E, RubricJudgeDecomposesFiltersJudgesAndIsScoredOnABenchmark) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  std::atomic<int> decompositions{0}, filters{0};
  // p(yes) per rubric question, from logprobs (yes, no).
  const std::map<std::string, std::pair<double, double>> answers = {
      {"Is a woman speaking?", {-0.2, -1.8}}, {"Does she say goodbye?", {-0.4, -1.1}},
      {"Is a man shouting?", {-2.2, -0.1}},   {"Is there traffic noise?", {-0.3, -1.5}},
      {"Is there a dog?", {-2.0, -0.2}}};
  OpenAiTestServer server([&](const ReceivedRequest& r, int) {
    const std::string model = r.body["model"], text = all_text(r);
    ScriptedReply reply;
    if (model == "qwen3-decomposer" && text.find("Split a") != std::string::npos) {
      ++decompositions;
      if (text.find("goodbye") != std::string::npos)  // fenced, with a trailing comma
        reply.text = "Here you go:\n```json\n{\"items\": [{\"dimension\": \"speaker\", \"question\": \"Is a woman speaking?\", "
                     "\"basis\": \"A woman\"}, {\"dimension\": \"content\", \"question\": \"Does she say goodbye?\", \"basis\": "
                     "\"says goodbye\"}, {\"dimension\": \"setting\", \"question\": \"Is it in a station?\", \"basis\": \"\"},]}\n```";
      else if (text.find("shouts") != std::string::npos)
        reply.text = R"({"items": [{"dimension": "speaker", "question": "Is a man shouting?", "basis": "a man shouts"},)"
                     R"( {"dimension": "environment", "question": "Is there traffic noise?", "basis": "traffic"}]})";
      else
        reply.text = R"({"items": []})";  // nothing: the holistic item takes over
    } else if (model == "qwen3-decomposer") {
      ++filters;  // the station item is not in the caption
      reply.text = text.find("station") != std::string::npos
                       ? R"({"results": [{"id": 0, "judgment": "keep"}, {"id": 1, "judgment": "Keep"}, {"id": 2, "judgment": "remove"}]})"
                       : R"({"results": []})";
    } else {
      reply.text = "no";
      reply.logprobs = first_token({{"no", -5}});
      for (const auto& [question, lp] : answers)
        if (text.find(question) != std::string::npos) reply.logprobs = first_token({{"yes", lp.first}, {"no", lp.second}});
      if (text.find("A dog barks") != std::string::npos)  // the holistic question is the caption itself
        reply.logprobs = first_token({{"Yes", -2.0}, {"No", -0.2}});
    }
    return reply;
  });
  TempDir dir;
  setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);  // a cache of this test's own: counts start at zero
  point_judges_at(dir / "registry", server);
  const aeval::testing::AnyAudioJudgeStandIn anyaudio_prompts(dir / "registry");  // the stages' prompts, from a release
  // The all-items-yes rule beside the threshold rule.
  std::filesystem::create_directories(dir / "registry" / "evaluators");
  std::filesystem::create_directories(dir / "registry" / "tasks");
  write_bytes(dir / "registry" / "evaluators" / "e.yaml",
              "all-yes:\n  class: judge_accuracy\n  args: {score_of: rubric-judge, rule: all_items_yes}\n");
  write_bytes(dir / "registry" / "tasks" / "t.yaml",
              "judge-bench:\n  class: task\n  args:\n    dataset: judge-bench-example\n    model: no-model\n"
              "    evaluators: [rubric-judge, rubric-accuracy, all-yes]\n    aggregators: [by-subset-and-language]\n");
  const auto goodbye = (kSounds / "vm-goodbye.g722").string(), thanks = (kSounds / "auth-thankyou.g722").string();
  write_lines(dir / "bench.jsonl",
              {{{"id", "p"}, {"audio", goodbye}, {"text", "A woman says goodbye"}, {"label", "yes"}, {"subset", "speech"}, {"language", "en"}},
               {{"id", "n"}, {"audio", goodbye}, {"text", "A man shouts over traffic"}, {"label", "no"}, {"subset", "speech"}, {"language", "en"}},
               {{"id", "h"}, {"audio", thanks}, {"text", "A dog barks"}, {"label", "no"}, {"subset", "sound"}, {"language", "en"}}});
  const auto run_bench = [&](const std::string& out, const std::string& extra) {
    const auto o = run_aeval(fmt::format("--registry {} run --task judge-bench --dataset {} {} -q --output {}",
                                         (dir / "registry").string(), (dir / "bench.jsonl").string(), extra, (dir / out).string()));
    EXPECT_EQ(o.status, 0) << o.output;
    return read_only_run(dir / out);
  };
  const auto run = run_bench("out", "");
  const json& p = run.by_id.at("p")["scores"]["rubric-judge"];
  // Station item filtered out; the mean of the two kept items' two-way softmax.
  EXPECT_NEAR(p["value"].get<double>(), (two_way(-0.2, -1.8) + two_way(-0.4, -1.1)) / 2, 1e-12);
  EXPECT_EQ(p["proposed_items"], 3);
  EXPECT_EQ(p["items"].size(), 2u);
  EXPECT_EQ(p["items"][1]["question"], "Does she say goodbye?");
  const json& n = run.by_id.at("n")["scores"]["rubric-judge"];
  EXPECT_NEAR(n["value"].get<double>(), (two_way(-2.2, -0.1) + two_way(-0.3, -1.5)) / 2, 1e-12);
  const json& h = run.by_id.at("h")["scores"]["rubric-judge"];
  EXPECT_EQ(h["holistic_fallback"], true);
  EXPECT_EQ(h["items"][0]["question"], "A dog barks");
  EXPECT_NEAR(h["value"].get<double>(), two_way(-2.0, -0.2), 1e-12);
  // Decisions at 0.5: p is yes (correct), n is no (correct), h is no (correct).
  const json& accuracy = run.summary["metrics"]["rubric-accuracy"];
  EXPECT_EQ(accuracy["value"], 1.0);
  // All items yes: p's two items are both above 0.5 (yes); n has one yes and one no (no).
  EXPECT_EQ(run.by_id.at("p")["scores"]["all-yes"]["decision"], "yes");
  EXPECT_EQ(run.by_id.at("n")["scores"]["all-yes"]["decision"], "no");
  EXPECT_EQ(run.by_id.at("h")["scores"]["all-yes"]["decision"], "no");
  const json& groups = run.summary["aggregations"]["by-subset-and-language"]["rubric-accuracy"]["groups"];
  EXPECT_EQ(groups["subset"]["speech"]["samples"], 2);
  EXPECT_EQ(groups["language"]["en"]["samples"], 3);
  EXPECT_EQ(decompositions.load(), 3);
  EXPECT_EQ(filters.load(), 2);

  // The rubric is computed once per caption and decomposer: judging again (another model) reuses it.
  write_bytes(dir / "registry" / "models" / "other.yaml", "another-model:\n  class: dataset_only\n");
  run_bench("again", "--model another-model");
  EXPECT_EQ(decompositions.load(), 3);
  EXPECT_EQ(filters.load(), 2);
}

TEST(JudgesE2E, GenerateModeParsesLooseJsonAndFailsOnGarbage) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  OpenAiTestServer server([&](const ReceivedRequest& r, int) {
    const std::string model = r.body["model"], text = all_text(r);
    ScriptedReply reply;
    // The judge hears no caption in generate mode, only the items: each caption gets its own.
    const std::string q = text.find("good caption") != std::string::npos ? "Q" : "Z";
    if (model == "qwen3-decomposer" && text.find("Split a") != std::string::npos)
      reply.text = fmt::format(R"({{"items": [{{"dimension": "a", "question": "{0} one?", "basis": "x"}}, )"
                               R"({{"dimension": "b", "question": "{0} two?", "basis": "y"}}, )"
                               R"({{"dimension": "c", "question": "{0} three?", "basis": "z"}}]}})", q);
    else if (model == "qwen3-decomposer")
      reply.text = R"({"results": [{"id": 0, "judgment": "keep"}, {"id": 1, "judgment": "keep"}, {"id": 2, "judgment": "keep"}]})";
    else if (text.find("Q one?") != std::string::npos)  // fenced, trailing comma, one answer unusable
      reply.text = "```json\n[{\"id\": 0, \"answer\": \"Yes\", \"evidence\": \"a voice\"}, {\"id\": 1, \"answer\": \"no\", "
                   "\"evidence\": \"none\"}, {\"id\": 2, \"answer\": \"perhaps\"},]\n```";
    else
      reply.text = "I would rather not say.";
    return reply;
  });
  TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  point_judges_at(dir / "registry", server);
  const aeval::testing::AnyAudioJudgeStandIn anyaudio_prompts(dir / "registry");
  std::filesystem::create_directories(dir / "registry" / "evaluators");
  write_bytes(dir / "registry" / "evaluators" / "g.yaml",
              "rubric-judge:\n  class: rubric_judge\n  args: {decomposer: qwen3-decomposer, judge: qwen2.5-omni-judge, mode: generate}\n");
  const auto goodbye = (kSounds / "vm-goodbye.g722").string();
  write_lines(dir / "bench.jsonl", {{{"id", "g"}, {"audio", goodbye}, {"text", "good caption"}, {"label", "yes"}, {"subset", "s"}, {"language", "en"}},
                                    {{"id", "b"}, {"audio", goodbye}, {"text", "bad caption"}, {"label", "no"}, {"subset", "s"}, {"language", "en"}}});
  const auto o = run_aeval(fmt::format("--registry {} run --task judge-bench --dataset {} -q --output {}",
                                       (dir / "registry").string(), (dir / "bench.jsonl").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = read_only_run(dir / "out");
  const json& g = run.by_id.at("g")["scores"]["rubric-judge"];
  EXPECT_EQ(g["value"], 0.5) << "one yes of two usable answers";
  EXPECT_EQ(g["items"][0]["evidence"], "a voice");
  EXPECT_FALSE(g["items"][2].contains("answer"));
  EXPECT_NE(run.by_id.at("b")["error"]["message"].get<std::string>().find("answered none of the 3 rubric items"),
            std::string::npos);
}

TEST(JudgesE2E, CaptionJudgeClampsRetriesOnceAndReportsNextToTextMetrics) {
  std::map<std::string, int> asked;
  std::mutex mutex;
  OpenAiTestServer server([&](const ReceivedRequest& r, int) {
    const std::string text = all_text(r);
    ScriptedReply reply;
    int n = 0;
    for (const char* caption : {"woman says thank you", "woman says goodbye", "dog barks"})
      if (text.find(std::string("The caption:\n  \"a ") + caption) != std::string::npos) {
        std::lock_guard lock(mutex);
        n = ++asked[caption];
        if (std::string(caption) == "woman says thank you")
          reply.text = "```json\n{\"accuracy\": 8, \"completeness\": 7, \"hallucination\": 12, \"reasoning\": \"fine\"}\n```";
        else if (std::string(caption) == "woman says goodbye")
          reply.text = n == 1 ? "Scores: good" : R"({"accuracy": 9, "completeness": 9, "hallucination": 10, "reasoning": "ok"})";
        else
          reply.text = "cannot grade";
      }
    return reply;
  });
  TempDir dir;
  point_judges_at(dir / "registry", server);
  // The judge prompt is read from AudioCapBench's release: a stand-in of its metrics.py, served here.
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  const aeval::testing::FileServer release("/acb/audiocapbench/metrics.py", aeval::testing::kAudioCapBenchMetricsStandIn);
  std::filesystem::create_directories(dir / "registry" / "prompts");
  write_bytes(dir / "registry" / "prompts" / "caption-judge.yaml",
              aeval::testing::audiocapbench_judge_prompt_entry("caption-judge", release.url("/acb")));
  write_lines(dir / "caps.jsonl",
              {{{"id", "1"}, {"captions", {"a woman says thank you", "a female voice thanks"}}, {"category", "speech"}, {"transcript", "thank you"}},
               {{"id", "2"}, {"captions", {"a woman says goodbye"}}, {"category", "speech"}},
               {{"id", "3"}, {"captions", {"a cat meows"}}, {"category", "sound"}}});
  write_lines(dir / "preds.jsonl", {{{"id", "1"}, {"prediction", "a woman says thank you"}},
                                    {{"id", "2"}, {"prediction", "a woman says goodbye"}},
                                    {{"id", "3"}, {"prediction", "a dog barks"}}});
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "models" / "preds.yaml",
              fmt::format("my-captioner:\n  class: predictions_file\n  args:\n    path: {}\n", (dir / "preds.jsonl").string()));
  const auto o = run_aeval(fmt::format("--registry {} run --task captioning-judged --dataset {} --model my-captioner -q --output {}",
                                       (dir / "registry").string(), (dir / "caps.jsonl").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = read_only_run(dir / "out");
  const json& one = run.by_id.at("1")["scores"]["caption-judge"];
  EXPECT_EQ(one["hallucination"], 10) << "clamped to 0-10";
  EXPECT_EQ(one["value"], std::round((8 + 7 + 10) / 3.0 * 100) / 100);
  EXPECT_EQ(one["attempts"], 1);
  const json& two = run.by_id.at("2")["scores"]["caption-judge"];
  EXPECT_EQ(two["attempts"], 2);
  EXPECT_NEAR(two["value"].get<double>(), 9.33, 1e-12);
  EXPECT_NE(run.by_id.at("3")["error"]["message"].get<std::string>().find("gave no scores twice"), std::string::npos);
  EXPECT_EQ(asked["dog barks"], 2);
  const json& m = run.summary["metrics"];
  EXPECT_NEAR(m["caption-judge"]["value"].get<double>(), (one["value"].get<double>() + 9.33) / 2, 1e-12);
  EXPECT_NEAR(m["caption-judge"]["accuracy"].get<double>(), 8.5, 1e-12);
  for (const char* metric : {"meteor", "bleu-4-sentence-mean", "rouge-l"}) EXPECT_TRUE(m.contains(metric)) << metric;
  EXPECT_TRUE(run.summary["aggregations"]["by-category"]["caption-judge"]["groups"]["category"].contains("speech"));
  // The request the judge saw: the speech guidance with its transcript, both references.
  bool saw_transcript = false;
  for (const auto& r : server.received())
    if (all_text(r).find("They say: \"thank you\"") != std::string::npos &&
        all_text(r).find("  * a female voice thanks") != std::string::npos)
      saw_transcript = true;
  EXPECT_TRUE(saw_transcript);
}

TEST(JudgesE2E, PairwiseAndCompaModesCompareTheJudgesScores) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  const auto goodbye = (kSounds / "vm-goodbye.g722").string(), thanks = (kSounds / "auth-thankyou.g722").string();
  // The judge tells the files apart by their length: goodbye and thank-you differ.
  const std::size_t goodbye_length = sent_length(goodbye);
  ASSERT_NE(goodbye_length, sent_length(thanks));
  OpenAiTestServer server([&](const ReceivedRequest& r, int) {
    const std::string text = all_text(r);
    std::size_t bytes = 0;
    for (const auto& part : r.body["messages"].back()["content"])  // the user's turn, after AQAScore's system prompt
      if (part.value("type", "") == "input_audio") bytes = part["input_audio"]["data"].get<std::string>().size();
    const bool is_goodbye = bytes == goodbye_length;
    ScriptedReply reply;
    double yes = -2.0;
    if (text.find("better describe") != std::string::npos)  // one question about two captions: is the first better?
      yes = (text.find("goodbye better describe") != std::string::npos) == is_goodbye ? -0.2 : -1.5;
    else if ((text.find("goodbye") != std::string::npos) == is_goodbye)
      yes = -0.3;  // caption and audio agree
    reply.logprobs = first_token({{"yes", yes}, {"no", -1.0}});
    return reply;
  });
  TempDir dir;
  point_judges_at(dir / "registry", server);
  write_lines(dir / "pairs.jsonl",
              {{{"id", "aud"}, {"audio_a", goodbye}, {"audio_b", thanks}, {"text", "someone says goodbye"}, {"preferred", "a"}},
               {{"id", "aud2"}, {"audio_a", goodbye}, {"audio_b", thanks}, {"text", "someone says thanks"}, {"preferred", "a"}}});
  const auto pairs = run_aeval(fmt::format("--registry {} run --dataset {} --model no-model --evaluator aqascore-pair-audio -q --output {}",
                                           (dir / "registry").string(), (dir / "pairs.jsonl").string(), (dir / "p").string()));
  ASSERT_EQ(pairs.status, 0) << pairs.output;
  const auto p = read_only_run(dir / "p");
  EXPECT_EQ(p.by_id.at("aud")["scores"]["aqascore-pair-audio"]["preferred"], "a");
  EXPECT_EQ(p.by_id.at("aud2")["scores"]["aqascore-pair-audio"]["preferred"], "b");
  EXPECT_EQ(p.summary["metrics"]["aqascore-pair-audio"]["value"], 0.5) << "preference accuracy";
  // A tie counts half, as AQAScore's printed pair accuracies count it, or what tie_credit says.
  write_lines(dir / "tied.jsonl",
              {{{"id", "tie"}, {"audio_a", goodbye}, {"audio_b", goodbye}, {"text", "someone says goodbye"}, {"preferred", "a"}}});
  for (const auto& [credit, expected] : std::vector<std::pair<std::string, double>>{{"", 0.5}, {"0", 0.0}}) {
    const auto tied = run_aeval(fmt::format("--registry {} run --dataset {} --model no-model --evaluator aqascore-pair-audio "
                                            "{} -q --output {}",
                                            (dir / "registry").string(), (dir / "tied.jsonl").string(),
                                            credit.empty() ? "" : "--set aqascore-pair-audio.tie_credit=" + credit,
                                            (dir / ("tied" + credit)).string()));
    ASSERT_EQ(tied.status, 0) << tied.output;
    const auto t = read_only_run(dir / ("tied" + credit));
    EXPECT_EQ(t.by_id.at("tie")["scores"]["aqascore-pair-audio"]["preferred"], "tie");
    EXPECT_EQ(t.summary["metrics"]["aqascore-pair-audio"]["value"], expected) << "tie_credit " << credit;
  }

  write_lines(dir / "texts.jsonl",
              {{{"id", "t1"}, {"audio", goodbye}, {"text_a", "a voice says goodbye"}, {"text_b", "a voice says thanks"}, {"preferred", "a"}},
               {{"id", "t2"}, {"audio", thanks}, {"text_a", "a voice says goodbye"}, {"text_b", "a voice says thanks"}, {"preferred", "b"}}});
  const auto texts = run_aeval(fmt::format("--registry {} run --dataset {} --model no-model --evaluator aqascore-pair-text -q --output {}",
                                           (dir / "registry").string(), (dir / "texts.jsonl").string(), (dir / "t").string()));
  ASSERT_EQ(texts.status, 0) << texts.output;
  const auto t = read_only_run(dir / "t");
  EXPECT_NEAR(t.by_id.at("t1")["scores"]["aqascore-pair-text"]["p_yes"].get<double>(), two_way(-0.2, -1.0), 1e-12);
  EXPECT_EQ(t.summary["metrics"]["aqascore-pair-text"]["value"], 1.0);

  write_lines(dir / "compa.jsonl", {{{"id", "c"}, {"audio_a", goodbye}, {"audio_b", thanks}, {"text_a", "a woman says goodbye"},
                                     {"text_b", "a woman says thanks"}}});
  const auto compa = run_aeval(fmt::format("--registry {} run --dataset {} --model no-model --evaluator aqascore-compa -q --output {}",
                                           (dir / "registry").string(), (dir / "compa.jsonl").string(), (dir / "c").string()));
  ASSERT_EQ(compa.status, 0) << compa.output;
  const auto c = read_only_run(dir / "c");
  const json& m = c.summary["metrics"]["aqascore-compa"];
  EXPECT_EQ(m["text_score"], 1.0);
  EXPECT_EQ(m["audio_score"], 1.0);
  EXPECT_EQ(m["group_score"], 1.0);
}

// The judge judged against people, per clip and in pairs: correlations, RELATE-Pair's pairs
// (one text, human scores more than 2 apart), Baton-Pair's (preferred against rejected) and
// ROC-AUC on Baton's binary feedback, each against SciPy and scikit-learn given the judge's
// per-clip scores (tests/differential/reference_tools.py builds the pairs on its own).
TEST(JudgesE2E, PairsFeedbackAndCorrelationsAgreeWithScipyAndSklearn) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  AEVAL_REQUIRE(aeval::testing::python_references_available(), "python3-scipy and python3-sklearn");
  // p(yes) follows from what the judge hears and reads: equal requests, equal scores (a tie).
  OpenAiTestServer server([&](const ReceivedRequest& r, int) {
    const std::string heard = all_text(r) + sent_audio(r);
    ScriptedReply reply;
    reply.logprobs = first_token({{"yes", -double(std::hash<std::string>{}(heard) % 4000) / 1000.0}, {"no", -1.0}});
    return reply;
  });
  TempDir dir;
  point_judges_at(dir / "registry", server);
  std::filesystem::create_directories(dir / "registry" / "tasks");
  write_bytes(dir / "registry" / "tasks" / "t.yaml",
              "judged:\n  class: task\n  args:\n    dataset: judge-ratings-example\n    model: no-model\n"
              "    evaluators: [aqascore, aqascore-pearson, aqascore-spearman, aqascore-kendall, aqascore-pair-accuracy,\n"
              "                 aqascore-feedback-pair-accuracy, aqascore-roc-auc]\n");
  const std::vector<std::string> clips = {"vm-goodbye", "auth-thankyou", "vm-intro", "vm-options", "vm-message"};
  const std::vector<std::string> texts = {"a woman says goodbye", "rain on a roof", "a dog barks twice"};
  std::vector<json> rows;
  json reference_rows = json::array();
  for (std::size_t t = 0; t < texts.size(); ++t)
    for (std::size_t c = 0; c < clips.size() + 1; ++c) {
      // The sixth clip of a text repeats its first: the judge ties them, people did not.
      const std::string clip = clips[c % clips.size()];
      const double human = double((t * 7 + c * 3) % 11) * 0.9;
      rows.push_back({{"id", fmt::format("{}-{}", t, c)}, {"audio", (kSounds / (clip + ".g722")).string()},
                      {"text", texts[t]}, {"human_score", human}, {"label", human > 4 ? 1 : 0}});
    }
  write_lines(dir / "rated.jsonl", rows);
  const auto o = run_aeval(fmt::format("--registry {} run --task judged --dataset {} -q --no-cache --output {}",
                                       (dir / "registry").string(), (dir / "rated.jsonl").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = read_only_run(dir / "out");
  for (const auto& row : rows)
    reference_rows.push_back({{"system", run.by_id.at(row["id"])["scores"]["aqascore"]["value"]}, {"human", row["human_score"]},
                              {"group", row["text"]}, {"label", row["label"]}});
  // RELATE-Pair's rule on the ratings, Baton-Pair's on the feedback.
  json feedback_rows = reference_rows;
  for (auto& r : feedback_rows) r["human"] = r["label"];
  const json reference = aeval::testing::python_references(
      "meta_evaluation",
      json::array({{{"rows", reference_rows}, {"min_difference", 2}, {"tie_credit", 0.5}},
                   {{"rows", feedback_rows}, {"min_difference", 0}, {"tie_credit", 0.5}}}));
  ASSERT_EQ(reference.size(), 2u);
  const json& m = run.summary["metrics"];
  for (const char* method : {"pearson", "spearman", "kendall"})
    EXPECT_NEAR(m[fmt::format("aqascore-{}", method)]["value"].get<double>(), reference[0][method].get<double>(), 1e-12) << method;
  EXPECT_EQ(m["aqascore-pair-accuracy"]["pairs"], reference[0]["pairs"]);
  EXPECT_GT(reference[0]["pairs"].get<int>(), 5);
  EXPECT_DOUBLE_EQ(m["aqascore-pair-accuracy"]["value"].get<double>(), reference[0]["pairwise_accuracy"].get<double>());
  EXPECT_EQ(m["aqascore-feedback-pair-accuracy"]["pairs"], reference[1]["pairs"]);
  EXPECT_DOUBLE_EQ(m["aqascore-feedback-pair-accuracy"]["value"].get<double>(), reference[1]["pairwise_accuracy"].get<double>());
  EXPECT_NEAR(m["aqascore-roc-auc"]["value"].get<double>(), reference[0]["roc_auc"].get<double>(), 1e-12);
}

}  // namespace
