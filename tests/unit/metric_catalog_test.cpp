// The metric catalog: one name per metric, old spellings as aliases, input
// checks shared by `aeval score` and the evaluators, sacreBLEU's handling of
// a varying number of references.
#include <gtest/gtest.h>

#include <set>

#include "aeval/error.hpp"
#include "aeval/metrics/catalog.hpp"

namespace {

using namespace aeval::metrics;

TEST(MetricCatalog, NamesAndAliasesAreUniqueAcrossAllMetrics) {
  std::set<std::string> seen;
  const auto claim = [&](const MetricInfo& m) {
    EXPECT_TRUE(seen.insert(m.name).second) << m.name;
    for (const auto& a : m.aliases) EXPECT_TRUE(seen.insert(a).second) << a;
    EXPECT_FALSE(m.summary.empty()) << m.name;
    EXPECT_FALSE(m.reference.empty()) << m.name;
  };
  for (const auto& m : text_metrics()) claim(m);
  for (const auto& m : signal_metrics()) claim(m);
}

TEST(MetricCatalog, OldSpellingsFindTheMetricWithANote) {
  std::string note;
  const TextMetric* m = find_text_metric("cider_d", &note);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->name, "cider-d");
  EXPECT_NE(note.find("'cider_d' is now called 'cider-d'"), std::string::npos) << note;
  note.clear();
  EXPECT_EQ(find_text_metric("rouge", &note)->name, "rouge-l");
  EXPECT_FALSE(note.empty());
  note.clear();
  EXPECT_EQ(find_metric("si-sdr", &note)->input, MetricInput::audio);
  EXPECT_TRUE(note.empty()) << "a current name is not renamed";
  EXPECT_EQ(find_metric("rogue"), nullptr);
}

TEST(MetricCatalog, EveryParameterAMetricNamesExists) {
  for (const auto& m : text_metrics())
    EXPECT_NO_THROW(m.parameter_values(TextMetricOptions{})) << m.name;
}

TEST(MetricCatalog, ReferenceCountsAreCheckedWithTheSegmentNamed) {
  const TextMetric& wer = *find_text_metric("wer");
  try {
    wer.score({{"a", "b"}, {{"a"}, {"b", "c"}}}, {});
    FAIL() << "two references for WER";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("segment 2 has 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(find_text_metric("meteor")->score({{"a"}, {{}}}, {}), aeval::Error);
  EXPECT_THROW(find_text_metric("bleu")->score({{"a", "b"}, {{"a"}}}, {}), aeval::Error);
}

// sacreBLEU drops empty references, so a segment may have fewer; the
// signature then says nrefs:var. A segment with none left is an error.
TEST(MetricCatalog, BleuAndChrfTakeAVaryingNumberOfReferencesAsSacrebleuDoes) {
  for (const char* name : {"bleu", "chrf"}) {
    const TextMetric& m = *find_text_metric(name);
    const auto varying = m.score({{"the cat sat on the mat", "a dog"}, {{"the cat sat on a mat", "a cat on the mat"}, {"a dog"}}}, {});
    const auto padded = m.score({{"the cat sat on the mat", "a dog"}, {{"the cat sat on a mat", "a cat on the mat"}, {"a dog", ""}}}, {});
    EXPECT_EQ(varying["score"], padded["score"]) << name;
    EXPECT_NE(varying["signature"].get<std::string>().find("nrefs:var"), std::string::npos) << name;
    EXPECT_THROW(m.score({{"a"}, {{""}}}, {}), aeval::Error) << name;
  }
}

TEST(MetricCatalog, CorpusOnlyMetricsFillInTheirSegments) {
  std::vector<nlohmann::json> per_segment;
  const auto r = find_text_metric("cider-d")->score({{"a b c d", "e f g h"}, {{"a b c d"}, {"e f g h"}}}, {}, &per_segment);
  ASSERT_EQ(per_segment.size(), 2u);
  EXPECT_DOUBLE_EQ(r["cider_d"].get<double>(),
                   (per_segment[0]["cider_d"].get<double>() + per_segment[1]["cider_d"].get<double>()) / 2);
}

}  // namespace
