#pragma once
// Published numbers a task entry carries (a paper's leaderboard, a benchmark's
// own paper) and how a report holds a run against them: a run whose value lies
// further from the published one than the precision it was printed at allows
// (and the paper's sampling spread, where it gives one) is flagged, so a wrong
// prompt, normalizer or split shows at once.
#include <optional>
#include <string>
#include <vector>

namespace aeval::report {

struct PublishedResult {
  std::string model;    // the model entry's name the number belongs to
  std::string metric;   // the task's evaluator name, e.g. wer
  std::string dataset;  // "" : the only dataset the task ran on
  std::string prompt;   // a prompt variant the number is of ("": the task's own prompt, or any but its variants)
  double value = 0;     // in the units of summary.json (WER 0.021 for 2.1 %)
  double tolerance = 0;  // largest |run − published| still counted as reproduced
  std::string source;   // where the number is printed
};

// Half a unit of the last digit a number is written with ("0.7725": 0.00005, "6.00": 0.005, "12": 0.5,
// "1.5e-3": 0.00005); nullopt when `text` is not a plain decimal number.
std::optional<double> printed_half_unit(const std::string& text);

struct PublishedCheck {
  PublishedResult published;
  std::string row;                  // the leaderboard row compared (model, and prompt when several)
  std::optional<double> run_value;  // none: the model has no run with this metric
  bool reproduced() const;
  bool deviates() const { return run_value && !reproduced(); }
};

}  // namespace aeval::report
