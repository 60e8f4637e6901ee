// Seed-TTS-Eval's ASR-WER text side (UltraEval-Audio's SeedTTSEvalASRWER) against
// tests/data/seed_tts_wer: the texts the reference's process_one hands to jiwer, and the WER of
// the pair (or jiwer's error for a reference with no word).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "aeval/error.hpp"
#include "post_process/post_process.hpp"
#include "uea/uea_tts_text.hpp"
#include "registry/registry.hpp"
#include "support/reference.hpp"

namespace {

using namespace aeval::pipeline;
using namespace aeval::registry;

TEST(SeedTtsWerConformance, TheTextsAndTheRateAreProcessOnes) {
  const Registry registry({builtin_registry_dir()});
  const PostProcess punctuation = load_post_process(registry, "seed-tts-punctuation");
  int checked = 0, refused = 0;
  for (const auto& r : aeval::testing::read_test_data("seed_tts_wer/seed_tts_wer.jsonl")) {
    const auto texts = seed_tts_texts(r["hypo"], r["truth"], r["language"], punctuation);
    EXPECT_EQ(texts.truth, r["jiwer_truth"].get<std::string>()) << r["truth"];
    EXPECT_EQ(texts.hypo, r["jiwer_hypo"].get<std::string>()) << r["hypo"];
    if (r["wer"].is_null()) {
      EXPECT_THROW(jiwer_pair_wer(texts.truth, texts.hypo), aeval::Error) << r["truth"];
      ++refused;
    } else {
      EXPECT_NEAR(jiwer_pair_wer(texts.truth, texts.hypo), r["wer"].get<double>(), 1e-15) << r["hypo"];
    }
    ++checked;
  }
  EXPECT_EQ(checked, 21);
  EXPECT_EQ(refused, 1);
}

}  // namespace
