// Scoring models run once per audio however many evaluators and threads ask,
// and transcripts are found again in the response cache by audio content; a
// prompt that asks each clip apart is asked once a clip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include <fmt/format.h>

#include <mutex>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "prompts/prompt.hpp"
#include "registry/registry.hpp"
#include "response_cache/response_cache.hpp"
#include "evaluators/scoring_models.hpp"
#include "support/judge_replies.hpp"
#include "support/openai_test_server.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::registry::Registry;
using aeval::pipeline::ResponseCache;
using aeval::pipeline::ScoringModels;
using aeval::testing::read_bytes;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

// A process "ASR" that logs every request it answers to requests.log.
void write_counting_asr(const std::filesystem::path& dir) {
  write_bytes(dir / "asr.py",
              "import json, sys, time\n"
              "print(json.dumps({'type': 'ready'}), flush=True)\n"
              "for line in sys.stdin:\n"
              "    r = json.loads(line)\n"
              "    open('requests.log', 'a').write(r['id'] + '\\n')\n"
              "    time.sleep(0.05)\n"
              "    print(json.dumps({'type': 'response', 'id': r['id'], 'text': 'heard it'}), flush=True)\n");
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              "counting-asr:\n  class: process\n  args:\n    command: [python3, ../../asr.py]\n    max_concurrency: 4\n"
              "no-audio:\n  class: process\n  args:\n    command: [python3, ../../asr.py]\n    input_sample_rate: 0\n");
}

std::size_t lines(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file)) return 0;
  const std::string text = read_bytes(file);
  return std::size_t(std::count(text.begin(), text.end(), '\n'));
}

void write_tone(const std::filesystem::path& path, float frequency) {
  aeval::Audio a;
  a.sample_rate = 16000;
  a.channels = 1;
  for (int i = 0; i < 8000; ++i) a.samples.push_back(0.2f * std::sin(frequency * float(i) / 16000.f * 6.2832f));
  aeval::write_wav(path, a);
}

TEST(ScoringModels, EachAudioIsTranscribedOnceHoweverManyAskAtOnce) {
  TempDir dir;
  write_counting_asr(dir.path());
  write_tone(dir / "a.wav", 440);
  write_tone(dir / "b.wav", 660);
  std::filesystem::copy_file(dir / "a.wav", dir / "a-copy.wav");  // same content, other name
  const Registry registry({aeval::registry::builtin_registry_dir(), dir / "registry"});
  {
    ScoringModels scoring(registry);
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
      threads.emplace_back([&, t] {
        for (const char* file : {"a.wav", "b.wav", "a-copy.wav"})
          EXPECT_EQ(scoring.transcribe("counting-asr", dir / (t % 2 ? file : "a.wav")), "heard it");
      });
    for (auto& t : threads) t.join();
  }
  EXPECT_EQ(lines(dir / "registry" / "models" / "requests.log"), 2u) << "one request per distinct audio content";
}

TEST(ScoringModels, TranscriptsComeBackFromTheCacheInALaterRun) {
  TempDir dir;
  write_counting_asr(dir.path());
  write_tone(dir / "a.wav", 440);
  const Registry registry({aeval::registry::builtin_registry_dir(), dir / "registry"});
  ResponseCache cache(dir / "responses.sqlite");
  for (int run = 0; run < 2; ++run) {
    ScoringModels scoring(registry);
    scoring.use_cache(&cache);
    EXPECT_EQ(scoring.transcribe("counting-asr", dir / "a.wav"), "heard it");
  }
  EXPECT_EQ(lines(dir / "registry" / "models" / "requests.log"), 1u);
}

TEST(ScoringModels, AModelThatReadsNoAudioCannotTranscribe) {
  TempDir dir;
  write_counting_asr(dir.path());
  write_tone(dir / "a.wav", 440);
  const Registry registry({aeval::registry::builtin_registry_dir(), dir / "registry"});
  ScoringModels scoring(registry);
  try {
    scoring.transcribe("no-audio", dir / "a.wav");
    ADD_FAILURE() << "no error";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("model 'no-audio' reads no audio"), std::string::npos) << e.what();
  }
}

// A judge asked with a prompt that asks each clip apart (AQAScore's cascade caption of a pair) hears one clip a
// request and answers their list; the same judge asked whole by another prompt still hears both at once.
TEST(ScoringModels, APromptAskingEachClipApartIsAskedOnceAClip) {
  TempDir dir;
  std::mutex mutex;
  std::vector<std::size_t> clips_heard;
  aeval::testing::OpenAiTestServer judge([&](const aeval::testing::ReceivedRequest& r, int) {
    std::size_t clips = 0;
    for (const auto& m : r.body["messages"])
      if (m["content"].is_array())
        for (const auto& part : m["content"]) clips += part.value("type", "") == "input_audio";
    const std::lock_guard lock(mutex);
    clips_heard.push_back(clips);
    aeval::testing::ScriptedReply reply;
    reply.text = fmt::format("heard {} clip(s)", clips);
    return reply;
  });
  aeval::testing::point_judges_at(dir / "registry", judge);
  write_tone(dir / "a.wav", 440);
  write_tone(dir / "b.wav", 660);
  const Registry registry({aeval::registry::builtin_registry_dir(), dir / "registry"});
  ScoringModels scoring(registry);
  aeval::pipeline::Sample pair{"p", dir / "a.wav", std::string("a dog barks"),
                               {{"audio_a", (dir / "a.wav").string()}, {"audio_b", (dir / "b.wav").string()}}};
  const auto each = scoring.ask("qwen2.5-omni-judge", aeval::pipeline::Prompt::load(registry, "aqascore-cascade-caption-pair"), pair);
  EXPECT_EQ(nlohmann::json::parse(each.text), (nlohmann::json{"heard 1 clip(s)", "heard 1 clip(s)"}));
  EXPECT_EQ(clips_heard, (std::vector<std::size_t>{1, 1}));
  const auto whole = scoring.ask("qwen2.5-omni-judge", aeval::pipeline::Prompt::load(registry, "aqascore-prompting-pair"), pair);
  EXPECT_EQ(whole.text, "heard 2 clip(s)") << "the judge itself is asked whole";
}

// A process embedder that logs each request and answers scores and a 2×3 embedding.
TEST(ScoringModels, ScoresAndEmbeddingsComeBackFromTheCacheInALaterRun) {
  TempDir dir;
  write_bytes(dir / "embedder.py",
              "import json, struct, sys\n"
              "print(json.dumps({'type': 'ready'}), flush=True)\n"
              "header = \"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\"\n"
              "header += ' ' * (63 - (10 + len(header)) % 64) + '\\n'\n"
              "for line in sys.stdin:\n"
              "    r = json.loads(line)\n"
              "    open('requests.log', 'a').write(r['id'] + '\\n')\n"
              "    with open(r['output_embedding'], 'wb') as f:\n"
              "        f.write(b'\\x93NUMPY\\x01\\x00' + struct.pack('<H', len(header)) + header.encode())\n"
              "        f.write(struct.pack('<6f', 0.5, -1, 2, 0.25, 3, -0.125))\n"
              "    print(json.dumps({'type': 'response', 'id': r['id'], 'embedding': r['output_embedding'],\n"
              "                      'scores': {'mos': 3.75}}), flush=True)\n");
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              "embedder:\n  class: process\n  args:\n    command: [python3, ../../embedder.py]\n");
  write_tone(dir / "a.wav", 440);
  const Registry registry({aeval::registry::builtin_registry_dir(), dir / "registry"});
  ResponseCache cache(dir / "responses.sqlite");
  for (int run = 0; run < 2; ++run) {
    ScoringModels scoring(registry);
    scoring.use_cache(&cache);
    const aeval::models::Response r = scoring.hear("embedder", dir / "a.wav");
    ASSERT_TRUE(r.embedding) << "run " << run;
    EXPECT_EQ(r.embedding->shape, (std::vector<std::size_t>{2, 3}));
    EXPECT_EQ(r.embedding->dtype, "f4");
    EXPECT_EQ(r.embedding->values, (std::vector<double>{0.5, -1, 2, 0.25, 3, -0.125}));
    EXPECT_EQ(r.scores, nlohmann::json({{"mos", 3.75}}));
  }
  EXPECT_EQ(lines(dir / "registry" / "models" / "requests.log"), 1u) << "the second run reads the cache";
}

}  // namespace
