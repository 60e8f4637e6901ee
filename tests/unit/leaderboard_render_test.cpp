// The leaderboard as readers read it: headers say how a column enters the
// average, rows without an average rank by the metric's own direction, every
// metric gets a chart on a round axis, and one model's bar does not fill it.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "aeval/report/leaderboard.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::TempDir;
using nlohmann::json;

// A summary.json of one run of task `task` by `model`: `metrics` maps evaluator (its class: a catalog metric) to value.
void write_run(const TempDir& dir, const std::string& task, const std::string& model, const json& metrics) {
  json evaluators = json::array(), values = json::object();
  for (const auto& [name, value] : metrics.items()) {
    evaluators.push_back({{"name", name}, {"class", name}});
    values[name] = {{"value", value}};
  }
  const json summary = {{"task", task}, {"dataset", "d"}, {"model", model},
                        {"counts", {{"samples", 4}, {"failed", 0}}}, {"metrics", values},
                        {"provenance", {{"task", {{"prompt", ""}}}, {"evaluators", evaluators}, {"model", json::object()}}}};
  const auto folder = dir / task / model / "20261127T000000Z";
  std::filesystem::create_directories(folder);
  aeval::testing::write_bytes(folder / "summary.json", summary.dump());
}

TEST(LeaderboardRender, HeadersSayHowAColumnEntersTheAverage) {
  TempDir dir;
  write_run(dir, "asr", "m", {{"wer", 0.34}});
  const std::string md = aeval::report::render_markdown(aeval::report::collect_leaderboards(dir.path()));
  EXPECT_NE(md.find("| model | wer (averaged as 100 − 100·x) | average |"), std::string::npos) << md;
  EXPECT_NE(md.find("| m | 0.34 | 66.00 |"), std::string::npos) << md;
}

TEST(LeaderboardRender, WithoutAnAverageRowsRankByTheMetricsDirection) {
  TempDir dir;
  write_run(dir, "codec", "a-model", {{"mcd", 5.0}});  // lower is better, and mcd enters no average
  write_run(dir, "codec", "b-model", {{"mcd", 2.0}});
  const auto boards = aeval::report::collect_leaderboards(dir.path());
  ASSERT_EQ(boards.at(0).rows.size(), 2u);
  EXPECT_FALSE(boards[0].rows[0].average.has_value());
  EXPECT_EQ(boards[0].rows[0].model, "b-model");
  EXPECT_EQ(boards[0].rows[1].model, "a-model");
}

TEST(LeaderboardRender, EveryMetricHasAChartOnARoundAxis) {
  TempDir dir;
  write_run(dir, "asr", "m", {{"wer", 0.34}, {"cer", 0.22}});
  const std::string html = aeval::report::render_html(aeval::report::collect_leaderboards(dir.path()));
  for (const char* chart : {"normalized average per model", "wer per model", "cer per model"})
    EXPECT_NE(html.find(chart), std::string::npos) << chart << "\n" << html;
  // wer's axis ends at 0.5, so its one bar takes 0.34 / 0.5 of the 420 pixels; the average's at 100.
  EXPECT_NE(html.find("width=\"285.6\""), std::string::npos) << html;
  EXPECT_NE(html.find("text-anchor=\"middle\">0.5</text>"), std::string::npos) << html;
  EXPECT_NE(html.find("text-anchor=\"middle\">100</text>"), std::string::npos) << html;
  EXPECT_EQ(html.find("width=\"420.0\""), std::string::npos) << "one model's bar filled its chart";
}

}  // namespace
