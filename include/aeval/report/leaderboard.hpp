#pragma once
// Leaderboards across runs: for every task under a results folder, one row
// per model (its latest run), one column per metric, and the normalized
// average of the UltraEval-Audio paper (error rates as 100 − 100·value,
// [0, 1] scores as 100·value, BLEU as is, MOS as 20·value; unbounded scores
// such as CIDEr-D are shown but not averaged).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aeval::report {

struct LeaderboardRow {
  std::string model;
  std::filesystem::path run_dir;
  std::map<std::string, double> values;  // metric → corpus value
  std::optional<double> average;         // normalized average, when any metric normalizes
  double fail_rate = 0;
  std::size_t samples = 0;
};

struct Leaderboard {
  std::string task, dataset;
  std::vector<std::string> metrics;      // in the task's evaluator order
  std::vector<std::string> normalized;   // how each metric enters the average ("100 − 100·x", "", ...)
  std::vector<LeaderboardRow> rows;      // best normalized average first
};

// Reads every summary.json under `root`. Throws aeval::Error (data) when
// there is none, or a summary is malformed (naming the file).
std::vector<Leaderboard> collect_leaderboards(const std::filesystem::path& root);

std::string render_markdown(const std::vector<Leaderboard>& boards);
// One self-contained HTML file: tables and SVG bar charts, no scripts, no network.
std::string render_html(const std::vector<Leaderboard>& boards);

}  // namespace aeval::report
