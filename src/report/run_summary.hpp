#pragma once
// One run's summary.json, read as far as a leaderboard needs it: each evaluator's value, scale, direction, scoring
// model and interval, and what the run was of.
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "aeval/metrics/catalog.hpp"

namespace aeval::report {

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

// Throws aeval::Error (data) naming the file when it is not an aeval summary.
RunSummary read_summary(const std::filesystem::path& file);

}  // namespace aeval::report
