// A suite's table: a row per model, a column per task (or per name tasks share) from the tasks' boards, the metrics
// scored beside the tasks pooled as one score, and the mean (UltraEval-Audio's Table 5).
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "aeval/report/leaderboard.hpp"

namespace aeval::report {

SuiteTable build_suite_table(const std::string& suite, const std::vector<SuiteColumn>& columns,
                             const std::vector<Leaderboard>& boards) {
  SuiteTable table{suite, {}, std::vector<bool>(columns.size(), false), {}, {}, {}};
  for (const auto& c : columns) table.columns.push_back(c.name);
  std::map<std::string, const Leaderboard*> by_task;
  for (const auto& b : boards) by_task[b.task] = &b;
  std::map<std::string, SuiteTable::Row> rows;
  // Pooled metrics: per model and metric, the values over the tasks; each metric's scale.
  std::map<std::string, std::map<std::string, std::vector<double>>> pooled;
  std::map<std::string, metrics::LeaderboardScale> pooled_scale;
  for (std::size_t t = 0; t < columns.size(); ++t) {
    // Per model, the column's tasks' scores and the samples each scored (a shared column pools them).
    std::map<std::string, std::vector<std::pair<double, double>>> shared;
    for (const auto& task : columns[t].tasks) {
      const auto found = by_task.find(task);
      if (found == by_task.end()) continue;
      table.has_runs[t] = true;
      const Leaderboard& board = *found->second;
      for (std::size_t c = 0; c < board.columns.size(); ++c)
        if (board.columns[c].beside && !pooled_scale.count(board.columns[c].metric)) {
          table.beside.push_back(board.columns[c].metric);
          pooled_scale[board.columns[c].metric] = board.scales[c];
        }
      for (const auto& r : board.rows) {
        SuiteTable::Row& row = rows[r.label];
        row.model = r.label;
        row.cells.resize(columns.size());
        for (const auto& [column, value] : r.values)
          if (board.columns[column].beside) pooled[r.label][board.columns[column].metric].push_back(value);
        if (columns[t].tasks.size() > 1) {
          if (r.average) shared[r.label].emplace_back(*r.average, double(r.samples) * (1.0 - r.fail_rate));
          continue;
        }
        SuiteCell& cell = row.cells[t];
        cell.score = r.average;
        // One averaged metric with a bootstrap interval: the interval on the task's normalized scale.
        std::vector<std::size_t> averaged;
        for (const auto& [column, value] : r.values)
          if (!board.columns[column].rule.empty()) averaged.push_back(column);
        if (averaged.size() == 1 && r.intervals.count(averaged[0])) {
          const auto& scale = board.scales[averaged[0]];
          const auto [low, high] = r.intervals.at(averaged[0]);
          const double a = scale.apply(low), b = scale.apply(high);
          cell.interval = std::pair{std::min(a, b), std::max(a, b)};
        }
      }
    }
    for (const auto& [model, scores] : shared) {
      double sum = 0, weight = 0;
      for (const auto& [score, scored] : scores) sum += score * scored, weight += scored;
      if (weight > 0) rows[model].cells[t].score = sum / weight;
    }
  }
  for (auto& [model, row] : rows) {
    row.cells.resize(columns.size());
    double total = 0, normalized = 0;
    std::size_t scores = 0, scaled = 0;
    for (const auto& c : row.cells)
      if (c.score) total += *c.score, ++row.ran, ++scores;
    for (const auto& metric : table.beside) {
      const std::vector<double>& values = pooled[model][metric];
      if (values.empty()) {
        row.beside.emplace_back();
        continue;
      }
      const double mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
      row.beside.push_back(mean);
      if (!pooled_scale[metric].rule.empty()) normalized += pooled_scale[metric].apply(mean), ++scaled;
    }
    if (scaled) {
      row.beside_score = normalized / double(scaled);
      total += *row.beside_score;
      ++scores;
    }
    if (scores) row.mean = total / double(scores);
    table.rows.push_back(row);
  }
  std::stable_sort(table.rows.begin(), table.rows.end(), [](const SuiteTable::Row& a, const SuiteTable::Row& b) {
    return a.mean.value_or(-INFINITY) > b.mean.value_or(-INFINITY);
  });
  return table;
}

}  // namespace aeval::report
