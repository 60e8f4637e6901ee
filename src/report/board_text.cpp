#include "report/board_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace aeval::report::board_text {

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

std::string column_title(const Leaderboard& b, const LeaderboardColumn& c) {
  return b.datasets.size() > 1 ? fmt::format("{}: {}", c.dataset, c.metric) : c.metric;
}

std::string value_text(const LeaderboardRow& r, std::size_t column) {
  const auto it = r.values.find(column);
  return it == r.values.end() ? "–" : number(it->second);
}

std::string bitrate_text(const LeaderboardRow& r) { return r.bitrate_kbps ? number(*r.bitrate_kbps) : "–"; }

std::string average_text(const LeaderboardRow& r) {
  return r.average ? fmt::format("{:.2f}{}", *r.average, r.ranked ? "" : "*") : "–";
}

std::string datasets_text(const Leaderboard& b) {
  return fmt::format("{}", fmt::join(b.datasets, ", "));
}

std::string verdict(const PublishedCheck& c) {
  return !c.run_value ? "not run" : c.reproduced() ? "reproduced" : "DEVIATES";
}

std::string signed_number(double v) { return fmt::format("{:+.4g}", v); }

std::string cell_text(const SuiteCell& c) {
  if (!c.score) return "–";
  return c.interval ? fmt::format("{:.2f} [{:.2f}, {:.2f}]", *c.score, c.interval->first, c.interval->second)
                    : fmt::format("{:.2f}", *c.score);
}

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

const char* const kSuiteExplanation =
    "Each task column is the task's normalized average (100 − 100·error rate, 100·accuracy, BLEU, 20·MOS, ...) from "
    "the model's latest run, with its bootstrap interval where the task has one averaged metric run with one; "
    "average: their mean over the tasks the model ran.";
const char* const kBesideExplanation =
    " Metrics scored beside the tasks' own (acoustics of the answers) are each averaged over the tasks and enter "
    "the average as one more score: the mean of their normalized values.";

}  // namespace aeval::report::board_text
