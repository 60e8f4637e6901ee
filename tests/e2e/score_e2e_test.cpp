// `aeval score` as a user runs it: strict JSON out, clear errors for bad input.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>

#include "aeval/metrics/catalog.hpp"
#include "support/run_aeval.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

TEST(ScoreE2E, ListsEveryMetricOfTheCatalogOnALineOfItsOwn) {
  const auto o = run_aeval("score --list");
  EXPECT_EQ(o.status, 0);
  std::vector<const aeval::metrics::MetricInfo*> all;
  for (const auto& m : aeval::metrics::text_metrics()) all.push_back(&m);
  for (const auto& m : aeval::metrics::signal_metrics()) all.push_back(&m);
  for (const auto* m : all)
    EXPECT_NE(o.output.find(fmt::format("{:<15} {} ({})\n", m->name, m->summary, m->reference)), std::string::npos) << m->name;
  EXPECT_EQ(std::count(o.output.begin(), o.output.end(), '\n'), std::ptrdiff_t(all.size())) << o.output;
}

TEST(ScoreE2E, TextFilesGiveStrictJsonAndPerSampleLines) {
  TempDir dir;
  write_bytes(dir / "ref.txt", "the cat sat on the mat\nhello world\n");
  write_bytes(dir / "hyp.txt", "the cat sat on a mat\nhello there world\n");
  const auto o = run_aeval("score wer --ref " + (dir / "ref.txt").string() + " --hyp " + (dir / "hyp.txt").string() +
                           " --per-sample " + (dir / "per.jsonl").string(), false);
  ASSERT_EQ(o.status, 0) << o.output;
  const auto result = nlohmann::json::parse(o.output);
  EXPECT_DOUBLE_EQ(result["wer"].get<double>(), 2.0 / 8);  // jiwer: 1 substitution + 1 insertion over 8 words
  EXPECT_EQ(result["segments"], 2);
  const std::string lines = aeval::testing::read_bytes(dir / "per.jsonl");
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 2);
}

// A transcript of a whole meeting or book: alignment memory grows with the
// text, not its square (a 1 MB reference once needed terabytes). Dropping
// every 20th word makes the counts certain: any shortest alignment of a text
// to a subsequence of it deletes exactly the missing words.
TEST(ScoreE2E, AOneMegabyteReferenceScores) {
  TempDir dir;
  std::string reference, hypothesis;
  uint64_t state = 1;
  std::size_t words = 0, dropped = 0;
  while (reference.size() < 1'000'000) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::string word = std::to_string((state >> 33) % 5000) + "w ";
    reference += word;
    if (++words % 20 == 0)
      ++dropped;
    else
      hypothesis += word;
  }
  write_bytes(dir / "ref.txt", reference + "\n");
  write_bytes(dir / "hyp.txt", hypothesis + "\n");
  const auto o = run_aeval("score wer --ref " + (dir / "ref.txt").string() + " --hyp " + (dir / "hyp.txt").string(), false);
  ASSERT_EQ(o.status, 0) << o.output;
  const auto result = nlohmann::json::parse(o.output);
  EXPECT_EQ(result["reference_tokens"], words);
  EXPECT_EQ(result["deletions"], dropped);
  EXPECT_EQ(result["hits"], words - dropped);
  EXPECT_EQ(result["substitutions"], 0);
  EXPECT_EQ(result["insertions"], 0);
  EXPECT_DOUBLE_EQ(result["wer"].get<double>(), double(dropped) / double(words));
}

TEST(ScoreE2E, JsonlFieldsAndMultipleReferences) {
  TempDir dir;
  write_bytes(dir / "refs.jsonl", R"({"captions": ["a dog barks", "a dog is barking loudly"]})" "\n");
  write_bytes(dir / "hyps.jsonl", R"({"caption": "a dog barking"})" "\n");
  const auto o = run_aeval("score meteor --ref " + (dir / "refs.jsonl").string() + " --ref-field captions --hyp " +
                           (dir / "hyps.jsonl").string() + " --hyp-field caption", false);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_GT(nlohmann::json::parse(o.output)["meteor"].get<double>(), 0.5);
}

TEST(ScoreE2E, MismatchedCountsNameBothFiles) {
  TempDir dir;
  write_bytes(dir / "ref.txt", "one\n");
  write_bytes(dir / "hyp.txt", "one\ntwo\n");
  const auto o = run_aeval("score bleu --ref " + (dir / "ref.txt").string() + " --hyp " + (dir / "hyp.txt").string());
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.output.find("ref.txt has 1"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("hyp.txt has 2"), std::string::npos) << o.output;
}

TEST(ScoreE2E, InvalidUtf8NamesTheByteOffset) {
  TempDir dir;
  write_bytes(dir / "ref.txt", "fine\nbad \xff byte\n");
  write_bytes(dir / "hyp.txt", "fine\nbad byte\n");
  const auto o = run_aeval("score cer --ref " + (dir / "ref.txt").string() + " --hyp " + (dir / "hyp.txt").string());
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.output.find("ref.txt:2: invalid UTF-8 at byte offset 9"), std::string::npos) << o.output;
}

TEST(ScoreE2E, UnknownMetricSuggests) {
  TempDir dir;
  write_bytes(dir / "t.txt", "a\n");
  const auto o = run_aeval("score rogue --ref " + (dir / "t.txt").string() + " --hyp " + (dir / "t.txt").string());
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.output.find("did you mean: rouge"), std::string::npos) << o.output;
}

// --normalize names a post-process of the registry and applies it as a run does: Whisper's normalizers
// (word counts by jiwer: "The Colour, of Money!" is 3 substitutions away from "the color of money"
// as written, 1 after the basic normalizer), OpenCC's simplification, an entry of the user's own
// registry, to the references too unless the entry is for answers alone.
TEST(ScoreE2E, NormalizeAppliesAPostProcessOfTheRegistryAsARunDoes) {
  TempDir dir;
  write_bytes(dir / "ref.txt", "The Colour, of Money!\nhello   WORLD\n");
  write_bytes(dir / "hyp.txt", "the color of money\nhello world\n");
  const auto wer = [&](const std::string& options) {
    const auto o = run_aeval(options + " --ref " + (dir / "ref.txt").string() + " --hyp " + (dir / "hyp.txt").string(), false);
    EXPECT_EQ(o.status, 0) << o.output;
    return o.status == 0 ? nlohmann::json::parse(o.output) : nlohmann::json{};
  };
  EXPECT_DOUBLE_EQ(wer("score wer")["wer"].get<double>(), 4.0 / 6);
  const auto basic = wer("score wer --normalize whisper-basic");
  EXPECT_DOUBLE_EQ(basic["wer"].get<double>(), 1.0 / 6);
  EXPECT_EQ(basic["normalize"], "whisper-basic");

  write_bytes(dir / "zh-ref.txt", "漢語\n");
  write_bytes(dir / "zh-hyp.txt", "汉语\n");
  const std::string zh = " --ref " + (dir / "zh-ref.txt").string() + " --hyp " + (dir / "zh-hyp.txt").string();
  const auto as_written = run_aeval("score cer" + zh, false), simplified = run_aeval("score cer --normalize to-simplified" + zh, false);
  ASSERT_EQ(simplified.status, 0) << simplified.output;
  // As written, both characters differ.
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(as_written.output)["cer"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(simplified.output)["cer"].get<double>(), 0.0);

  // The user's own entries: dropping every x from both sides, or from the answers alone.
  std::filesystem::create_directories(dir / "mine" / "post-process");
  write_bytes(dir / "mine" / "post-process" / "p.yaml",
              "drop-x:\n  class: replace\n  args:\n    pattern: x\n"
              "drop-x-in-answers:\n  class: replace\n  args:\n    pattern: x\n    apply_to: prediction\n");
  write_bytes(dir / "x-ref.txt", "ax b\n");
  write_bytes(dir / "x-hyp.txt", "ax b\n");
  const std::string x = " --ref " + (dir / "x-ref.txt").string() + " --hyp " + (dir / "x-hyp.txt").string();
  const std::string mine = "--registry " + (dir / "mine").string();
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(run_aeval(mine + " score wer --normalize drop-x" + x, false).output)["wer"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(
      nlohmann::json::parse(run_aeval(mine + " score wer --normalize drop-x-in-answers" + x, false).output)["wer"].get<double>(), 0.5);

  // A post-process that reads a sample's fields has none here: its error names the line.
  const auto fields = run_aeval("score wer --normalize choice-letter" + x);
  EXPECT_EQ(fields.status, 1);
  EXPECT_NE(fields.output.find("sample 'hypothesis line 1': post-process 'choice-letter' needs a list in field 'options'"),
            std::string::npos)
      << fields.output;

  const auto unknown = run_aeval("score wer --normalize whisper-englsh" + x);
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.output.find("unknown post-process 'whisper-englsh' (did you mean: whisper-english?)"), std::string::npos)
      << unknown.output;
}

// Whatever key its reference gives the number (jiwer's "wer", sacreBLEU's "score"), every result and every
// per-sample line repeats it as `value`, the key of a run's records.
TEST(ScoreE2E, EveryTextMetricRepeatsItsHeadlineAsValue) {
  TempDir dir;
  write_bytes(dir / "ref.txt", "the cat sat on the mat\nhello world\n");
  write_bytes(dir / "hyp.txt", "the cat sat on a mat\nhello there world\n");
  write_bytes(dir / "labels.txt", "0\n1\n0\n1\n");
  write_bytes(dir / "scores.txt", "0.1\n0.8\n0.4\n0.7\n");
  for (const auto& m : aeval::metrics::text_metrics()) {
    const bool numbers = m.input == aeval::metrics::MetricInput::numbers;
    const auto o = run_aeval("score " + m.name + " --ref " + (dir / (numbers ? "labels.txt" : "ref.txt")).string() +
                                 " --hyp " + (dir / (numbers ? "scores.txt" : "hyp.txt")).string() + " --per-sample " +
                                 (dir / "per.jsonl").string(),
                             false);
    ASSERT_EQ(o.status, 0) << m.name << ": " << o.output;
    const auto result = nlohmann::json::parse(o.output);
    ASSERT_TRUE(result.contains(m.key)) << m.name << ": " << result;
    EXPECT_EQ(result["value"], result[m.key]) << m.name;
    std::istringstream lines(aeval::testing::read_bytes(dir / "per.jsonl"));
    for (std::string line; std::getline(lines, line);) {
      const auto row = nlohmann::json::parse(line);
      if (row.contains(m.key)) {
        EXPECT_EQ(row["value"], row[m.key]) << m.name << ": " << line;
      }
    }
  }
}

}  // namespace
