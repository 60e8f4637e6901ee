#pragma once
// Leaderboards across runs: for every task under a results folder, one row
// per model, a column per (dataset, metric) from the model's latest run on
// each dataset, and the normalized average of the UltraEval-Audio paper
// (error rates as 100 − 100·value, [0, 1] text scores as 100·value, BLEU as
// is, MOS as 20·value; signal metrics and unbounded scores such as CIDEr-D
// are shown but not averaged). Codecs (models whose identity states a
// bitrate) get a bitrate column and, in HTML, a chart of each metric
// against bitrate, as in the paper's codec table.
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aeval/metrics/catalog.hpp"
#include "aeval/report/published.hpp"

namespace aeval::report {

struct LeaderboardColumn {
  std::string dataset, metric;
  std::string rule;    // how it enters the average ("100 − 100·x", ...); "" : not averaged
  std::string scorer;  // the model that produced the scores (an ASR model, a MOS predictor, DNSMOS); "": none
  std::optional<bool> higher_is_better;  // unknown for a metric aeval does not know
  // aeval's evaluator scored beside UltraEval-Audio's (Table 5's acoustics): not in the task's
  // average; a suite table pools it across the suite's tasks instead.
  bool beside = false;
};

struct LeaderboardRow {
  std::string model;
  std::string prompt;                           // the prompt entry the run used ("" : the audio alone)
  std::string label;                            // model, with the prompt when the board has several
  std::map<std::size_t, double> values;         // column index → corpus value
  std::map<std::size_t, std::pair<double, double>> intervals;  // column index → bootstrap interval, when run with one
  std::optional<double> average;                // normalized average, when any column normalizes
  bool ranked = true;                           // false: its average is of other metrics than the board's (below)
  std::optional<double> bitrate_kbps;           // codecs
  double fail_rate = 0;                         // over all its runs' samples
  std::size_t samples = 0;
  std::vector<std::string> runs;                // the run folders its values come from, relative to the root
  std::size_t older_runs = 0;                   // earlier runs of the same model and prompt, not shown
};

// How much one model's value of one column moves across the prompts it ran with.
struct PromptSpread {
  std::string model;
  std::size_t column = 0;
  std::size_t prompts = 0;  // at least 2
  double min = 0, max = 0, mean = 0, sd = 0;  // sd: sample standard deviation
};

struct Leaderboard {
  std::string task;
  std::vector<std::string> datasets;
  std::vector<LeaderboardColumn> columns;  // per dataset, in the task's evaluator order
  std::vector<LeaderboardRow> rows;        // a row per model and prompt: best normalized average first, or
                                           // without one, best in the first column whose direction is known
  std::vector<PromptSpread> prompt_spreads;  // models that ran the task with several prompts
  // When rows average different sets of metrics (one run without DNSMOS beside runs with it): which set the
  // ranked rows share, and which rows (ranked false, after the others) average another. Empty otherwise.
  std::string mixed_metrics;
  std::vector<PublishedCheck> published;     // filled by check_published
  // What the task's classes do differently from UltraEval-Audio's own run of it (its command fills this in).
  std::vector<std::string> differs_from_uea;
  std::vector<metrics::LeaderboardScale> scales;  // per column: how it enters the average
  bool has_bitrates() const;
};

// Reads every summary.json under `root`; a row is the latest run of each (model, dataset, prompt). Throws aeval::Error (data) when
// there is none, or a summary is malformed (naming the file), unless `usable` is given (a viewer showing the
// others): then a malformed summary's run is left out, and so is every run folder for which it is false. An
// evaluator whose identity names no catalog "metric" is read as its class declares (error_rate: WER or CER by its
// unit; dnsmos): the built-in classes declare it in the components layer, so a program reading such summaries
// links it (aeval::components, or aeval::run above it).
std::vector<Leaderboard> collect_leaderboards(
    const std::filesystem::path& root, const std::function<bool(const std::filesystem::path& run_dir)>& usable = nullptr);

// Holds each published number against the board's rows of its model: a number of a prompt variant against the
// rows run with that prompt, any other against the rows run with a prompt that is none of `prompt_variants` (the
// task's own prompt, or one a model brings). A number of a wording no row was run with is not listed.
void check_published(Leaderboard& board, const std::vector<PublishedResult>& published,
                     const std::vector<std::string>& prompt_variants = {});

std::string render_markdown(const std::vector<Leaderboard>& boards);
// One self-contained HTML file: tables and SVG charts, no scripts, no network.
std::string render_html(const std::vector<Leaderboard>& boards);

// A suite as the UltraEval-Audio paper's Tables 4–6 show one: a row per model, a column per task
// holding that task's normalized average (100 − WER, 100 × accuracy, BLEU, ...) with its bootstrap
// interval where the task has one averaged metric, and their mean over the tasks the model ran
// (with how many). Tasks without runs are shown empty. Metrics scored beside the tasks' own (Table
// 5's acoustics: UTMOS, DNSMOS P.835 and P.808 of the spoken answers) are pooled: each one's mean
// over the tasks, shown together, entering the mean as one more score, the mean of their
// normalized values (20·MOS). Tasks may share a column (Table 5's SpeechHSK: its six levels): its
// score pools theirs, each weighted by the samples it scored, as one test of all their questions.
struct SuiteColumn {
  std::string name;
  std::vector<std::string> tasks;
};
struct SuiteCell {
  std::optional<double> score;
  std::optional<std::pair<double, double>> interval;  // on the normalized scale
};
struct SuiteTable {
  std::string suite;
  std::vector<std::string> columns;  // a task's name, or the name its tasks share
  std::vector<bool> has_runs;        // per column
  std::vector<std::string> beside;  // metrics scored beside the tasks' own, pooled
  struct Row {
    std::string model;
    std::vector<SuiteCell> cells;  // per column
    std::vector<std::optional<double>> beside;  // per pooled metric: its mean over the tasks
    std::optional<double> beside_score;         // the mean of their normalized values
    std::optional<double> mean;
    std::size_t ran = 0;
  };
  std::vector<Row> rows;  // best mean first
  std::map<std::string, std::vector<std::string>> differs_from_uea;  // task → as Leaderboard's
};
SuiteTable build_suite_table(const std::string& suite, const std::vector<SuiteColumn>& columns,
                             const std::vector<Leaderboard>& boards);
std::string render_suite_markdown(const SuiteTable& table);
// One self-contained HTML file, like render_html.
std::string render_suite_html(const SuiteTable& table);

}  // namespace aeval::report
