// The leaderboard as readers read it: headers say how a column enters the
// average, rows without an average rank by the metric's own direction, every
// metric gets a chart on a round axis, one model's bar does not fill it, and a suite pools the
// acoustics scored beside its tasks.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

#include "aeval/report/leaderboard.hpp"
#include "support/reference.hpp"
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

// A run of a task defined on UltraEval-Audio: UEA's accuracy (acc(%)) and, beside it, MOS-like
// metrics (evaluators that state their scale: 20·x).
void write_spoken_run(const TempDir& dir, const std::string& task, double acc, double mos, double p808,
                      int samples = 4, int failed = 0) {
  json evaluators = json::array({{{"name", "qa-exist-match"}, {"class", "uea-qa-exist-match"}}});
  json values = {{"qa-exist-match", {{"value", acc}, {"uea", {{"acc(%)", acc}}}}}};
  for (const auto& [name, value] : {std::pair{"utmos", mos}, std::pair{"dnsmos-p808", p808}}) {
    evaluators.push_back({{"name", name}, {"class", "mos"}, {"scale", {{"rule", "20·x"}, {"factor", 20.0}, {"offset", 0.0}}}});
    values[name] = {{"value", value}};
  }
  const json summary = {
      {"task", task}, {"dataset", task}, {"model", "m"}, {"counts", {{"samples", samples}, {"failed", failed}}},
      {"metrics", values},
      {"provenance",
       {{"task", {{"prompt", ""}, {"beside_uea", {"utmos", "dnsmos-p808"}}}}, {"evaluators", evaluators}, {"model", json::object()}}}};
  const auto folder = dir / task / "m" / "20261127T000000Z";
  std::filesystem::create_directories(folder);
  aeval::testing::write_bytes(folder / "summary.json", summary.dump());
}

// Table 5: a column per task of UEA's score alone; the acoustics scored beside it pooled (each one's
// mean over the tasks), entering the average as one score, the mean of 20·x.
TEST(LeaderboardRender, ASuitePoolsTheAcousticsScoredBesideItsTasks) {
  TempDir dir;
  write_spoken_run(dir, "qa-a", 60, 4.0, 3.0);
  write_spoken_run(dir, "qa-b", 30, 3.0, 4.0);
  const auto boards = aeval::report::collect_leaderboards(dir.path());
  const auto table = aeval::report::build_suite_table("speech-out", {{"qa-a", {"qa-a"}}, {"qa-b", {"qa-b"}}}, boards);
  ASSERT_EQ(table.rows.size(), 1u);
  const auto& row = table.rows[0];
  EXPECT_EQ(*row.cells[0].score, 60) << "the task's score is UEA's alone";
  EXPECT_EQ(*row.cells[1].score, 30);
  EXPECT_EQ(table.beside, (std::vector<std::string>{"utmos", "dnsmos-p808"}));
  EXPECT_EQ(*row.beside[0], 3.5);
  EXPECT_EQ(*row.beside[1], 3.5);
  EXPECT_EQ(*row.beside_score, 70);
  EXPECT_DOUBLE_EQ(*row.mean, (60 + 30 + 70) / 3.0);
  const std::string md = aeval::report::render_suite_markdown(table);
  EXPECT_NE(md.find("| qa-a | qa-b | acoustics (utmos · dnsmos-p808) | average | tasks |"), std::string::npos) << md;
  EXPECT_NE(md.find("| m | 60.00 | 30.00 | 3.50 · 3.50 | 53.33 | 2 of 2 |"), std::string::npos) << md;
}

// Table 5's SpeechHSK: six levels in one column, as one test of all their questions: each level's
// score weighted by the samples it scored (a failed sample scores nothing).
TEST(LeaderboardRender, TasksSharingAColumnPoolTheirScoresBySamplesScored) {
  TempDir dir;
  write_spoken_run(dir, "hsk1", 80, 4.0, 3.0, 10);
  write_spoken_run(dir, "hsk2", 20, 4.0, 3.0, 40, 10);
  write_spoken_run(dir, "other", 50, 4.0, 3.0);
  const auto boards = aeval::report::collect_leaderboards(dir.path());
  const auto table =
      aeval::report::build_suite_table("speech-out", {{"hsk", {"hsk1", "hsk2"}}, {"other", {"other"}}}, boards);
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_EQ(table.columns, (std::vector<std::string>{"hsk", "other"}));
  EXPECT_DOUBLE_EQ(*table.rows[0].cells[0].score, (80 * 10 + 20 * 30) / 40.0);
  EXPECT_EQ(table.rows[0].ran, 2u);
  const std::string md = aeval::report::render_suite_markdown(table);
  EXPECT_NE(md.find("| hsk | other | acoustics (utmos · dnsmos-p808) | average | tasks |"), std::string::npos) << md;
  EXPECT_NE(md.find("| m | 35.00 | 50.00 |"), std::string::npos) << md;
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

// A row whose run scored fewer metrics (a codec run without DNSMOS beside the board's runs with it) averages
// other numbers: it is not ranked with the rows of the common set, comes after them, and the board says so.
TEST(LeaderboardRender, RowsAveragingOtherMetricsAreNotRankedWithTheRest) {
  TempDir dir;
  write_run(dir, "codec", "a-model", {{"wer", 0.2}, {"cer", 0.1}});
  write_run(dir, "codec", "b-model", {{"wer", 0.3}, {"cer", 0.1}});
  write_run(dir, "codec", "c-model", {{"wer", 0.05}});  // 95 on one metric: would top a single ranking
  const auto boards = aeval::report::collect_leaderboards(dir.path());
  ASSERT_EQ(boards.at(0).rows.size(), 3u);
  EXPECT_EQ(boards[0].rows[0].model, "a-model");
  EXPECT_EQ(boards[0].rows[1].model, "b-model");
  EXPECT_EQ(boards[0].rows[2].model, "c-model");
  EXPECT_FALSE(boards[0].rows[2].ranked);
  EXPECT_TRUE(boards[0].rows[0].ranked);
  const std::string md = aeval::report::render_markdown(boards);
  EXPECT_NE(md.find("| c-model | – | 0.05 | 95.00* |"), std::string::npos) << md;
  EXPECT_NE(md.find("Not one ranking: the rows average different metrics: ranked by the average of cer, wer; not ranked "
                    "with them, after them (marked *): c-model (wer)."),
            std::string::npos)
      << md;
  EXPECT_NE(aeval::report::render_html(boards).find("Not one ranking"), std::string::npos);

  write_run(dir, "codec", "c-model", {{"wer", 0.05}, {"cer", 0.0}});  // the same metrics now: one ranking
  const auto same = aeval::report::collect_leaderboards(dir.path());
  EXPECT_EQ(same[0].rows[0].model, "c-model");
  EXPECT_TRUE(same[0].mixed_metrics.empty());
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


// The rows of a table of seed 004 (UltraEval-Audio) as its text prints them, from the line after `header` to the
// first empty line: each row's cells, tab-separated, bold marks removed.
std::vector<std::vector<std::string>> seed_four_rows(const std::string& header) {
  const auto paper = aeval::testing::reference_dir().parent_path() / "seeds" / "004_f2fe1996ab8ff704.txt";
  std::ifstream in(paper);
  std::vector<std::vector<std::string>> rows;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (!inside) {
      inside = line.rfind(header, 0) == 0;
      continue;
    }
    line = std::regex_replace(line, std::regex("</?b>"), "");
    if (line.empty()) break;
    std::vector<std::string> cells;
    for (std::size_t at = 0, tab; at <= line.size(); at = tab + 1) {
      tab = std::min(line.find('\t', at), line.size());
      cells.push_back(line.substr(at, tab - at));
    }
    if (cells.size() > 2 && std::isdigit(static_cast<unsigned char>(cells[1].back()))) rows.push_back(cells);
  }
  return rows;
}

// "4.29   3.44   4.26" (a cell of three numbers, "-" where none): the numbers.
std::vector<std::optional<double>> numbers_in(const std::string& cell) {
  std::vector<std::optional<double>> out;
  std::istringstream words(cell);
  for (std::string w; words >> w;) out.push_back(w == "-" ? std::nullopt : std::optional<double>(std::stod(w)));
  return out;
}

// Seed 004's Table 5, as printed, through aeval's suite table: each model's five accuracies as its tasks' UEA
// scores and the acoustics (UTMOS, DNSMOS P.835, P.808) scored beside them; the suite's average is the printed
// Avg. Score (the mean of the five and of the acoustics as one score, the mean of 20·MOS), to the printed
// precision: half a unit of the Avg's last digit plus the printed inputs' own rounding.
TEST(LeaderboardRender, SeedFoursTableFiveAveragesAreTheSuitesAverages) {
  const auto rows = seed_four_rows("Models\tSpeech WebQuestions");
  AEVAL_REQUIRE(!rows.empty(), "../shared/seeds (seed 004's text)");
  ASSERT_EQ(rows.size(), 6u) << "Table 5's six models";
  TempDir dir;
  const std::vector<std::string> tasks = {"speech-web-questions", "speech-triviaqa", "speech-alpaca-eval", "speech-cmmlu",
                                          "speech-hsk"};
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 8u) << row[0];
    const auto acoustics = numbers_in(row[6]);
    ASSERT_EQ(acoustics.size(), 3u) << row[0];
    for (std::size_t t = 0; t < tasks.size(); ++t) {
      json evaluators = json::array({{{"name", "acc"}, {"class", "uea-qa-exist-match"}}});
      const double acc = std::stod(row[1 + t]);
      json values = {{"acc", {{"value", acc}, {"uea", {{"acc(%)", acc}}}}}};
      const char* names[] = {"utmos", "dnsmos", "dnsmos-p808"};
      for (std::size_t k = 0; k < 3; ++k) {
        evaluators.push_back({{"name", names[k]}, {"class", "mos"}, {"scale", {{"rule", "20·x"}, {"factor", 20.0}, {"offset", 0.0}}}});
        values[names[k]] = {{"value", *acoustics[k]}};
      }
      const json summary = {{"task", tasks[t]}, {"dataset", tasks[t]}, {"model", row[0]},
                            {"counts", {{"samples", 100}, {"failed", 0}}}, {"metrics", values},
                            {"provenance", {{"task", {{"prompt", ""}, {"beside_uea", {"utmos", "dnsmos", "dnsmos-p808"}}}},
                                            {"evaluators", evaluators}, {"model", json::object()}}}};
      const auto folder = dir / tasks[t] / row[0] / "20261127T000000Z";
      std::filesystem::create_directories(folder);
      aeval::testing::write_bytes(folder / "summary.json", summary.dump());
    }
  }
  std::vector<aeval::report::SuiteColumn> columns;
  for (const auto& t : tasks) columns.push_back({t, {t}});
  const auto table = aeval::report::build_suite_table("speech-out", columns, aeval::report::collect_leaderboards(dir.path()));
  ASSERT_EQ(table.rows.size(), rows.size());
  const double rounding = 0.005 + (5 * 0.005 + 20 * 0.005) / 6;  // the Avg's digit; five accuracies, the acoustics
  for (const auto& row : rows) {
    const auto it = std::find_if(table.rows.begin(), table.rows.end(), [&](const auto& r) { return r.model == row[0]; });
    ASSERT_NE(it, table.rows.end()) << row[0];
    ASSERT_TRUE(it->mean) << row[0];
    EXPECT_NEAR(*it->mean, std::stod(row[7]), rounding) << row[0];
  }
}

// Seed 004's Table 6, as printed: each codec's Avg. Score is the mean of its nine scores, per dataset 100 − WER
// (CER), SIM and the acoustic score (the mean of 20·MOS over the values printed, "-" ignored), to the printed
// precision. aeval's codec board averages its columns, not these nine; this holds the paper's own arithmetic.
TEST(LeaderboardRender, SeedFoursTableSixAveragesAreTheMeansOfNineScores) {
  const auto rows = seed_four_rows("Models\tLibriSpeech-dev-clean");
  AEVAL_REQUIRE(!rows.empty(), "../shared/seeds (seed 004's text)");
  ASSERT_EQ(rows.size(), 9u) << "Table 6's nine codecs";
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 11u) << row[0];
    double sum = 0, rounding = 0;
    for (std::size_t dataset = 0; dataset < 3; ++dataset) {
      sum += 100 - std::stod(row[1 + 3 * dataset]) + std::stod(row[2 + 3 * dataset]);
      double acoustic = 0;
      int printed = 0;
      for (const auto& v : numbers_in(row[3 + 3 * dataset]))
        if (v) acoustic += 20 * *v, ++printed;
      sum += acoustic / printed;
      rounding += 2 * 0.005 + 20 * 0.005;
    }
    EXPECT_NEAR(sum / 9, std::stod(row[10]), 0.005 + rounding / 9) << row[0];
  }
}

}  // namespace
