// FENSE as AQAScore (seed 003, Table 5) judges on it, against local stand-ins: FENSE's annotation file in its
// published layout served over HTTP, clips in a folder, a scripted judge run as the model under test. The three
// setups (AQAScore's comparative question, the prompting setup, the cascade) each ask with the paper's prompt, and
// their accuracies by kind of pair are FENSE's own get_accuracy computed again in Python
// (tests/differential/reference_tools.py, "fense_json").
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <mutex>
#include <set>
#include <tuple>

#include "aeval/audio_io.hpp"
#include "support/file_server.hpp"
#include "support/judge_replies.hpp"
#include "support/python_references.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "util/sha256.hpp"

namespace {

using aeval::testing::ReceivedRequest;
using aeval::testing::ScriptedReply;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;

// FENSE's AudioCaps-Eval layout: clips named by raw_name or by their YouTube id alone, a kind missing or null,
// a pair with a 0 before its votes, pairs people tied on.
const char* kAnnotations = R"([
  {"HC": ["A dog barks twice", "A cat meows", "ground_t_1", "ground_t_2", [1, 1, 0, -1]],
   "HI": ["Rain falls on a roof", "A car passes by", "ground_t_3", "idx4", [-1, -1, 0, 1]],
   "HM": null,
   "MM_1": ["birds sing", "birds chirp loudly", "fc", "rl", 0, [1, -1, 0, 0]],
   "MM_2": ["wind blows", "a bell rings", "fc", "attn", [1, 1, 1, 1]],
   "audio_id": "dogclip", "raw_name": "dogclip_0.000_10.000.wav", "references": ["A dog barks twice"]},
  {"HC": ["Water runs", "A tap drips", "ground_t_5", "ground_t_6", [0, 0, 0, 0]],
   "HI": ["Water runs", "An engine idles", "ground_t_5", "idx7", [1, 1, 1, 1]],
   "HM": ["Water runs from a tap", "a man speaks", "ground_t_8", "fc", [1, 1, 1, 0]],
   "MM_1": ["a man speaks", "a woman speaks", "fcbeam", "attnbeam", 0, [-1, 0, -1, -1]],
   "audio_id": "tapclip", "references": ["Water runs"]},
  {"MM_1": ["a train horn blows", "a train passes", "rl", "fc15", [-1, -1, 1, -1]],
   "MM_2": ["a train passes", "an engine hums", "fc15", "attn", [1, 1, 1, 1]],
   "MM_3": ["an engine hums", "a horn honks", "attn", "rl", [1, -1, -1, -1]],
   "audio_id": "trainclip", "raw_name": "trainclip_30.000_40.000.wav", "references": []}
])";

// The untied pairs: id, caption 1, caption 2.
const std::vector<std::tuple<std::string, std::string, std::string>> kPairs = {
    {"dogclip_0.000_10.000.wav:HC", "A dog barks twice", "A cat meows"},
    {"dogclip_0.000_10.000.wav:HI", "Rain falls on a roof", "A car passes by"},
    {"dogclip_0.000_10.000.wav:MM_2", "wind blows", "a bell rings"},
    {"tapclip.wav:HI", "Water runs", "An engine idles"},
    {"tapclip.wav:HM", "Water runs from a tap", "a man speaks"},
    {"tapclip.wav:MM_1", "a man speaks", "a woman speaks"},
    {"trainclip_30.000_40.000.wav:MM_1", "a train horn blows", "a train passes"},
    {"trainclip_30.000_40.000.wav:MM_2", "a train passes", "an engine hums"},
    {"trainclip_30.000_40.000.wav:MM_3", "an engine hums", "a horn honks"}};

std::string between(const std::string& text, const std::string& from, const std::string& to) {
  const auto a = text.find(from);
  if (a == std::string::npos) return "";
  const auto b = text.find(to, a + from.size());
  return text.substr(a + from.size(), b == std::string::npos ? std::string::npos : b - a - from.size());
}

TEST(FenseE2E, TheThreeSetupsAskWithThePapersPromptsAndScoreEachKindOfPairAsFenseCountsIt) {
  AEVAL_REQUIRE(aeval::testing::python_references_available(), "python3-scipy and python3-sklearn");
  TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  write_bytes(dir / "audiocaps_eval.json", kAnnotations);
  const aeval::testing::FileServer release("/fense/dataset/audiocaps_eval.json", kAnnotations);
  const std::vector<std::string> clips = {"dogclip_0.000_10.000.wav", "tapclip.wav", "trainclip_30.000_40.000.wav"};
  std::filesystem::create_directories(dir / "clips");
  for (std::size_t c = 0; c < clips.size(); ++c) {
    std::vector<float> tone(8000);
    for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = 0.2f * std::sin(0.01f * float((c + 1) * i));
    aeval::write_wav(dir / "clips" / clips[c], aeval::Audio{tone, 16000, 1});
  }

  std::mutex mutex;
  std::set<std::string> asked;                                      // AQAScore's and the prompting setup's texts
  std::set<std::tuple<std::string, std::string, std::string>> read;  // the cascade: ground truth, caption 1, caption 2
  aeval::testing::OpenAiTestServer judge([&](const ReceivedRequest& r, int) {
    const std::string text = aeval::testing::all_text(r);
    const std::size_t heard = std::hash<std::string>{}(text + aeval::testing::sent_audio(r));
    ScriptedReply reply;
    const std::lock_guard lock(mutex);
    if (text.find("Evaluate which audio caption better matches the ground-truth description.") != std::string::npos) {
      read.insert({between(text, "- Ground-truth description:\n", "\n- Audio caption 1:"),
                   between(text, "- Audio caption 1:\n", "\n- Audio caption 2:"),
                   between(text, "- Audio caption 2:\n", "\nDecide which caption")});
      reply.text = fmt::format("Caption {0} names the sounds heard.\nBetter Caption: {0}", heard % 2 ? 1 : 2);
    } else if (text.find("generate a detailed caption") != std::string::npos) {
      reply.text = fmt::format("a sound heard {} times", heard % 7);
    } else if (text.find("decide which caption better matches what is heard") != std::string::npos) {
      asked.insert(text);
      reply.text = fmt::format("Better Caption: {}", heard % 2 ? 1 : 2);
    } else {
      asked.insert(text);
      reply.text = "Yes";
      reply.logprobs = aeval::testing::first_token({{"Yes", -double(heard % 3000) / 1000.0 - 0.0005}, {"No", -1.2}});
    }
    return reply;
  });
  aeval::testing::point_judges_at(dir / "registry", judge);
  const std::string sets = fmt::format(
      "--set fense-audiocaps-pairs.url={} --set fense-audiocaps-pairs.sha256={} --set fense-audiocaps-pairs.audio_dir={}",
      release.url("/fense/dataset/audiocaps_eval.json"), aeval::sha256_hex(kAnnotations), (dir / "clips").string());

  for (const auto& [task, choice] : {std::pair{"fense-audiocaps", "answer-aqascore"},
                                     {"fense-audiocaps-prompting", "caption-choice"},
                                     {"fense-audiocaps-cascade", "caption-cascade-choice"}}) {
    SCOPED_TRACE(task);
    const auto o = aeval::testing::run_aeval(fmt::format("--registry {} run --task {} --model qwen2.5-omni-judge {} -q --output {}",
                                                         (dir / "registry").string(), task, sets, (dir / "out").string()));
    ASSERT_EQ(o.status, 0) << o.output;
    const auto run = aeval::testing::read_only_run(dir / "out" / task);
    ASSERT_EQ(run.by_id.size(), kPairs.size()) << "the pairs people did not tie on, once each";
    json scores = json::object();
    for (const auto& [id, first, second] : kPairs) {
      const json& record = run.by_id.at(id);
      EXPECT_EQ(record["fields"]["text_a"], first) << id;
      EXPECT_EQ(record["fields"]["text_b"], second) << id;
      EXPECT_EQ(std::filesystem::path(record["audio"].get<std::string>()).filename(), id.substr(0, id.find(':'))) << id;
      scores[id] = record["scores"][choice]["value"];
      if (std::string(task) == "fense-audiocaps-cascade") {
        const std::tuple<std::string, std::string, std::string> seen{record["prediction"].get<std::string>(), first, second};
        EXPECT_EQ(read.count(seen), 1u) << id << ": the text LLM read the judge's caption of the clip, then the pair";
      }
    }
    const json expected =
        aeval::testing::python_references("fense_json", json::array({{{"json", (dir / "audiocaps_eval.json").string()},
                                                                      {"scores", scores}}}))
            .at(0);
    ASSERT_EQ(expected["pairs"], kPairs.size());
    const std::string prefix = std::string(task) == "fense-audiocaps" ? "fense-accuracy"
                               : std::string(task) == "fense-audiocaps-prompting" ? "fense-prompting-accuracy"
                                                                                   : "fense-cascade-accuracy";
    const json& m = run.summary["metrics"];
    EXPECT_DOUBLE_EQ(m[prefix]["value"].get<double>(), expected["All"].get<double>());
    for (const char* kind : {"HC", "HI", "HM", "MM"}) {
      std::string lower = kind;
      for (auto& ch : lower) ch = char(std::tolower(ch));
      EXPECT_DOUBLE_EQ(m[prefix + "-" + lower]["value"].get<double>(), expected[kind].get<double>()) << kind;
    }
  }

  // The paper's prompts with the pair's captions in their places: AQAScore's question after its system prompt
  // (Table 7), the prompting setup's Table 12.
  const std::string question =
      "Does the caption A dog barks twice better describe the audible sound events in the audio than A cat meows? "
      "Please answer yes or no.";
  const std::string prompting = "You are given two independently written captions for the same audio clip.\n"
                                "- Caption 1:\nRain falls on a roof\n- Caption 2:\nA car passes by\n"
                                "Listen to the audio and decide which caption better matches what is heard.";
  bool question_asked = false, prompting_asked = false;
  for (const auto& text : asked) {
    question_asked = question_asked || text.find(question) != std::string::npos;
    prompting_asked = prompting_asked || (text.find(prompting) != std::string::npos &&
                                          text.find("You are an unbiased and careful audio-caption matching judge.") !=
                                              std::string::npos);
  }
  EXPECT_TRUE(question_asked);
  EXPECT_TRUE(prompting_asked);
  EXPECT_EQ(read.size(), kPairs.size()) << "one comparison a pair";
}

}  // namespace
