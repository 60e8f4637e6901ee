// Scoring models end to end: the mos, speaker_similarity, audiobertscore, fad and
// clap_score evaluators asking a process model that answers with scores and .npy
// embeddings (examples/process-models/signal_features.py: plain signal features,
// so these are plumbing tests of the protocol, the cache and the arithmetic's
// identities, not of any model's accuracy), on real speech through real codecs.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>

#include "support/asterisk.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::read_only_run;
using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

void write_registry(const TempDir& dir) {
  std::filesystem::create_directories(dir / "registry" / "evaluators");
  std::filesystem::create_directories(dir / "registry" / "tasks");
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "evaluators" / "e.yaml",
              "loudness: {class: mos, args: {model: signal-scores, score: rms_dbfs}}\n"
              "voice: {class: speaker_similarity, args: {model: signal-vector}}\n"
              "abs: {class: audiobertscore, args: {model: signal-frames}}\n"
              "distance: {class: fad, args: {model: signal-frames}}\n"
              "text-match: {class: clap_score, args: {model: signal-vector}}\n"
              "bad-scores: {class: mos, args: {model: bad-scorer}}\n"
              "no-such-score: {class: mos, args: {model: signal-scores, score: utmos}}\n");
  write_bytes(dir / "registry" / "tasks" / "t.yaml",
              "scored-codec:\n  class: task\n  args:\n    dataset: asterisk-en\n    model: identity-codec\n"
              "    evaluators: [loudness, voice, abs, distance, text-match]\n");
  // A scorer whose scores are words: every sample fails with what it said.
  write_bytes(dir / "bad_scorer.py",
              "import json, sys\nprint(json.dumps({'type': 'ready'}), flush=True)\n"
              "for line in sys.stdin:\n"
              "    r = json.loads(line)\n"
              "    print(json.dumps({'type': 'response', 'id': r['id'], 'scores': {'mos': 'excellent'}}), flush=True)\n");
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("bad-scorer:\n  class: process\n  args:\n    command: [python3, {}]\n    input_sample_rate: 16000\n",
                          (dir / "bad_scorer.py").string()));
}

aeval::testing::RunResults run(const TempDir& dir, const std::string& model, const std::string& folder) {
  const auto out = dir / folder;
  const auto o = run_aeval(fmt::format("--registry {} run --task scored-codec --model {} --limit 4 -q --output {}",
                                       (dir / "registry").string(), model, out.string()),
                           false);
  EXPECT_EQ(o.status, 0) << o.output;
  return read_only_run(out);
}

TEST(ScoringModelsE2E, ALosslessCodecIsItsOwnVoiceAndDistributionAndALossyOneIsNot) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  write_registry(dir);
  const auto same = run(dir, "identity-codec", "same");
  ASSERT_EQ(same.summary["counts"]["failed"], 0) << same.samples_text;
  for (const auto& [id, record] : same.by_id) {
    const auto& scores = record["scores"];
    EXPECT_NEAR(scores["voice"]["value"].get<double>(), 1.0, 1e-12) << id;
    // The same frames on both sides: AudioBERTScore's precision and recall agree.
    EXPECT_DOUBLE_EQ(scores["abs"]["precision"].get<double>(), scores["abs"]["recall"].get<double>()) << id;
    EXPECT_EQ(scores["loudness"]["value"], scores["loudness"]["rms_dbfs"]) << id;
    EXPECT_TRUE(scores["loudness"].contains("peak_dbfs")) << id;
    EXPECT_LE(std::fabs(scores["text-match"]["value"].get<double>()), 1.0) << id;
  }
  const auto& metrics = same.summary["metrics"];
  EXPECT_NEAR(metrics["distance"]["value"].get<double>(), 0.0, 1e-6) << "the outputs are the reference set";
  double loudness = 0;
  for (const auto& [id, record] : same.by_id) loudness += record["scores"]["loudness"]["value"].get<double>() / 4;
  EXPECT_NEAR(metrics["loudness"]["value"].get<double>(), loudness, 1e-12);
  EXPECT_EQ(same.summary["provenance"]["evaluators"][0]["model"]["name"], "signal-scores");

  const auto lossy = run(dir, "opus-6k", "lossy");
  ASSERT_EQ(lossy.summary["counts"]["failed"], 0) << lossy.samples_text;
  EXPECT_GT(lossy.summary["metrics"]["distance"]["value"].get<double>(), 1e-4);
  EXPECT_LT(lossy.summary["metrics"]["voice"]["value"].get<double>(), 1.0 - 1e-9);

  // Again: the scores come from the response cache (embeddings included) and are the same bytes.
  const auto again = run(dir, "opus-6k", "again");
  EXPECT_EQ(again.samples_text, lossy.samples_text);
}

TEST(ScoringModelsE2E, AScorerThatAnswersBadlyFailsEachSampleSayingWhy) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  write_registry(dir);
  const auto bad = run_aeval(fmt::format("--registry {} run --task scored-codec --evaluator bad-scores --limit 2 -q -o {}",
                                         (dir / "registry").string(), (dir / "bad").string()));
  EXPECT_EQ(bad.status, 3) << bad.output;
  EXPECT_NE(read_only_run(dir / "bad").samples_text.find("its scores are not an object of numbers"), std::string::npos);

  const auto missing = run_aeval(fmt::format("--registry {} run --task scored-codec --evaluator no-such-score --limit 2 "
                                             "-q -o {}",
                                             (dir / "registry").string(), (dir / "missing").string()));
  EXPECT_EQ(missing.status, 3) << missing.output;
  EXPECT_NE(read_only_run(dir / "missing").samples_text.find("model 'signal-scores' gave no score 'utmos'"),
            std::string::npos);
}

// An embedder whose vectors change width from one answer to the next: each sample fails, naming
// the model and the two shapes, for every evaluator comparing two embeddings.
TEST(ScoringModelsE2E, AnEmbedderAnsweringAnotherWidthFailsEachSampleNamingIt) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  write_registry(dir);
  write_bytes(dir / "odd_embedder.py",
              "import json, struct, sys\nprint(json.dumps({'type': 'ready'}), flush=True)\n"
              "for n, line in enumerate(sys.stdin):\n"
              "    r = json.loads(line)\n"
              "    width = 2 + n\n"
              "    header = \"{'descr': '<f8', 'fortran_order': False, 'shape': (1, %d), }\" % width\n"
              "    header += ' ' * (63 - (10 + len(header)) % 64) + '\\n'\n"
              "    with open(r['output_embedding'], 'wb') as f:\n"
              "        f.write(b'\\x93NUMPY\\x01\\x00' + struct.pack('<H', len(header)) + header.encode('latin1'))\n"
              "        f.write(struct.pack('<%dd' % width, *range(1, width + 1)))\n"
              "    print(json.dumps({'type': 'response', 'id': r['id'], 'embedding': r['output_embedding']}), flush=True)\n");
  write_bytes(dir / "registry" / "models" / "odd.yaml",
              fmt::format("odd-embedder:\n  class: process\n  args:\n    command: [python3, {}]\n    input_sample_rate: 16000\n"
                          "    max_concurrency: 1\n",
                          (dir / "odd_embedder.py").string()));
  write_bytes(dir / "registry" / "evaluators" / "odd.yaml",
              "odd-voice: {class: speaker_similarity, args: {model: odd-embedder}}\n"
              "odd-frames: {class: audiobertscore, args: {model: odd-embedder}}\n"
              "odd-distance: {class: fad, args: {model: odd-embedder}}\n");
  for (const char* evaluator : {"odd-voice", "odd-frames", "odd-distance"}) {
    SCOPED_TRACE(evaluator);
    const auto out = dir / evaluator;
    const auto o = run_aeval(fmt::format("--registry {} run --task scored-codec --model opus-6k --evaluator {} --limit 2 "
                                         "--no-cache -q -o {}",
                                         (dir / "registry").string(), evaluator, out.string()));
    EXPECT_EQ(o.status, 3) << o.output;
    const auto r = read_only_run(out);
    EXPECT_EQ(r.summary["counts"]["failed"], 2) << r.samples_text;
    EXPECT_NE(r.samples_text.find("model 'odd-embedder' gave"), std::string::npos) << r.samples_text;
    EXPECT_NE(r.samples_text.find("they must be"), std::string::npos) << r.samples_text;
  }
}

// The field's scoring models (registry/models/scoring.yaml) build their Python environment on first
// use. Without an index to install from (no network here, PIP_NO_INDEX in the test), a run that needs
// one stops before any sample with one line naming the model, its requirements and the way out.
TEST(ScoringModelsE2E, EveryScoringModelOfTheFieldStopsARunWithOneLineWhenItCannotBeInstalled) {
#ifdef AEVAL_SANITIZED
  GTEST_SKIP() << "ten virtual environments built and refused by pip are the Release build's to test";
#endif
  TempDir dir;
  const aeval::testing::ScopedEnv no_index("PIP_NO_INDEX", "1");
  const aeval::testing::ScopedEnv no_links("PIP_FIND_LINKS", (dir / "no-wheels").c_str());
  std::filesystem::create_directories(dir / "no-wheels");
  for (const char* evaluator : {"seed-tts-wer-en", "seed-tts-cer-zh", "speaker-sim", "utmos", "audiobertscore-ast",
                                "fad-vggish", "fad-panns", "clap-score", "long-tts-wer-en", "long-tts-wer-zh"}) {
    SCOPED_TRACE(evaluator);
    const auto o = run_aeval(fmt::format("run --dataset tts-sentences --model espeak-en-us --prompt speak --evaluator {} "
                                         "--set long-tts-wer-en.references_field=text "
                                         "--set long-tts-wer-zh.references_field=text --limit 1 -q -o {}",
                                         evaluator, (dir / evaluator).string()));
    EXPECT_EQ(o.status, 1) << o.output;
    const auto error = o.output.find("aeval: model error: model '");
    ASSERT_NE(error, std::string::npos) << o.output;
    const std::string line = o.output.substr(error, o.output.find('\n', error) - error);
    EXPECT_NE(line.find("requirements.txt failed (ERROR: "), std::string::npos) << line;
    EXPECT_NE(line.find("without network, point PIP_FIND_LINKS at a wheelhouse"), std::string::npos) << line;
    EXPECT_EQ(o.output.find('\n', error), o.output.size() - 1) << "one line, the last:\n" << o.output;
  }
}

}  // namespace
