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
#include "aeval/version.hpp"

namespace aeval::report {

namespace {

using nlohmann::json;

// The catalog metric an evaluator computed, from its identity in summary.json
// (null: not a catalog metric, e.g. a judge; such columns are not averaged).
const metrics::MetricInfo* metric_of(const json& evaluator) {
  if (evaluator.contains("metric")) return metrics::find_metric(evaluator["metric"].get<std::string>());
  const std::string evaluator_class = evaluator.value("class", "");
  if (evaluator_class == "error_rate" || evaluator_class == "asr_error_rate")
    return metrics::find_metric(evaluator.value("unit", "words") == "chars" ? "cer" : "wer");
  return metrics::find_metric(evaluator_class);  // summaries written before metrics had one name
}

// The scoring model behind an evaluator's values, from its identity: the ASR of an error rate of output
// audio, the model a MOS, similarity or embedding score asked, the built-in DNSMOS; "" for none.
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

std::string scorer_of(const json& evaluator) {
  for (const char* key : {"asr_model", "model"})
    if (evaluator.contains(key) && evaluator[key].is_object() && evaluator[key].contains("name"))
      return evaluator[key]["name"].get<std::string>();
  if (evaluator.value("class", "") == "dnsmos") return "DNSMOS (built in, official weights)";
  return "";
}

std::string number(double v) { return fmt::format("{:.4g}", v); }

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
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
  std::stable_sort(board.rows.begin(), board.rows.end(),
                   [&](const LeaderboardRow& a, const LeaderboardRow& b) { return key(a) > key(b); });
  return board;
}

// A column's header: the metric, prefixed by its dataset when the board has several.
std::string column_title(const Leaderboard& b, const LeaderboardColumn& c) {
  return b.datasets.size() > 1 ? fmt::format("{}: {}", c.dataset, c.metric) : c.metric;
}

std::string value_text(const LeaderboardRow& r, std::size_t column) {
  const auto it = r.values.find(column);
  return it == r.values.end() ? "–" : number(it->second);
}

std::string bitrate_text(const LeaderboardRow& r) { return r.bitrate_kbps ? number(*r.bitrate_kbps) : "–"; }

std::string datasets_text(const Leaderboard& b) {
  return fmt::format("{}", fmt::join(b.datasets, ", "));
}

std::string verdict(const PublishedCheck& c) {
  return !c.run_value ? "not run" : c.reproduced() ? "reproduced" : "DEVIATES";
}

std::string signed_number(double v) { return fmt::format("{:+.4g}", v); }

std::string spreads_markdown(const Leaderboard& b) {
  if (b.prompt_spreads.empty()) return "";
  std::string out = "\nPrompt sensitivity (each model's latest run per prompt):\n\n"
                    "| model | metric | prompts | min | max | max − min | sd |\n|---|---|---:|---:|---:|---:|---:|\n";
  for (const auto& s : b.prompt_spreads)
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", markdown_cell(s.model),
                       markdown_cell(column_title(b, b.columns[s.column])), s.prompts, number(s.min), number(s.max),
                       number(s.max - s.min), number(s.sd));
  return out;
}

std::string published_markdown(const Leaderboard& b) {
  if (b.published.empty()) return "";
  std::string out = "\nPublished numbers (DEVIATES: further from the published value than its tolerance):\n\n"
                    "| model | metric | published | this run | difference | tolerance | verdict | source |\n"
                    "|---|---|---:|---:|---:|---:|---|---|\n";
  for (const auto& c : b.published)
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_cell(c.row),
                       markdown_cell(c.published.metric), number(c.published.value),
                       c.run_value ? number(*c.run_value) : "–",
                       c.run_value ? signed_number(*c.run_value - c.published.value) : "–",
                       number(c.published.tolerance), verdict(c), markdown_cell(c.published.source));
  return out;
}

std::string spreads_html(const Leaderboard& b) {
  if (b.prompt_spreads.empty()) return "";
  std::string out = "<table class=\"spread\">\n<caption>Prompt sensitivity</caption>\n<thead><tr><th>model</th>"
                    "<th>metric</th><th>prompts</th><th>min</th><th>max</th><th>max − min</th><th>sd</th></tr></thead>\n"
                    "<tbody>\n";
  for (const auto& s : b.prompt_spreads)
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       escape(s.model), escape(column_title(b, b.columns[s.column])), s.prompts, number(s.min),
                       number(s.max), number(s.max - s.min), number(s.sd));
  return out + "</tbody>\n</table>\n";
}

std::string published_html(const Leaderboard& b) {
  if (b.published.empty()) return "";
  std::string out = "<table class=\"published\">\n<caption>Published numbers</caption>\n<thead><tr><th>model</th>"
                    "<th>metric</th><th>published</th><th>this run</th><th>difference</th><th>tolerance</th>"
                    "<th>verdict</th><th>source</th></tr></thead>\n<tbody>\n";
  for (const auto& c : b.published)
    out += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                       "</tr>\n",
                       c.deviates() ? " class=\"deviates\"" : "", escape(c.row), escape(c.published.metric),
                       number(c.published.value), c.run_value ? number(*c.run_value) : "–",
                       c.run_value ? signed_number(*c.run_value - c.published.value) : "–",
                       number(c.published.tolerance), verdict(c), escape(c.published.source));
  return out + "</tbody>\n</table>\n";
}

}  // namespace

bool Leaderboard::has_bitrates() const {
  return std::count_if(rows.begin(), rows.end(), [](const auto& r) { return r.bitrate_kbps.has_value(); }) >= 2;
}

std::vector<Leaderboard> collect_leaderboards(const std::filesystem::path& root) {
  if (!std::filesystem::is_directory(root))
    throw Error(ErrorCategory::data, fmt::format("{} is not a folder of results", root.string()));
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.path().filename() == "summary.json") files.push_back(e.path());
  if (files.empty()) throw Error(ErrorCategory::data, fmt::format("no summary.json under {}", root.string()));
  std::sort(files.begin(), files.end());  // run ids are UTC timestamps: later runs sort later
  // The latest run of each (task, model, dataset, prompt).
  std::map<std::string, std::map<std::tuple<std::string, std::string, std::string>, RunSummary>> latest;
  for (const auto& file : files) {
    RunSummary r = read_summary(file);
    if (r.shard) continue;  // its merge is the run
    latest[r.task][{r.model, r.dataset, r.prompt}] = std::move(r);
  }
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

// Which model produced each column's scores, under the table (nothing when no column asked one).
std::string scorers_markdown(const Leaderboard& b) {
  std::vector<std::string> parts;
  for (const auto& c : b.columns)
    if (!c.scorer.empty()) parts.push_back(fmt::format("{}: {}", markdown_cell(column_title(b, c)), markdown_cell(c.scorer)));
  return parts.empty() ? "" : fmt::format("\nScored by: {}.\n", fmt::join(parts, "; "));
}

std::string render_markdown(const std::vector<Leaderboard>& boards) {
  std::string out = fmt::format("# aeval leaderboard\n\naeval {} ({}). Rows: each model's latest run per dataset; "
                                "average: the mean of the metrics marked \"averaged as\", each on that scale.\n",
                                kVersion, kGitCommit);
  for (const auto& b : boards) {
    const bool kbps = b.has_bitrates();
    out += fmt::format("\n## {} (dataset {})\n\n| model |{}", markdown_cell(b.task), markdown_cell(datasets_text(b)),
                       kbps ? " kbps |" : "");
    for (const auto& c : b.columns)
      out += fmt::format(" {}{} |", markdown_cell(column_title(b, c)), c.rule.empty() ? "" : " (averaged as " + c.rule + ")");
    out += fmt::format(" average | samples | fail rate |\n|---|{}", kbps ? "---:|" : "");
    for (std::size_t i = 0; i < b.columns.size(); ++i) out += "---:|";
    out += "---:|---:|---:|\n";
    for (const auto& r : b.rows) {
      out += fmt::format("| {} |{}", markdown_cell(r.label), kbps ? fmt::format(" {} |", bitrate_text(r)) : "");
      for (std::size_t i = 0; i < b.columns.size(); ++i) out += fmt::format(" {} |", value_text(r, i));
      out += fmt::format(" {} | {} | {:.3f} |\n", r.average ? fmt::format("{:.2f}", *r.average) : "–", r.samples,
                         r.fail_rate);
    }
    out += scorers_markdown(b) + spreads_markdown(b) + published_markdown(b);
  }
  return out;
}

SuiteTable build_suite_table(const std::string& suite, const std::vector<SuiteColumn>& columns,
                             const std::vector<Leaderboard>& boards) {
  SuiteTable table{suite, {}, std::vector<bool>(columns.size(), false), {}, {}};
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

namespace {

std::string cell_text(const SuiteCell& c) {
  if (!c.score) return "–";
  return c.interval ? fmt::format("{:.2f} [{:.2f}, {:.2f}]", *c.score, c.interval->first, c.interval->second)
                    : fmt::format("{:.2f}", *c.score);
}

const char* kSuiteExplanation =
    "Each task column is the task's normalized average (100 − 100·error rate, 100·accuracy, BLEU, 20·MOS, ...) from "
    "the model's latest run, with its bootstrap interval where the task has one averaged metric run with one; "
    "average: their mean over the tasks the model ran.";
const char* kBesideExplanation =
    " Metrics scored beside the tasks' own (acoustics of the answers) are each averaged over the tasks and enter "
    "the average as one more score: the mean of their normalized values.";

std::string beside_title(const SuiteTable& table) {
  std::string names;
  for (const auto& m : table.beside) names += (names.empty() ? "" : " · ") + m;
  return "acoustics (" + names + ")";
}

std::string beside_text(const SuiteTable::Row& r) {
  std::string out;
  for (const auto& v : r.beside) out += (out.empty() ? "" : " · ") + (v ? fmt::format("{:.2f}", *v) : std::string("–"));
  return out;
}

}  // namespace

std::string render_suite_markdown(const SuiteTable& table) {
  const bool pooled = !table.beside.empty();
  std::string out = fmt::format("# suite {}\n\naeval {} ({}). {}{}\n\n| model |", markdown_cell(table.suite), kVersion,
                                kGitCommit, kSuiteExplanation, pooled ? kBesideExplanation : "");
  for (std::size_t t = 0; t < table.columns.size(); ++t)
    out += fmt::format(" {}{} |", markdown_cell(table.columns[t]), table.has_runs[t] ? "" : " (no runs)");
  if (pooled) out += fmt::format(" {} |", markdown_cell(beside_title(table)));
  out += " average | tasks |\n|---|";
  for (std::size_t i = 0; i < table.columns.size() + (pooled ? 1 : 0); ++i) out += "---:|";
  out += "---:|---:|\n";
  for (const auto& r : table.rows) {
    out += fmt::format("| {} |", markdown_cell(r.model));
    for (const auto& c : r.cells) out += fmt::format(" {} |", cell_text(c));
    if (pooled) out += fmt::format(" {} |", beside_text(r));
    out += fmt::format(" {} | {} of {} |\n", r.mean ? fmt::format("{:.2f}", *r.mean) : "–", r.ran, table.columns.size());
  }
  return out;
}

namespace {

// The smallest 1, 2 or 5 × 10^k at least `v` (> 0): the end of a chart's axis, or a step between its ticks.
double nice_ceiling(double v) {
  const double power = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * power >= v * (1 - 1e-9)) return m * power;
  return 10 * power;
}

// A bar per model of `what` (nullopt: no value), on an axis from 0 to `top`, which is marked: one model's
// bar does not fill the width unless its value is the axis's end.
std::string bar_chart(const Leaderboard& b, const std::string& what,
                      const std::vector<std::optional<double>>& values, double top) {
  constexpr int kLabel = 220, kWidth = 420, kBar = 22;
  const int height = 40 + kBar * int(values.size());
  std::string out = fmt::format(
      "<svg class=\"chart\" role=\"img\" aria-label=\"{0}: {1} per model\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"{2}\" height=\"{3}\">\n<text x=\"0\" y=\"14\" font-size=\"13\">{1}</text>\n",
      escape(b.task), escape(what), kLabel + kWidth + 70, height);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const int y = 22 + kBar * int(i);
    const double v = values[i].value_or(0);
    const double w = top > 0 ? kWidth * std::min(1.0, std::fabs(v) / top) : 0;
    out += fmt::format("<text x=\"0\" y=\"{}\" font-size=\"12\">{}</text><rect x=\"{}\" y=\"{}\" width=\"{:.1f}\" "
                       "height=\"{}\" fill=\"#4a78b5\"/><text x=\"{:.1f}\" y=\"{}\" font-size=\"12\">{}</text>\n",
                       y + 15, escape(b.rows[i].label), kLabel, y + 2, w, kBar - 6, kLabel + w + 4, y + 15,
                       values[i] ? number(v) : "–");
  }
  const int axis = 22 + kBar * int(values.size()) + 2;
  return out + fmt::format(
                   "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#999\"/>"
                   "<text x=\"{0}\" y=\"{3}\" font-size=\"11\" text-anchor=\"middle\">0</text>"
                   "<text x=\"{2}\" y=\"{3}\" font-size=\"11\" text-anchor=\"middle\">{4}</text>\n</svg>\n",
                   kLabel, axis, kLabel + kWidth, axis + 13, number(top));
}

// The normalized average's chart (on 0–100, the scale every rule maps to), then, on a board
// without bitrates, one chart per column.
std::string bar_charts(const Leaderboard& b) {
  std::string out;
  std::vector<std::optional<double>> averages;
  for (const auto& r : b.rows) averages.push_back(r.average);
  if (std::any_of(averages.begin(), averages.end(), [](const auto& v) { return v.has_value(); })) {
    double top = 100;
    for (const auto& v : averages) top = std::max(top, v ? nice_ceiling(std::fabs(*v)) : 0.0);
    out += bar_chart(b, "normalized average", averages, top);
  }
  if (b.has_bitrates()) return out;
  for (std::size_t c = 0; c < b.columns.size(); ++c) {
    std::vector<std::optional<double>> values;
    double largest = 0;
    for (const auto& r : b.rows) {
      const auto it = r.values.find(c);
      values.push_back(it == r.values.end() ? std::nullopt : std::optional<double>(it->second));
      if (it != r.values.end()) largest = std::max(largest, std::fabs(it->second));
    }
    if (largest > 0) out += bar_chart(b, column_title(b, b.columns[c]), values, nice_ceiling(largest));
  }
  return out;
}

// One column against bitrate (log scale), a labelled point per codec.
std::string bitrate_chart(const Leaderboard& b, std::size_t column) {
  std::vector<std::tuple<double, double, std::string>> points;  // kbps, value, model
  for (const auto& r : b.rows)
    if (r.bitrate_kbps && *r.bitrate_kbps > 0 && r.values.count(column))
      points.emplace_back(*r.bitrate_kbps, r.values.at(column), r.label);
  if (points.size() < 2) return "";
  double x0 = INFINITY, x1 = -INFINITY, y0 = 0, y1 = -INFINITY;
  for (const auto& [kbps, v, model] : points) {
    x0 = std::min(x0, std::floor(std::log2(kbps))), x1 = std::max(x1, std::ceil(std::log2(kbps)));
    y0 = std::min(y0, v), y1 = std::max(y1, v);
  }
  if (x1 <= x0) x1 = x0 + 1;
  if (y1 <= y0) y1 = y0 + 1;
  // The value axis from and to multiples of a round step (1, 2 or 5 × 10^k), about four of them.
  const double step = nice_ceiling((y1 - y0) / 4);
  y0 = std::floor(y0 / step + 1e-9) * step, y1 = std::ceil(y1 / step - 1e-9) * step;
  constexpr double kLeft = 60, kTop = 24, kWidth = 380, kHeight = 180;
  const auto px = [&](double kbps) { return kLeft + kWidth * (std::log2(kbps) - x0) / (x1 - x0); };
  const auto py = [&](double v) { return kTop + kHeight * (1 - (v - y0) / (y1 - y0)); };
  const std::string title = fmt::format("{} vs bitrate", column_title(b, b.columns[column]));
  std::string out = fmt::format(
      "<svg class=\"chart bitrate\" role=\"img\" aria-label=\"{0}: {1}\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"{2}\" height=\"{3}\">\n<text x=\"0\" y=\"14\" font-size=\"13\">{1}</text>\n"
      "<line x1=\"{4}\" y1=\"{5}\" x2=\"{6}\" y2=\"{5}\" stroke=\"#333\"/>"
      "<line x1=\"{4}\" y1=\"{7}\" x2=\"{4}\" y2=\"{5}\" stroke=\"#333\"/>\n",
      escape(b.task), escape(title), kLeft + kWidth + 120, kTop + kHeight + 40, kLeft, kTop + kHeight, kLeft + kWidth, kTop);
  for (double e = x0; e <= x1; ++e)
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"middle\">{}</text>\n",
                       px(std::exp2(e)), kTop + kHeight + 15, number(std::exp2(e)));
  out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"middle\">kbit/s (log scale)</text>\n",
                     kLeft + kWidth / 2, kTop + kHeight + 32);
  for (int k = 0; y0 + k * step <= y1 + step * 1e-9; ++k) {
    const double v = y0 + k * step;
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"end\">{}</text>\n", kLeft - 4,
                       py(v) + 4, number(v));
  }
  for (const auto& [kbps, v, model] : points)
    out += fmt::format("<circle cx=\"{0:.1f}\" cy=\"{1:.1f}\" r=\"4\" fill=\"#c0504d\"><title>{2}: {3}</title></circle>"
                       "<text x=\"{4:.1f}\" y=\"{5:.1f}\" font-size=\"10\">{2}</text>\n",
                       px(kbps), py(v), escape(model), number(v), px(kbps) + 6, py(v) - 4);
  return out + "</svg>\n";
}

}  // namespace

std::string render_suite_html(const SuiteTable& table) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>aeval suite {0}</title>\n"
      "<style>body{{font-family:sans-serif;margin:2em;max-width:90em}}table{{border-collapse:collapse;margin:1em 0}}"
      "th,td{{border:1px solid #bbb;padding:.3em .6em;text-align:right}}th:first-child,td:first-child{{text-align:left}}"
      ".ci{{color:#555;font-size:.8em;white-space:nowrap}}</style>\n</head><body>\n<h1>suite {0}</h1>\n"
      "<p>aeval {1} ({2}). {3}</p>\n<table class=\"suite\">\n<thead><tr><th>model</th>",
      escape(table.suite), kVersion, kGitCommit,
      escape(std::string(kSuiteExplanation) + (table.beside.empty() ? "" : kBesideExplanation)));
  for (std::size_t t = 0; t < table.columns.size(); ++t)
    out += fmt::format("<th>{}{}</th>", escape(table.columns[t]), table.has_runs[t] ? "" : "<br><span class=\"ci\">no runs</span>");
  if (!table.beside.empty()) out += fmt::format("<th>{}</th>", escape(beside_title(table)));
  out += "<th>average</th><th>tasks</th></tr></thead>\n<tbody>\n";
  for (const auto& r : table.rows) {
    out += fmt::format("<tr><td>{}</td>", escape(r.model));
    for (const auto& c : r.cells)
      out += !c.score ? "<td>–</td>"
             : c.interval
                 ? fmt::format("<td>{:.2f}<br><span class=\"ci\">[{:.2f}, {:.2f}]</span></td>", *c.score,
                               c.interval->first, c.interval->second)
                 : fmt::format("<td>{:.2f}</td>", *c.score);
    if (!table.beside.empty()) out += fmt::format("<td>{}</td>", escape(beside_text(r)));
    out += fmt::format("<td>{}</td><td>{} of {}</td></tr>\n", r.mean ? fmt::format("{:.2f}", *r.mean) : "–", r.ran,
                       table.columns.size());
  }
  return out + "</tbody>\n</table>\n</body></html>\n";
}

std::string render_html(const std::vector<Leaderboard>& boards) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>aeval leaderboard</title>\n"
      "<style>body{{font-family:sans-serif;margin:2em;max-width:80em}}table{{border-collapse:collapse;margin:1em 0}}"
      "th,td{{border:1px solid #bbb;padding:.3em .6em;text-align:right}}th:first-child,td:first-child{{text-align:left}}"
      "caption{{font-weight:bold;text-align:left}}.rule,.scorer{{font-weight:normal;color:#555;font-size:.85em}}"
      ".ci{{color:#555;font-size:.8em;white-space:nowrap}}"
      "svg.bitrate{{margin-right:1em}}tr.deviates td{{background:#fbe3e3}}</style>\n"
      "</head><body>\n<h1>aeval leaderboard</h1>\n<p>aeval {} ({}). Rows: each model's latest run per dataset. Average: "
      "the mean of the metrics marked \"averaged as\", each on that scale. Brackets: bootstrap confidence intervals, where the run "
      "computed them.</p>\n",
      kVersion, kGitCommit);
  for (const auto& b : boards) {
    const bool kbps = b.has_bitrates();
    out += fmt::format("<section class=\"task\" id=\"{0}\">\n<h2>{0}</h2>\n<table>\n<caption>dataset {1}</caption>\n"
                       "<thead><tr><th>model</th>{2}",
                       escape(b.task), escape(datasets_text(b)), kbps ? "<th>kbit/s</th>" : "");
    for (const auto& c : b.columns)
      out += fmt::format("<th>{}<br><span class=\"rule\">{}</span>{}</th>", escape(column_title(b, c)),
                         c.rule.empty() ? "" : escape("averaged as " + c.rule),
                         c.scorer.empty() ? "" : "<br><span class=\"scorer\">by " + escape(c.scorer) + "</span>");
    out += "<th>average</th><th>samples</th><th>fail rate</th></tr></thead>\n<tbody>\n";
    for (const auto& r : b.rows) {
      out += fmt::format("<tr><td>{}</td>{}", escape(r.label), kbps ? fmt::format("<td>{}</td>", bitrate_text(r)) : "");
      for (std::size_t i = 0; i < b.columns.size(); ++i) {
        const auto interval = r.intervals.find(i);
        out += interval == r.intervals.end()
                   ? fmt::format("<td>{}</td>", value_text(r, i))
                   : fmt::format("<td>{}<br><span class=\"ci\">[{}, {}]</span></td>", value_text(r, i),
                                 number(interval->second.first), number(interval->second.second));
      }
      out += fmt::format("<td>{}</td><td>{}</td><td>{:.3f}</td></tr>\n",
                         r.average ? fmt::format("{:.2f}", *r.average) : "–", r.samples, r.fail_rate);
    }
    out += "</tbody>\n</table>\n";
    out += spreads_html(b) + published_html(b);
    out += bar_charts(b);
    if (kbps)
      for (std::size_t i = 0; i < b.columns.size(); ++i) out += bitrate_chart(b, i);
    out += "</section>\n";
  }
  return out + "</body></html>\n";
}

}  // namespace aeval::report
