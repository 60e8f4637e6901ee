// The codec and TTS leaderboards end to end: built-in codecs and a codec
// written as an isolated process scored on real speech, espeak-ng voices
// scored by ASR, and the HTML report loaded by a real headless browser.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "support/asterisk.hpp"
#include "support/browser.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"
#include "support/require.hpp"

namespace {

using aeval::testing::chromium;
using aeval::testing::read_bytes;
using aeval::testing::read_only_run;
using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;

constexpr int kSamples = 3;

double metric(const json& summary, const std::string& name) { return summary["metrics"][name]["value"].get<double>(); }

// One codec on the first samples of the Asterisk prompts; its summary.
json run_codec(const std::filesystem::path& out, const std::string& model) {
  const auto o = run_aeval(fmt::format("run --task codec-speech --model {} --limit {} -q --output {}", model, kSamples,
                                       (out / model).string()));
  EXPECT_EQ(o.status, 0) << o.output;
  const auto run = read_only_run(out / model);
  EXPECT_EQ(run.summary["counts"]["failed"], 0) << run.samples_text;
  return run.summary;
}

TEST(CodecE2E, LeaderboardOrdersCodecsAsPhysicsDemandsAndTakesAProcessCodec) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  AEVAL_REQUIRE(!chromium().empty(), "chromium");
  TempDir dir;
  const auto out = dir / "results";
  const json identity = run_codec(out, "identity-codec");
  const json low = run_codec(out, "opus-6k"), high = run_codec(out, "opus-24k");
  const json process = run_codec(out, "mulaw-process");  // examples/process-models/mulaw_codec.py

  // Lossless: the ASR hears the original exactly, the signal is the original.
  EXPECT_EQ(metric(identity, "asr-wer-vs-original"), 0);
  EXPECT_GT(metric(identity, "si-sdr"), 100);
  EXPECT_NEAR(metric(identity, "stoi"), 1, 1e-6);
  EXPECT_NEAR(metric(identity, "mel-distance"), 0, 1e-6);
  EXPECT_NEAR(metric(identity, "mcd"), 0, 1e-6);
  // More bits, a closer reconstruction.
  EXPECT_GT(metric(high, "si-sdr"), metric(low, "si-sdr") + 3);
  EXPECT_LT(metric(high, "mel-distance"), metric(low, "mel-distance"));
  EXPECT_GT(metric(high, "stoi"), metric(low, "stoi"));
  EXPECT_LT(metric(high, "mcd"), metric(low, "mcd"));
  EXPECT_LE(metric(high, "asr-wer-vs-original"), metric(low, "asr-wer-vs-original"));
  // Every codec's reconstruction is worse than the original.
  for (const json* s : {&low, &high, &process}) EXPECT_LT(metric(*s, "si-sdr"), metric(identity, "si-sdr"));
  EXPECT_EQ(process["provenance"]["model"]["bitrate_kbps"], 64);

  // The transcript of a reconstruction is computed once for both ASR evaluators.
  const auto records = read_only_run(out / "opus-6k").by_id;
  for (const auto& [id, r] : records) {
    EXPECT_EQ(r["scores"]["asr-wer"]["transcript"], r["scores"]["asr-wer-vs-original"]["transcript"]);
    EXPECT_TRUE(std::filesystem::exists(read_only_run(out / "opus-6k").dir / r["output_audio"].get<std::string>()));
  }

  const auto md = run_aeval(fmt::format("report {}", out.string()), false);
  ASSERT_EQ(md.status, 0) << md.output;
  EXPECT_NE(md.output.find("| model | kbps | asr-wer (averaged as 100 − 100·x) |"), std::string::npos) << md.output;
  EXPECT_NE(md.output.find("| mulaw-process | 64 |"), std::string::npos) << md.output;
  EXPECT_LT(md.output.find("| identity-codec |"), md.output.find("| opus-6k |")) << "ranked by the normalized average";
  // Which model heard the reconstructions, for the columns a model scored (and only those).
  EXPECT_NE(md.output.find("Scored by: asr-wer: pocketsphinx-en; asr-wer-vs-original: pocketsphinx-en."),
            std::string::npos)
      << md.output;

  const auto html = dir / "leaderboard.html";
  ASSERT_EQ(run_aeval(fmt::format("report {} --format html --out {}", out.string(), html.string())).status, 0);
  // A real browser parses the file: the DOM it builds holds the table and the charts.
  const std::string dom = aeval::testing::dump_dom("file://" + html.string(), dir / "profile");
  EXPECT_NE(dom.find("<table>"), std::string::npos) << dom.substr(0, 500);
  EXPECT_NE(dom.find("<td>mulaw-process</td><td>64</td>"), std::string::npos);
  EXPECT_NE(dom.find("<span class=\"scorer\">by pocketsphinx-en</span>"), std::string::npos);
  // The bootstrap interval of identity-codec's STOI (all ones) beside its value.
  EXPECT_NE(dom.find("<td>1<br><span class=\"ci\">[1, 1]</span></td>"), std::string::npos);
  std::size_t charts = 0, points = 0;
  for (std::size_t at = 0; (at = dom.find("<svg class=\"chart bitrate\"", at)) != std::string::npos; ++at) ++charts;
  for (std::size_t at = 0; (at = dom.find("<circle", at)) != std::string::npos; ++at) ++points;
  EXPECT_EQ(charts, 7u) << "one chart against bitrate per metric";
  EXPECT_EQ(points, 7u * 4) << "a point per codec in each chart";
  EXPECT_NE(dom.find("asr-wer vs bitrate"), std::string::npos);
  EXPECT_NE(dom.find("stoi vs bitrate"), std::string::npos);
}

TEST(CodecE2E, AProcessAnsweringWithUnreadableAudioFailsItsSamplesClearly) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  write_bytes(dir / "bad_codec.py",
              "import json, sys\n"
              "print(json.dumps({'type': 'ready'}), flush=True)\n"
              "for line in sys.stdin:\n"
              "    r = json.loads(line)\n"
              "    open(r['output_audio'], 'w').write('not a wav file')\n"
              "    print(json.dumps({'type': 'response', 'id': r['id'], 'audio': r['output_audio']}), flush=True)\n");
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              "bad-codec:\n  class: process\n  args:\n    command: [python3, ../../bad_codec.py]\n    bitrate_kbps: 8\n");
  const auto o = run_aeval(fmt::format("--registry {} run --task codec-speech --model bad-codec --limit 2 -q --output {}",
                                       (dir / "registry").string(), (dir / "out").string()));
  EXPECT_EQ(o.status, 3) << o.output;  // the run completes and reports that every sample failed
  const auto run = read_only_run(dir / "out");
  EXPECT_EQ(run.summary["counts"]["failed"], 2);
  for (const auto& [id, r] : run.by_id) {
    EXPECT_EQ(r["error"]["stage"], "infer");
    EXPECT_NE(r["error"]["message"].get<std::string>().find("answered sample '" + id + "' with audio that cannot be read"),
              std::string::npos)
        << r["error"];
  }
}

TEST(TtsE2E, EspeakVoicesAreScoredByWhatTheAsrHears) {
  TempDir dir;
  for (const char* voice : {"espeak-en-us", "espeak-en-gb"}) {
    const auto o = run_aeval(fmt::format("run --task tts-intelligibility --model {} --limit {} -q --output {}", voice,
                                         kSamples, (dir / "out" / voice).string()));
    ASSERT_EQ(o.status, 0) << o.output;
    const auto run = read_only_run(dir / "out" / voice);
    ASSERT_EQ(run.summary["counts"]["failed"], 0) << run.samples_text;
    for (const auto& [id, r] : run.by_id) {
      // The synthesized speech exists and lasts as long as a sentence takes to say.
      EXPECT_GT(r["output_seconds"].get<double>(), 1.0) << id;
      EXPECT_LT(r["output_seconds"].get<double>(), 10.0) << id;
      EXPECT_TRUE(r["scores"]["asr-wer"]["transcript"].is_string());
      EXPECT_EQ(r["scores"]["asr-wer"]["reference_tokens"].get<int>() > 0, true);
    }
    // The corpus WER is the summed edits over the summed reference words of the samples.
    long edits = 0, words = 0, hits = 0;
    for (const auto& [id, r] : run.by_id) {
      const json& w = r["scores"]["asr-wer"];
      EXPECT_EQ(w["hits"].get<long>() + w["substitutions"].get<long>() + w["deletions"].get<long>(),
                w["reference_tokens"].get<long>())
          << id;
      edits += w["substitutions"].get<long>() + w["deletions"].get<long>() + w["insertions"].get<long>();
      words += w["reference_tokens"].get<long>();
      hits += w["hits"].get<long>();
    }
    EXPECT_DOUBLE_EQ(metric(run.summary, "asr-wer"), double(edits) / double(words));
    EXPECT_GT(hits, 0) << voice << ": the recognizer hears some of the words spoken";
  }

  // A "voice" that says nothing: the recognizer hears no word, so every
  // reference word is deleted and the WER is exactly 1.
  write_bytes(dir / "silent_tts.py",
              "import json, sys, wave\n"
              "print(json.dumps({'type': 'ready'}), flush=True)\n"
              "for line in sys.stdin:\n"
              "    r = json.loads(line)\n"
              "    with wave.open(r['output_audio'], 'wb') as w:\n"
              "        w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000); w.writeframes(bytes(64000))\n"
              "    print(json.dumps({'type': 'response', 'id': r['id'], 'audio': r['output_audio']}), flush=True)\n");
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("silent-tts:\n  class: process\n  args:\n    command: [python3, {}]\n    input_sample_rate: 0\n",
                          (dir / "silent_tts.py").string()));
  const auto silent = run_aeval(fmt::format("--registry {} run --task tts-intelligibility --model silent-tts --limit {} -q "
                                            "--output {}",
                                            (dir / "registry").string(), kSamples, (dir / "out" / "silent-tts").string()));
  ASSERT_EQ(silent.status, 0) << silent.output;
  const auto quiet = read_only_run(dir / "out" / "silent-tts");
  EXPECT_EQ(metric(quiet.summary, "asr-wer"), 1.0) << quiet.samples_text;
  EXPECT_EQ(quiet.summary["metrics"]["asr-wer"]["hits"], 0);
  // Both eSpeak voices are understood better than silence.
  for (const char* voice : {"espeak-en-us", "espeak-en-gb"})
    EXPECT_LT(metric(read_only_run(dir / "out" / voice).summary, "asr-wer"), 1.0) << voice;
  const auto md = run_aeval(fmt::format("report {}", (dir / "out").string()), false);
  ASSERT_EQ(md.status, 0) << md.output;
  EXPECT_NE(md.output.find("## tts-intelligibility (dataset tts-sentences)"), std::string::npos) << md.output;
  EXPECT_NE(md.output.find("| espeak-en-us |"), std::string::npos);
  EXPECT_NE(md.output.find("| espeak-en-gb |"), std::string::npos);
}

}  // namespace
