// A text-to-speech model reached over an OpenAI-compatible /v1/audio/speech endpoint runs the
// catalog's Seed-TTS-Eval task (UltraEval-Audio's definition) end to end: a local Hub serves two rows
// of UltraEval-Audio's copy, a local server reads each text aloud with eSpeak NG, and stand-ins replace
// the scoring models that cannot be downloaded here (PocketSphinx for Whisper-large-v3, signal features
// for WavLM-ECAPA and UTMOS); DNSMOS runs with its official weights. Plumbing of the model class and the
// task, with real speech and a real recognizer.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <mutex>

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
using nlohmann::json;

TEST(OpenAiSpeechE2E, ATtsModelOverAudioSpeechRunsSeedTtsEval) {
  AEVAL_REQUIRE_SHARED_UEA();
  aeval::testing::ScopedEnv uea("AEVAL_UEA_DIR", aeval::testing::shared_uea_dir().c_str());
  aeval::testing::ScopedEnv dnsmos(
      "DNSMOS_MODELS", (aeval::testing::reference_dir().parent_path() / "models" / "dnsmos").c_str());
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  aeval::testing::ScopedEnv offline("HF_HUB_OFFLINE", nullptr);

  // The voice prompt of both rows: a second of a tone.
  aeval::Audio prompt{{}, 16000, 1};
  for (int i = 0; i < 16000; ++i) prompt.samples.push_back(0.2f * float(std::sin(i * 0.05)));
  aeval::write_wav(dir / "prompt.wav", prompt);
  const auto literal = aeval::datasets::TableReader::literal;
  const fs::path rows = dir / "rows.parquet";
  aeval::testing::write_parquet(
      fmt::format("SELECT {{'bytes': b.content, 'path': 'prompt.wav'}} AS audio, t.text, 'a tone' AS prompt_text "
                  "FROM read_blob({}) b, (VALUES (0, 'hello world'), (1, 'good morning')) t(n, text) ORDER BY t.n",
                  literal((dir / "prompt.wav").string())),
      rows);
  aeval::testing::HubTestRepo repo;
  repo.main = {aeval::testing::test_commit("TwinkStart/Seed-TTS-Eval"), {{"en/test-00000-of-00001.parquet", rows}}};
  repo.configs = json::array({{{"config_name", "en"}, {"data_files", {{{"split", "test"}, {"path", "en/test-00000-of-00001.parquet"}}}}}});
  aeval::testing::HubTestServer hub({{"TwinkStart/Seed-TTS-Eval", repo}});
  aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());

  // The speech server: eSpeak NG reads the request's input.
  std::mutex espeak;
  const auto speak = [&](const std::string& text) {
    aeval::models::Request say;
    say.sample_id = "speech";
    say.fields = {{"text", text}};
    const std::lock_guard lock(espeak);
    return aeval::encode_wav(*aeval::models::make_espeak_tts({})->infer_and_wait(say).audio);
  };
  aeval::testing::OpenAiTestServer server([&](const aeval::testing::ReceivedRequest& r, int) {
    aeval::testing::ScriptedReply reply;
    reply.audio = speak(r.body.value("input", ""));
    return reply;
  });

  fs::create_directories(dir / "registry" / "models");
  std::ofstream(dir / "registry" / "models" / "stand-ins.yaml")
      << "tts:\n  class: openai_speech\n  args:\n    base_url: " << server.base_url() << "\n    model: tts-1\n"
      << "whisper-large-v3-en-cut30s:\n  class: pocketsphinx\n";
  const std::string features = (fs::path(AEVAL_SOURCE_DIR) / "examples/process-models/signal_features.py").string();
  for (const auto& [model, answer] : {std::pair{"wavlm-ecapa-sim", "vector"}, std::pair{"utmos22-strong", "scores"}})
    std::ofstream(dir / "registry" / "models" / "stand-ins.yaml", std::ios::app)
        << model << ":\n  class: process\n  args:\n    command: [python3, " << features << ", --answer, " << answer << "]\n";
  const fs::path output = dir / "out";
  const auto out = aeval::testing::run_aeval(fmt::format("--registry {} run --task seed-tts-eval-en --model tts --quiet "
                                                         "--set utmos.score=rms_dbfs --output {}",
                                                         (dir / "registry").string(), output.string()));
  ASSERT_EQ(0, out.status) << out.output;
  const auto run = aeval::testing::read_only_run(output);

  std::set<std::string> asked;
  for (const auto& r : server.received()) {
    EXPECT_EQ(r.path, "/v1/audio/speech");
    EXPECT_EQ(r.body["model"], "tts-1");
    EXPECT_EQ(r.body["response_format"], "wav");
    asked.insert(r.body["input"].get<std::string>());
  }
  EXPECT_EQ(asked, (std::set<std::string>{"hello world", "good morning"}));

  // Each answer is stored, heard by the recognizer as the stand-in hears the stored file, and scored.
  ASSERT_EQ(run.by_id.size(), 2u) << run.samples_text;
  for (const auto& [id, record] : run.by_id) {
    ASSERT_TRUE(record["error"].is_null()) << record.dump();
    const fs::path stored = run.dir / record["output_audio"].get<std::string>();
    aeval::models::Request heard;
    heard.sample_id = id;
    heard.audio.push_back(aeval::load_mono(stored, 16000));
    const json& uea = record["scores"]["seed-tts-eval-vc-en"]["uea"];
    EXPECT_EQ(uea["transcription"], aeval::models::make_pocketsphinx_asr({})->infer_and_wait(heard).text);
    EXPECT_TRUE(uea["wer%"].is_number()) << record.dump();
    EXPECT_TRUE(uea["simo"].is_number()) << record.dump();
    EXPECT_TRUE(record["scores"]["utmos"]["value"].is_number()) << record.dump();
    EXPECT_TRUE(record["scores"]["dnsmos"]["value"].is_number()) << record.dump();
  }
  for (const char* metric : {"seed-tts-eval-vc-en", "utmos", "dnsmos"})
    EXPECT_TRUE(run.summary["metrics"][metric]["value"].is_number()) << metric << ": " << run.summary.dump();
}

}  // namespace
