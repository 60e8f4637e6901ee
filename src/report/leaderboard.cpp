// Leaderboards from run summaries (read by run_summary.cpp): one board per task, the runs of a results folder
// gathered (a suite's table: suite_table.cpp). Rendered by leaderboard_markdown.cpp and leaderboard_html.cpp.
#include "aeval/report/leaderboard.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "aeval/error.hpp"
#include "aeval/metrics/catalog.hpp"
#include "report/run_summary.hpp"

namespace aeval::report {

namespace {

// Per model and column, across the prompts the model ran with (rows are in (model, prompt) order).
std::vector<PromptSpread> prompt_spreads(const std::vector<LeaderboardRow>& rows) {
  std::map<std::pair<std::string, std::size_t>, std::vector<double>> values;
  for (const auto& r : rows)
    for (const auto& [column, value] : r.values) values[{r.model, column}].push_back(value);
  std::vector<PromptSpread> out;
  for (const auto& [key, v] : values) {
    if (v.size() < 2) continue;
    PromptSpread s{key.first, key.second, v.size(), *std::min_element(v.begin(), v.end()),
                   *std::max_element(v.begin(), v.end())};
    for (double x : v) s.mean += x / double(v.size());
    double squares = 0;
    for (double x : v) squares += (x - s.mean) * (x - s.mean);
    s.sd = std::sqrt(squares / double(v.size() - 1));
    out.push_back(s);
  }
  return out;
}

// The metrics a row's average is of: its columns that normalize and are not scored beside.
std::set<std::size_t> averaged_columns(const Leaderboard& board, const LeaderboardRow& row) {
  std::set<std::size_t> columns;
  for (const auto& [column, value] : row.values)
    if (!board.scales[column].rule.empty() && !board.columns[column].beside) columns.insert(column);
  return columns;
}

// Averages of different metric sets are not comparable (2 metrics against 4): the set most rows share (the
// larger on a tie) is ranked; a row averaging another set is marked unranked. Says so, or "" when all agree.
std::string rank_only_like_averages(Leaderboard& board) {
  std::map<std::set<std::size_t>, std::size_t> rows_with;
  for (const auto& r : board.rows)
    if (r.average) ++rows_with[averaged_columns(board, r)];
  if (rows_with.size() < 2) return "";
  const auto ranked = std::max_element(rows_with.begin(), rows_with.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second < b.second : a.first.size() < b.first.size();
  })->first;
  const auto names = [&](const std::set<std::size_t>& columns) {
    std::vector<std::string> out;
    for (const auto c : columns) out.push_back(board.columns[c].metric);
    return fmt::format("{}", fmt::join(out, ", "));
  };
  std::vector<std::string> others;
  for (auto& r : board.rows) {
    if (!r.average) continue;
    const auto columns = averaged_columns(board, r);
    if (columns == ranked) continue;
    r.ranked = false;
    others.push_back(fmt::format("{} ({})", r.label, names(columns)));
  }
  return fmt::format("the rows average different metrics: ranked by the average of {}; not ranked with them, after "
                     "them (marked *): {}",
                     names(ranked), fmt::join(others, "; "));
}

Leaderboard build_board(const std::string& task, const std::vector<RunSummary>& runs) {
  Leaderboard board;
  board.task = task;
  std::map<std::pair<std::string, std::string>, std::size_t> column_of;  // (dataset, metric) → column
  for (const auto& r : runs)
    if (std::find(board.datasets.begin(), board.datasets.end(), r.dataset) == board.datasets.end())
      board.datasets.push_back(r.dataset);
  std::sort(board.datasets.begin(), board.datasets.end());
  std::vector<metrics::LeaderboardScale> scales;
  for (const auto& dataset : board.datasets) {
    for (const auto& r : runs) {
      if (r.dataset != dataset) continue;
      for (const auto& [metric, scale] : r.metrics) {
        const std::string& by = r.scorers.at(metric);
        if (const auto [at, added] = column_of.try_emplace({dataset, metric}, board.columns.size()); added) {
          scales.push_back(scale);
          const auto direction = r.higher_is_better.find(metric);
          board.columns.push_back({dataset, metric, scale.rule, by,
                                   direction == r.higher_is_better.end() ? std::nullopt
                                                                         : std::optional<bool>(direction->second),
                                   r.beside.count(metric) > 0});
        } else if (auto& scorer = board.columns[at->second].scorer; scorer != by && scorer.rfind("mixed: ", 0) != 0) {
          // Runs scored by different models share the column: the table says so rather than hide it.
          scorer = fmt::format("mixed: {} and {}", scorer.empty() ? "none" : scorer, by.empty() ? "none" : by);
        }
      }
    }
  }
  std::map<std::pair<std::string, std::string>, LeaderboardRow> rows;  // (model, prompt) → row
  std::map<std::pair<std::string, std::string>, std::size_t> failed;
  std::set<std::string> prompts;
  for (const auto& r : runs) {
    LeaderboardRow& row = rows[{r.model, r.prompt}];
    row.model = r.model;
    row.prompt = r.prompt;
    prompts.insert(r.prompt);
    row.samples += r.samples;
    row.runs.push_back(r.run);
    row.older_runs += r.older;
    failed[{r.model, r.prompt}] += r.failed;
    if (r.bitrate_kbps) row.bitrate_kbps = r.bitrate_kbps;
    for (const auto& [metric, value] : r.values) row.values[column_of.at({r.dataset, metric})] = value;
    for (const auto& [metric, interval] : r.intervals) row.intervals[column_of.at({r.dataset, metric})] = interval;
  }
  board.scales = scales;
  for (auto& [key, row] : rows) {
    row.label = prompts.size() > 1 ? fmt::format("{} (prompt {})", row.model, row.prompt.empty() ? "none" : row.prompt)
                                   : row.model;
    row.fail_rate = row.samples ? double(failed[key]) / double(row.samples) : 0.0;
    double total = 0;
    int averaged = 0;
    for (const auto& [column, value] : row.values)
      if (!scales[column].rule.empty() && !board.columns[column].beside) total += scales[column].apply(value), ++averaged;
    if (averaged) row.average = total / averaged;
    board.rows.push_back(row);
  }
  board.prompt_spreads = prompt_spreads(board.rows);
  board.mixed_metrics = rank_only_like_averages(board);
  const bool averaged = std::any_of(board.rows.begin(), board.rows.end(), [](const auto& r) { return r.average; });
  // Without an average, the first column whose direction is known ranks the rows (missing values last).
  const auto ranking = std::find_if(board.columns.begin(), board.columns.end(),
                                    [](const LeaderboardColumn& c) { return c.higher_is_better.has_value(); });
  const std::size_t column = std::size_t(ranking - board.columns.begin());
  const auto key = [&](const LeaderboardRow& r) -> double {
    if (averaged) return r.average.value_or(-INFINITY);
    if (ranking == board.columns.end() || !r.values.count(column)) return -INFINITY;
    return *ranking->higher_is_better ? r.values.at(column) : -r.values.at(column);
  };
  // Rows averaging other metrics come after the ranked ones.
  std::stable_sort(board.rows.begin(), board.rows.end(), [&](const LeaderboardRow& a, const LeaderboardRow& b) {
    return a.ranked != b.ranked ? a.ranked : key(a) > key(b);
  });
  return board;
}

}  // namespace

bool Leaderboard::has_bitrates() const {
  return std::count_if(rows.begin(), rows.end(), [](const auto& r) { return r.bitrate_kbps.has_value(); }) >= 2;
}

std::vector<Leaderboard> collect_leaderboards(const std::filesystem::path& root,
                                              const std::function<bool(const std::filesystem::path&)>& usable) {
  if (!std::filesystem::is_directory(root))
    throw Error(ErrorCategory::data, fmt::format("{} is not a folder of results", root.string()));
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.path().filename() == "summary.json") files.push_back(e.path());
  if (files.empty()) throw Error(ErrorCategory::data, fmt::format("no summary.json under {}", root.string()));
  // Run ids are UTC timestamps: later runs sort later, whatever folders hold them.
  std::sort(files.begin(), files.end(), [](const std::filesystem::path& a, const std::filesystem::path& b) {
    const auto id_a = a.parent_path().filename(), id_b = b.parent_path().filename();
    return id_a != id_b ? id_a < id_b : a < b;
  });
  // The latest run of each (task, model, dataset, prompt).
  std::map<std::string, std::map<std::tuple<std::string, std::string, std::string>, RunSummary>> latest;
  for (const auto& file : files) {
    if (usable && !usable(file.parent_path())) continue;
    RunSummary r;
    try {
      r = read_summary(file);
    } catch (const Error&) {
      if (!usable) throw;
      continue;
    }
    if (r.shard) continue;  // its merge is the run
    r.run = file.parent_path().lexically_relative(root).generic_string();
    auto [at, first] = latest[r.task].try_emplace({r.model, r.dataset, r.prompt}, r);
    if (!first) {
      r.older = at->second.older + 1;
      at->second = std::move(r);
    }
  }
  if (latest.empty() && usable) return {};  // none usable: no board
  if (latest.empty())
    throw Error(ErrorCategory::data, fmt::format("the runs under {} are all shards of job arrays, parts of runs: join "
                                                 "each run's shards with `aeval merge` and report the merged run",
                                                 root.string()));
  std::vector<Leaderboard> out;
  for (const auto& [task, by_model] : latest) {
    std::vector<RunSummary> runs;
    for (const auto& [key, r] : by_model) runs.push_back(r);
    out.push_back(build_board(task, runs));
  }
  return out;
}

}  // namespace aeval::report
