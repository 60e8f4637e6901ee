// `aeval score` as a user runs it: strict JSON out, clear errors for bad input.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>

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

}  // namespace
