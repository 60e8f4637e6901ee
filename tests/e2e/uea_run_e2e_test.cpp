// `aeval uea run` on UltraEval-Audio's own registry (../shared/uea), unchanged: a local Hub
// serves rows in the column layouts UEA's dataset entries read, a local OpenAI-compatible
// server answers, and each run must send UEA's prompt, apply UEA's post-process chain and
// score with UEA's evaluator and aggregation. Plumbing with answers whose scores follow from
// UEA's definitions: one answer right, one wrong, per benchmark.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <functional>

#include <cmath>
#include <fstream>
#include <set>

#include "aeval/audio_io.hpp"
#include "datasets/table_reader.hpp"
#include "models/espeak_tts.hpp"
#include "models/pocketsphinx_asr.hpp"
#include "support/hub_test_server.hpp"
#include "support/openai_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/reference.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::testing::run_aeval;
using nlohmann::json;

// The text parts of the first request's user message, and which of the two clips it carried.
std::string text_of(const aeval::testing::ReceivedRequest& r) {
  std::string text;
  for (const auto& part : r.body["messages"].back()["content"])
    if (part["type"] == "text") text += part["text"].get<std::string>();
  return text;
}
bool long_clip(const aeval::testing::ReceivedRequest& r) {
  for (const auto& part : r.body["messages"].back()["content"])
    if (part["type"] == "input_audio") return part["input_audio"]["data"].get<std::string>().size() > 30000;
  return false;
}

struct UeaRunFixture {
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  aeval::testing::ScopedEnv offline{"HF_HUB_OFFLINE", nullptr};
  std::map<std::string, aeval::testing::HubTestRepo> repos;

  UeaRunFixture() {
    // Two clips that differ in length, so the model server can tell them apart.
    for (const auto& [name, seconds] : {std::pair{"short", 0.5}, std::pair{"long", 1.5}}) {
      aeval::Audio a{{}, 16000, 1};
      for (int i = 0; i < int(16000 * seconds); ++i) a.samples.push_back(0.3f * float(std::sin(i * 0.1)));
      aeval::write_wav(dir / (std::string(name) + ".wav"), a);
    }
  }

  // A split of `repo` whose rows are `columns_sql` (one SELECT per row, UNION ALL'd, with n = 0, 1).
  void serve(const std::string& repo, const std::string& split, const std::string& rows_sql,
             const std::map<std::string, std::string>& metadata = {}, const json& configs = nullptr) {
    const auto literal = aeval::datasets::TableReader::literal;
    const fs::path file = dir / (std::to_string(repos.size()) + ".parquet");
    aeval::testing::write_parquet(
        fmt::format("SELECT r.* EXCLUDE (n), {{'bytes': b.content, 'path': 'clip.wav'}} AS audio FROM ({}) r "
                    "JOIN read_blob({}) b ON b.filename = CASE WHEN r.n = 0 THEN {} ELSE {} END ORDER BY r.n",
                    rows_sql, literal((dir / "*.wav").string()), literal((dir / "short.wav").string()),
                    literal((dir / "long.wav").string())),
        file, 122880, metadata);
    aeval::testing::HubTestRepo r;
    r.main = {aeval::testing::test_commit(repo), {{"data/" + split + "-00000-of-00001.parquet", file}}};
    r.configs = configs;
    repos[repo] = r;
  }

  // Runs one UEA benchmark against a server answering `short_answer` / `long_answer`.
  fs::path last_output;

  std::pair<json, std::vector<aeval::testing::ReceivedRequest>> run(const std::string& dataset, const std::string& short_answer,
                                                                    const std::string& long_answer,
                                                                    const std::string& extra = "") {
    aeval::testing::HubTestServer hub(repos);
    aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
    aeval::testing::OpenAiTestServer server([&](const aeval::testing::ReceivedRequest& r, int) {
      aeval::testing::ScriptedReply reply;
      reply.text = long_clip(r) ? long_answer : short_answer;
      return reply;
    });
    fs::create_directories(dir / "registry" / "models");
    std::ofstream(dir / "registry" / "models" / "m.yaml")
        << "test-model:\n  class: openai_chat\n  args:\n    base_url: " << server.base_url() << "\n    model: m\n";
    const fs::path output = last_output = dir / ("out-" + dataset);
    const auto out = run_aeval(fmt::format("--registry {} uea run --dataset {} --model test-model --uea-dir {} --quiet "
                                           "--output {} {}",
                                           (dir / "registry").string(), dataset, aeval::testing::shared_uea_dir().string(), output.string(),
                                           extra));
    EXPECT_EQ(0, out.status) << out.output;
    return {aeval::testing::read_only_run(output).summary, server.received()};
  }
};

// What UEA's aggregation `agg` gave for `evaluator`, under UEA's own keys.
json uea_keys(const json& summary, const std::string& agg, const std::string& evaluator) {
  return summary.at("aggregations").at(agg).at(evaluator).at("uea");
}


// UEA's GPT judges (gpt4o-mini) at a local server, as OpenAI's client finds it ($OPENAI_BASE_URL).
struct Judge {
  aeval::testing::OpenAiTestServer server;
  aeval::testing::ScopedEnv url, key;
  explicit Judge(std::function<std::string(const std::string& text)> reply)
      : server([reply](const aeval::testing::ReceivedRequest& r, int) {
          aeval::testing::ScriptedReply s;
          s.text = reply(text_of(r));
          return s;
        }),
        url("OPENAI_BASE_URL", server.base_url().c_str()),
        key("OPENAI_API_KEY", "sk-test") {}
  // The request whose text holds `answer`.
  aeval::testing::ReceivedRequest about(const std::string& answer) const {
    for (const auto& r : server.received())
      if (text_of(r).find(answer) != std::string::npos) return r;
    ADD_FAILURE() << "the judge was never asked about " << answer;
    return {};
  }
};

// What UltraEval-Audio's own Python prints (run from ../shared/uea with Debian's python3).
std::string uea_python(const std::string& code) {
  const auto out = aeval::testing::run_shell("cd " + aeval::testing::shared_uea_dir().string() +
                                             " && /usr/bin/python3 -c \"" + code + "\"");
  EXPECT_EQ(0, out.status) << out.output;
  return out.output;
}

// CatDog: catdog_identify = prompt catdog_identify, evaluator prefix-match, agg acc.
TEST(UeaRun, CatDogIsPrefixMatchedAndCountedAsUeaDoes) {
  AEVAL_REQUIRE_SHARED_UEA();
  UeaRunFixture f;
  f.serve("TwinkStart/CatDog", "test", "SELECT 0 AS n, 'cat' AS label UNION ALL SELECT 1, 'dog'");
  const auto [summary, requests] = f.run("catdog", "Cat.", "It is a cat");
  ASSERT_EQ(2u, requests.size());
  EXPECT_EQ("Listen to the audio and determine if it's a dog or a cat. The answer must be one of the following: "
            "[dog, cat]. Provide the answer without explanation.",
            text_of(requests[0]));
  EXPECT_EQ(50.0, uea_keys(summary, "acc", "prefix-match").at("acc(%)").get<double>()) << summary.dump(1);  // "cat." starts with "cat"; "it is a cat" not with "dog"
  // The task's metric is UEA's aggregation, not a mean of aeval's making.
  EXPECT_EQ(50.0, summary.at("metrics").at("prefix-match").at("value").get<double>());
  EXPECT_EQ("acc", summary.at("metrics").at("prefix-match").at("aggregation"));
}

// LibriSpeech: asr = prompt asr ({"content": ""} format), post-process json_content, evaluator wer, agg wer.
TEST(UeaRun, LibriSpeechTakesTheContentAndScoresPracticeWer) {
  AEVAL_REQUIRE_SHARED_UEA();
  UeaRunFixture f;
  f.serve("TwinkStart/librispeech", "test_clean",
          "SELECT 0 AS n, 'HELLO WORLD' AS text UNION ALL SELECT 1, 'GOOD MORNING'");
  const auto [summary, requests] =
      f.run("librispeech-test-clean", "```json\n{\"content\": \"Hello, world!\"}\n```", "{'content': 'good evening'}");
  ASSERT_EQ(2u, requests.size());
  EXPECT_EQ("listen the audio, output the audio content with format {\"content\": \"\"}", text_of(requests[0]));
  // One substitution (evening for morning) in four reference words, after Whisper's normalizer.
  EXPECT_DOUBLE_EQ(25.0, uea_keys(summary, "wer", "wer").at("wer(%)").get<double>()) << summary.dump(1);
  EXPECT_DOUBLE_EQ(25.0, summary.at("metrics").at("wer").at("value").get<double>());
}

// CoVoST 2 en->de: sst2de = prompt sst2de, json_content, evaluator bleu, agg bleu (corpus BLEU, 13a).
TEST(UeaRun, CovostEnDeScoresCorpusBleu) {
  AEVAL_REQUIRE_SHARED_UEA();
  UeaRunFixture f;
  f.serve("TwinkStart/covost2", "en_de",
          "SELECT 0 AS n, 'Das ist ein kleines Haus am See.' AS text UNION ALL SELECT 1, 'Guten Morgen, mein Freund.'");
  const auto [summary, requests] = f.run("covost2-en-de", "{\"content\": \"Das ist ein kleines Haus am See.\"}",
                                         "{\"content\": \"Guten Morgen, mein Freund.\"}");
  ASSERT_EQ(2u, requests.size());
  EXPECT_EQ("translate this audio to German, output the content with format {\"content\": \"\"}", text_of(requests[0]));
  EXPECT_DOUBLE_EQ(100.0, uea_keys(summary, "bleu", "bleu").at("bleu").get<double>()) << summary.dump(1);
}

// MMAU test-mini: mmau = prompt single_choice_with_answer (the choices as Python prints a list),
// evaluator choice-strings-match, agg mean (match(%)).
TEST(UeaRun, MmauRendersChoicesAsPythonAndAveragesMatches) {
  AEVAL_REQUIRE_SHARED_UEA();
  UeaRunFixture f;
  f.serve("TwinkStart/MMAU", "v05.15.25",
          "SELECT 0 AS n, 'What is heard?' AS question, ['a dog', 'a cat''s meow'] AS choices, 'a dog' AS answer "
          "UNION ALL SELECT 1, 'Which sound?', ['rain', 'wind'], 'wind'");
  const auto [summary, requests] = f.run("mmau-test-mini", "It is a dog.", "rain");
  ASSERT_EQ(2u, requests.size());
  std::vector<std::string> texts{text_of(requests[0]), text_of(requests[1])};
  std::sort(texts.begin(), texts.end());
  EXPECT_EQ("What is heard?  Select one option from the provided choices.\n['a dog', \"a cat's meow\"]", texts[0]);
  EXPECT_EQ(50.0, uea_keys(summary, "mean", "choice-strings-match").at("match(%)").get<double>()) << summary.dump(1);
}

// GTZAN: a class-label column is read as `datasets` rows give it to UEA, the stored integer, so
// UEA's prefix-match compares the answer with "1", not with the genre's name.
TEST(UeaRun, ClassLabelsAreTheStoredIntegersAsUeaSeesThem) {
  AEVAL_REQUIRE_SHARED_UEA();
  UeaRunFixture f;
  const json features{{"label", {{"_type", "ClassLabel"}, {"names", {"blues", "rock"}}}}};
  f.serve("TwinkStart/GTZAN", "test", "SELECT 0 AS n, 1::BIGINT AS label UNION ALL SELECT 1, 0::BIGINT",
          {{"huggingface", json{{"info", {{"features", features}}}}.dump()}});
  const auto [summary, requests] = f.run("GTZAN", "1", "rock");
  ASSERT_EQ(2u, requests.size());
  EXPECT_EQ(50.0, uea_keys(summary, "acc", "prefix-match").at("acc(%)").get<double>()) << summary.dump(1);
  const auto run = aeval::testing::read_only_run(f.last_output);
  std::set<std::string> refs;
  for (const auto& [id, record] : run.by_id) refs.insert(record["scores"]["prefix-match"]["uea"]["ref"].get<std::string>());
  EXPECT_EQ((std::set<std::string>{"0", "1"}), refs);
}

// GigaSpeech: UEA's GigaSpeechDataset cleans each reference (uppercase, hyphens to spaces,
// fillers and tags out) and drops rows left empty; its entry names no split, so every split of
// the config is read, in the order the README declares them.
TEST(UeaRun, GigaSpeechReferencesAreCleanedAndEmptyRowsDropped) {
  AEVAL_REQUIRE_SHARED_UEA();
  UeaRunFixture f;
  const json configs = json::array({{{"config_name", "test"}, {"data_files", {{{"split", "test"}, {"path", "data/test-*"}}}}}});
  f.serve("speechcolab/gigaspeech", "test",
          "SELECT 0 AS n, 'state-of-the-art UH <COMMA> design <PERIOD>' AS text UNION ALL SELECT 1, '<SIL> <NOISE>'",
          {}, configs);
  const auto [summary, requests] = f.run("gigaspeech", "{\"content\": \"State of the art design.\"}", "unused");
  ASSERT_EQ(1u, requests.size()) << "the row left with no words is not a sample";
  EXPECT_DOUBLE_EQ(0.0, uea_keys(summary, "wer", "wer").at("wer(%)").get<double>()) << summary.dump(1);
  const auto run = aeval::testing::read_only_run(f.last_output);
  ASSERT_EQ(1u, run.by_id.size());
  EXPECT_EQ("STATE OF THE ART DESIGN", run.by_id.begin()->second["scores"]["wer"]["uea"]["ref"]);
}

// AIR-Bench chat: air_chat = prompt qa, evaluator air-bench-geval (UEA's AIRChatEvaluator, its judge
// the gpt4o-mini entry: OpenAI's client at $OPENAI_BASE_URL), agg airbench-chat. The judge must get
// the text UEA's own code formats (run here with Debian's Python from ../shared/uea).
TEST(UeaRun, AirBenchChatIsJudgedInUeasOwnPromptAndCountedAsWins) {
  AEVAL_REQUIRE_SHARED_UEA();
  UeaRunFixture f;
  f.serve("TwinkStart/air_chat", "test",
          "SELECT 0 AS n, 'A dog barks twice.' AS meta_info, 'What animal is it?' AS question, 'A dog.' AS answer_gt "
          "UNION ALL SELECT 1, 'Rain on a roof.', 'What is the weather?', 'Rainy.'");
  const Judge judge([](const std::string& text) { return text.find("It is a dog") != std::string::npos ? "6 8" : "7 5\n"; });
  const auto [summary, requests] = f.run("air-chat", "It is a dog", "Sunny, I think");
  ASSERT_EQ(2u, requests.size());
  EXPECT_EQ("What animal is it?", std::min(text_of(requests[0]), text_of(requests[1])));
  const json keys = uea_keys(summary, "airbench-chat", "air-bench-geval");
  EXPECT_DOUBLE_EQ(50.0, keys.at("win(%)").get<double>()) << summary.dump(1);
  EXPECT_DOUBLE_EQ(6.5, keys.at("ref_score").get<double>());
  EXPECT_DOUBLE_EQ(6.5, keys.at("pred_score").get<double>());
  ASSERT_EQ(2, judge.server.requests());
  const auto asked = judge.about("It is a dog");
  EXPECT_EQ("gpt-4o-mini", asked.body["model"]);
  EXPECT_EQ(uea_python("from audio_evals.evaluator.air_chat import prompt; print(prompt.format(meta_info='A dog "
                       "barks twice.', question='What animal is it?', label='A dog.', pred='It is a dog'), end='')"),
            text_of(asked));
}

// SpeechAlpacaEval, text answers: glm-alpaca-eval-s2t = prompt direct-aqa, evaluator chatbot_eval (UEA's
// ChatbotEvaluator, judge gpt4o-mini), agg geval. By default the judge gets UEA's chatbot-eval prompt as UEA's
// Prompt class renders it, with temperature 0 and max_tokens 2048; UEA itself asks with maxTokens, which OpenAI's
// client refuses, so with as_uea_calls every sample fails (exit 3), as in UEA.
TEST(UeaRun, SpeechAlpacaEvalJudgesByDefaultAndFailsAsUeaDoesWhenAskedTo) {
  AEVAL_REQUIRE_SHARED_UEA();
  UeaRunFixture f;
  f.serve("TwinkStart/speech-chatbot-alpaca-eval", "test",
          "SELECT 0 AS n, 'Name a fruit.' AS instruction, 'An apple.' AS output "
          "UNION ALL SELECT 1, 'Say hello.', 'Hello!'");
  const Judge judge([](const std::string& text) {
    return text.find("A banana") != std::string::npos ? "Fine. Rating: [[8]]" : "Terse. [[6]] then [[9]]";
  });
  {
    aeval::testing::HubTestServer hub(f.repos);
    aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
    aeval::testing::OpenAiTestServer model([](const aeval::testing::ReceivedRequest&, int) { return aeval::testing::ScriptedReply{}; });
    fs::create_directories(f.dir / "reg" / "models");
    std::ofstream(f.dir / "reg" / "models" / "m.yaml")
        << "test-model:\n  class: openai_chat\n  args:\n    base_url: " << model.base_url() << "\n    model: m\n";
    const auto out = run_aeval(fmt::format("--registry {} uea run --dataset speech-chatbot-alpaca-eval --task "
                                           "glm-alpaca-eval-s2t --model test-model --uea-dir {} --quiet --output {} "
                                           "--set chatbot_eval.as_uea_calls=true",
                                           (f.dir / "reg").string(), aeval::testing::shared_uea_dir().string(),
                                           (f.dir / "uea-default").string()));
    EXPECT_EQ(3, out.status) << out.output;
    EXPECT_EQ(0, judge.server.requests());
    const auto run = aeval::testing::read_only_run(f.dir / "uea-default");
    EXPECT_NE(run.samples_text.find("unexpected keyword argument 'maxTokens'"), std::string::npos) << run.samples_text;
  }
  const auto [summary, requests] =
      f.run("speech-chatbot-alpaca-eval", "A banana.", "Hi.", "--task glm-alpaca-eval-s2t");
  ASSERT_EQ(2, judge.server.requests());
  EXPECT_DOUBLE_EQ(700.0, uea_keys(summary, "geval", "chatbot_eval").at("geval(%)").get<double>()) << summary.dump(1);
  const auto asked = judge.about("A banana");
  EXPECT_EQ(0, asked.body["temperature"]);
  EXPECT_EQ(2048, asked.body["max_tokens"]);
  EXPECT_EQ(uea_python("import yaml; from audio_evals.prompt.base import Prompt; t = yaml.safe_load(open("
                       "'registry/prompt/chatbot.yaml'))['chatbot-eval']['args']['template']; "
                       "print(Prompt(t).load(instruction='Name a fruit.', response='A banana.'), end='')"),
            text_of(asked));
}

// LLaMA-Questions spoken (UEA's s2s-aqa: extract_audio, speech2text, qa-exist-match, acc): a model
// asked for audio answers "hello world" aloud (eSpeak NG) to both questions, PocketSphinx stands in
// for Whisper; the answer matches the first reference and not the second. The spoken answers are
// stored in the run folder and kept in the response cache by content: a second run asks nothing and
// stores the same bytes. A broken spoken answer fails its sample alone.
TEST(UeaRun, SpokenAnswersAreStoredTranscribedAndScoredAsUeaDoes) {
  AEVAL_REQUIRE_SHARED_UEA();
  UeaRunFixture f;
  aeval::models::Request say;
  say.sample_id = "answer";
  say.fields = {{"text", "hello world"}};
  const std::string spoken = aeval::encode_wav(*aeval::models::make_espeak_tts({})->infer_and_wait(say).audio);
  // What PocketSphinx hears in a WAV file.
  const auto hear = [](const fs::path& wav) {
    aeval::models::Request request;
    request.sample_id = "heard";
    request.audio.push_back(aeval::load_mono(wav, 16000));
    return aeval::models::make_pocketsphinx_asr({})->infer_and_wait(request).text;
  };
  std::ofstream(f.dir / "spoken.wav", std::ios::binary) << spoken;
  const std::string heard = hear(f.dir / "spoken.wav");
  ASSERT_NE(heard.find_first_not_of(' '), std::string::npos) << "PocketSphinx hears nothing in eSpeak's 'hello world'";
  // The first question's answer is what the recognizer hears; the second's is not.
  f.serve("TwinkStart/llama-questions", "test",
          fmt::format("SELECT 0 AS n, 'Say hello.' AS Question, {} AS Answer UNION ALL SELECT 1, 'Name a fruit.', "
                      "'banana'",
                      aeval::datasets::TableReader::literal(heard.substr(heard.rfind(' ') + 1))));
  bool broken = false;
  aeval::testing::HubTestServer hub(f.repos);
  aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  aeval::testing::OpenAiTestServer server([&](const aeval::testing::ReceivedRequest& r, int) {
    aeval::testing::ScriptedReply reply;
    reply.text = "hello world";
    reply.audio = broken && long_clip(r) ? std::string("RIFF and then nothing a decoder can read") : spoken;
    return reply;
  });
  fs::create_directories(f.dir / "registry" / "models");
  std::ofstream(f.dir / "registry" / "models" / "m.yaml")
      << "speaking-model:\n  class: openai_chat\n  args:\n    base_url: " << server.base_url()
      << "\n    model: m\n    modalities: [text, audio]\n    voice: alloy\n";
  const auto run = [&](const std::string& name) {
    const fs::path output = f.dir / name;
    const auto out = run_aeval(fmt::format("--registry {} uea run --dataset llama-questions --model speaking-model "
                                           "--uea-dir {} --set speech2text.model=pocketsphinx-en --quiet --output {}",
                                           (f.dir / "registry").string(), aeval::testing::shared_uea_dir().string(),
                                           output.string()));
    EXPECT_EQ(0, out.status) << out.output;
    return aeval::testing::read_only_run(output);
  };

  const auto first = run("first");
  ASSERT_EQ(server.requests(), 2);
  EXPECT_EQ(server.received().at(0).body["modalities"], (json{"text", "audio"}));
  EXPECT_EQ(server.received().at(0).body["audio"], (json{{"voice", "alloy"}, {"format", "wav"}}));
  // The stored answer is heard as the answer itself was.
  ASSERT_EQ(hear(first.dir / first.by_id.begin()->second["output_audio"].get<std::string>()), heard);
  for (const auto& [id, record] : first.by_id) {
    EXPECT_TRUE(fs::exists(first.dir / record["output_audio"].get<std::string>())) << record.dump();
    EXPECT_EQ(record["prediction"], "hello world");
    EXPECT_EQ(record["prediction_processed"], heard) << "extract_audio, then speech2text";
  }
  EXPECT_EQ(uea_keys(first.summary, "acc", "qa-exist-match")["acc(%)"], 50.0) << first.summary.dump();

  // Again, from the response cache: nothing asked, the same audio stored, the same records.
  const auto second = run("second");
  EXPECT_EQ(server.requests(), 2) << "spoken answers come from the cache";
  const auto bytes = [](const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  for (const auto& [id, record] : first.by_id) {
    const std::string name = record["output_audio"];
    EXPECT_TRUE(bytes(first.dir / name) == bytes(second.dir / name)) << name << ": not the same bytes";
    EXPECT_EQ(record["prediction_processed"], second.by_id.at(id)["prediction_processed"]);
  }

  // A spoken answer no decoder reads fails that sample alone, saying so.
  broken = true;
  const aeval::testing::ScopedEnv fresh("AEVAL_RESPONSE_CACHE", (f.dir / "fresh.sqlite").c_str());
  const auto third = run("third");
  EXPECT_EQ(third.summary["counts"]["failed"], 1);
  EXPECT_EQ(third.summary["counts"]["succeeded"], 1);
  bool said = false;
  for (const auto& [id, record] : third.by_id)
    if (!record["error"].is_null())
      said = record["error"]["message"].get<std::string>().find("the spoken answer") != std::string::npos;
  EXPECT_TRUE(said) << third.samples_text;
}

// A catalog task's own evaluators are aeval's entries even where UEA has one of the name (aeval's
// `dnsmos` beside a spoken-answer task); one that UEA's scoring of the task uses itself (CV3's
// ensemble names UEA's `dnsmos`) is refused before anything runs.
TEST(UeaRun, ATasksOwnEvaluatorMayNotBeOneUeasScoringUses) {
  AEVAL_REQUIRE_SHARED_UEA();
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv uea("AEVAL_UEA_DIR", aeval::testing::shared_uea_dir().c_str());
  fs::create_directories(dir / "registry" / "tasks");
  std::ofstream(dir / "registry" / "tasks" / "t.yaml")
      << "cv3-and-dnsmos:\n  class: task\n  args:\n    uea_dataset: cv3_zero_shot_en\n    evaluators: [dnsmos]\n";
  const auto out = run_aeval(fmt::format("--registry {} run --task cv3-and-dnsmos --model duration-process --quiet --output {}",
                                         (dir / "registry").string(), (dir / "out").string()));
  EXPECT_NE(out.status, 0);
  EXPECT_NE(out.output.find("evaluators: 'dnsmos' names aeval's entry, and UltraEval-Audio's scoring of the task uses "
                            "its own entry of that name"),
            std::string::npos)
      << out.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

}  // namespace

