// Long-TTS-Eval's text normalization against tests/data/long_tts_norm: num2words
// 0.5.10's English cardinals, and the registry's normalizer chains of the
// long-tts-wer-en/zh evaluators against the reference's normalize_text.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "aeval/text/number_words.hpp"
#include "post_process/post_process.hpp"
#include "registry/args.hpp"
#include "registry/classes.hpp"
#include "registry/registry.hpp"
#include "support/reference.hpp"

namespace {

using namespace aeval::pipeline;
using namespace aeval::registry;

std::vector<nlohmann::json> vectors() { return aeval::testing::read_test_data("long_tts_norm/long_tts_norm.jsonl"); }

TEST(LongTtsNormConformance, EnglishCardinalsAreNum2wordsOwn) {
  const auto records = vectors();
  int checked = 0, overflows = 0;
  for (const auto& r : records) {
    if (r["kind"] != "cardinal") continue;
    const auto words = aeval::text::english_cardinal(r["digits"].get<std::string>());
    if (r["words"].is_null()) {
      EXPECT_FALSE(words) << r["digits"];
      ++overflows;
    } else {
      ASSERT_TRUE(words) << r["digits"];
      EXPECT_EQ(*words, r["words"].get<std::string>()) << r["digits"];
    }
    ++checked;
  }
  EXPECT_GT(checked, 1400);
  EXPECT_EQ(overflows, 3);
}

// The chain an evaluator entry lists, applied in order, as the evaluator applies it.
std::string normalized(const Registry& registry, const std::string& evaluator, const std::string& text) {
  const auto& entry = registry.get(Kind::evaluator, evaluator);
  const Args args(entry, class_spec(entry, Kind::evaluator));
  std::string out = text;
  const Sample sample;
  for (const auto& step : args.strings("normalizer")) out = load_post_process(registry, step).apply(out, sample);
  return out;
}

TEST(LongTtsNormConformance, TheEvaluatorsChainsAreNormalizeText) {
  const Registry registry({builtin_registry_dir()});
  int checked = 0;
  for (const auto& r : vectors()) {
    if (r["kind"] != "normalize") continue;
    const std::string evaluator = r["language"] == "zh" ? "long-tts-wer-zh" : "long-tts-wer-en";
    EXPECT_EQ(normalized(registry, evaluator, r["input"]), r["normalized"].get<std::string>()) << r["input"];
    ++checked;
  }
  EXPECT_EQ(checked, 34);
}

}  // namespace
