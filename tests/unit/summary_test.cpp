#include "report/summary.hpp"

#include <gtest/gtest.h>

namespace aeval::report {
namespace {

using nlohmann::json;

TEST(Summary, CountsFailRateAndAudioComeFromTheCounts) {
  const json metrics = {{"wer", {{"value", 0.25}, {"samples", 2}}}};
  const json aggregations = {{"by-speaker", {{"wer", {{"value", 0.25}}}}}};
  const json provenance = {{"task", {{"name", "t"}, {"model", "m"}, {"dataset", "d"}}}, {"aeval_version", "0.1.0"}};
  // Three samples, one failed; 3.5 s of audio in the two that succeeded.
  const json summary = build_summary({3, 1, 3.5}, metrics, aggregations, provenance);
  EXPECT_EQ(summary, json({{"task", "t"},
                           {"model", "m"},
                           {"dataset", "d"},
                           {"metrics", metrics},
                           {"aggregations", aggregations},
                           {"counts", {{"samples", 3}, {"succeeded", 2}, {"failed", 1}}},
                           {"fail_rate", 1.0 / 3.0},
                           {"audio_seconds", 3.5},
                           {"provenance", provenance}}));
  // summary.json's numbers as written: shortest round trip.
  EXPECT_NE(summary.dump().find(R"("fail_rate":0.3333333333333333)"), std::string::npos);
}

TEST(Summary, NoSamplesHaveNoFailRate) {
  const json provenance = {{"task", {{"name", "t"}, {"model", "m"}, {"dataset", "d"}}}};
  const json summary = build_summary(RunCounts{}, json::object(), json::object(), provenance);
  EXPECT_EQ(summary["fail_rate"], 0.0);
  EXPECT_EQ(summary["counts"], json({{"samples", 0}, {"succeeded", 0}, {"failed", 0}}));
}

TEST(SummaryTable, ShowsMetricsIntervalsGroupsAndCounts) {
  const json summary = {
      {"metrics",
       {{"wer", {{"value", 0.25}, {"hits", 6}, {"substitutions", 1}, {"deletions", 1}, {"insertions", 0},
                 {"reference_tokens", 8}}},
        {"accuracy", {{"value", nullptr}}}}},
      {"aggregations",
       {{"by-speaker",
         {{"wer",
           {{"value", 0.25},
            {"interval", {{"low", 0.1}, {"high", 0.4}, {"confidence", 0.95}}},
            {"groups", {{"speaker", {{"m", {{"value", 0.0}, {"samples", 1}}}, {"f", {{"value", 0.5}, {"samples", 1}}}}}}}}}}}}},
      {"counts", {{"samples", 3}, {"failed", 1}}},
      {"fail_rate", 1.0 / 3.0},
      {"audio_seconds", 3.5}};
  // Metrics and groups in name order; a metric without a value shows "-".
  EXPECT_EQ(format_summary_table(summary),
            "metric                value  detail\n"
            "accuracy                  -  \n"
            "wer                  0.2500  hits 6 subs 1 dels 1 ins 0 ref tokens 8\n"
            "wer                          95% interval [0.1000, 0.4000] (by-speaker)\n"
            "wer                  0.5000  speaker=f (1 samples)\n"
            "wer                  0.0000  speaker=m (1 samples)\n"
            "samples 3, failed 1 (fail_rate 0.3333); 3.5 s of audio\n");
}

// A run without a model (a dataset scored as it is) gave no model any audio: no "0.0 s of audio".
TEST(SummaryTable, NoAudioGivenToAModelIsNotShownAsZeroSeconds) {
  const json summary = {{"metrics", json::object()}, {"aggregations", json::object()},
                        {"counts", {{"samples", 2}, {"failed", 0}}}, {"fail_rate", 0.0}, {"audio_seconds", 0.0}};
  EXPECT_EQ(format_summary_table(summary), "metric                value  detail\nsamples 2, failed 0 (fail_rate 0.0000)\n");
}

}  // namespace
}  // namespace aeval::report
