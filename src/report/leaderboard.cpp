// Leaderboards from run summaries: reading them, one board per task, suites of tasks. Rendered by
// leaderboard_markdown.cpp and leaderboard_html.cpp.
#include "aeval/report/leaderboard.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <optional>
#include <set>
#include <nlohmann/json.hpp>

#include "aeval/error.hpp"
#include "aeval/metrics/catalog.hpp"
#include "report/identity_reading.hpp"

namespace aeval::report {

namespace {

using nlohmann::json;

// The catalog metric an evaluator computed, from its identity in summary.json
// (null: not a catalog metric, e.g. a judge; such columns are not averaged).
const metrics::MetricInfo* metric_of(const json& evaluator) {
  if (evaluator.contains("metric")) return metrics::find_metric(evaluator["metric"].get<std::string>());
  const std::string evaluator_class = evaluator.value("class", "");
  if (const IdentityReading* reading = identity_reading(evaluator_class); reading && reading->metric)
    return metrics::find_metric(reading->metric(evaluator));
  return metrics::find_metric(evaluator_class);  // a class named as its metric (dnsmos); older summaries
}

// An UltraEval-Audio aggregation's number (summary.json's metrics.NAME.uea) on the leaderboard's scale, by
// UEA's key: error rates in percent as 100 − x, accuracies in percent and BLEU as they are, a judge's 1-10
// score in UEA's "percent" as x / 10; none for others.
std::optional<metrics::LeaderboardScale> uea_scale(const json& metric) {
  if (!metric.contains("uea") || !metric["uea"].is_object()) return std::nullopt;
  for (const auto& [key, value] : metric["uea"].items()) {
    if (!value.is_number()) continue;
    if (key == "wer(%)" || key == "cer(%)") return metrics::LeaderboardScale{"100 − x", -1, 100};
    if (key == "acc(%)" || key == "match(%)" || key == "bleu") return metrics::LeaderboardScale{"x", 1, 0};
    // A 1-10 judge score that UEA's NaiveMean multiplied by 100 (7.4 → 740): Table 5 shows it as 74.
    if (key == "geval(%)") return metrics::LeaderboardScale{"x / 10", 0.1, 0};
    return std::nullopt;
  }
  return std::nullopt;
}

// The scoring model behind an evaluator's values, from its identity: the ASR of an error rate of output
// audio, the model a MOS, similarity or embedding score asked, a built-in one its class names; "" for none.
std::string scorer_of(const json& evaluator) {
  for (const char* key : {"asr_model", "model"})
    if (evaluator.contains(key) && evaluator[key].is_object() && evaluator[key].contains("name"))
      return evaluator[key]["name"].get<std::string>();
  const IdentityReading* reading = identity_reading(evaluator.value("class", ""));
  return reading ? reading->scorer : "";
}

// One summary.json, as much of it as a leaderboard needs.
struct RunSummary {
  std::string task, dataset, model, prompt;
  std::vector<std::pair<std::string, metrics::LeaderboardScale>> metrics;  // (evaluator name, its scale)
  std::map<std::string, bool> higher_is_better;                           // evaluator name → direction, if known
  std::map<std::string, std::string> scorers;                             // evaluator name → its scoring model
  std::set<std::string> beside;                                           // evaluators beside UEA's
  std::map<std::string, double> values;
  std::map<std::string, std::pair<double, double>> intervals;
  std::optional<double> bitrate_kbps;
  std::size_t samples = 0, failed = 0;
  bool shard = false;  // one shard of a job array: part of a run, never a row of its own
  std::string run;     // its folder, relative to the results folder
  std::size_t older = 0;  // earlier runs of the same (model, dataset, prompt) it supersedes
};

RunSummary read_summary(const std::filesystem::path& file) {
  try {
    const json s = json::parse(std::ifstream(file));
    RunSummary r;
    r.task = s.at("task");
    r.dataset = s.at("dataset");
    r.model = s.at("model");
    r.prompt = s.at("provenance").at("task").value("prompt", "");
    r.beside = s.at("provenance").at("task").value("beside_uea", std::set<std::string>{});
    r.samples = s.at("counts").at("samples");
    r.failed = s.at("counts").at("failed");
    const json selection = s.at("provenance").value("selection", json::object());
    r.shard = selection.value("shard", "0/1") != "0/1";
    const json aggregations = s.value("aggregations", json::object());
    for (const auto& evaluator : s.at("provenance").at("evaluators")) {
      const std::string name = evaluator.at("name");
      const metrics::MetricInfo* metric = metric_of(evaluator);
      metrics::LeaderboardScale scale = metric ? metric->scale : metrics::LeaderboardScale{};
      // Scores from scoring models state their scale themselves (MOS as 20·x, similarity as 100·x).
      if (evaluator.contains("scale") && evaluator["scale"].is_object())
        scale = {evaluator["scale"].value("rule", ""), evaluator["scale"].value("factor", 1.0),
                 evaluator["scale"].value("offset", 0.0)};
      if (const auto uea = uea_scale(s.at("metrics").at(name))) scale = *uea;
      r.metrics.emplace_back(name, scale);
      if (scale.factor != 0 && !scale.rule.empty())
        r.higher_is_better[name] = scale.factor > 0;
      else if (metric)
        r.higher_is_better[name] = metric->better == metrics::Better::higher;
      r.scorers[name] = scorer_of(evaluator);
      const json& v = s.at("metrics").at(name).at("value");
      if (v.is_number()) r.values[name] = v.get<double>();
      // The first aggregation that bootstrapped this metric gives its interval.
      for (const auto& [aggregator, metrics] : aggregations.items())
        if (const json* m = metrics.contains(name) ? &metrics[name] : nullptr;
            m && m->contains("interval") && !r.intervals.count(name) && (*m)["interval"]["low"].is_number() &&
            (*m)["interval"]["high"].is_number())
          r.intervals[name] = {(*m)["interval"]["low"].get<double>(), (*m)["interval"]["high"].get<double>()};
    }
    const json& model = s.at("provenance").at("model");
    if (model.is_object() && model.contains("bitrate_kbps") && model["bitrate_kbps"].is_number())
      r.bitrate_kbps = model["bitrate_kbps"].get<double>();
    return r;
  } catch (const json::exception& e) {
    throw Error(ErrorCategory::data, fmt::format("{}: not an aeval summary ({})", file.string(), e.what()));
  }
}

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
