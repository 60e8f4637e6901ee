// Leaderboards and suite tables as Markdown.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "aeval/report/leaderboard.hpp"
#include "aeval/version.hpp"
#include "report/board_text.hpp"

namespace aeval::report {

using namespace board_text;

namespace {

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

// Which model produced each column's scores, under the table (nothing when no column asked one).
std::string scorers_markdown(const Leaderboard& b) {
  std::vector<std::string> parts;
  for (const auto& c : b.columns)
    if (!c.scorer.empty()) parts.push_back(fmt::format("{}: {}", markdown_cell(column_title(b, c)), markdown_cell(c.scorer)));
  return parts.empty() ? "" : fmt::format("\nScored by: {}.\n", fmt::join(parts, "; "));
}

}  // namespace

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
      out += fmt::format(" {} | {} | {:.3f} |\n", average_text(r), r.samples, r.fail_rate);
    }
    if (!b.mixed_metrics.empty()) out += fmt::format("\nNot one ranking: {}.\n", markdown_cell(b.mixed_metrics));
    out += scorers_markdown(b) + spreads_markdown(b) + published_markdown(b);
    if (!b.differs_from_uea.empty())
      out += fmt::format("\nDiffers from UltraEval-Audio's own run: {}.\n", markdown_cell(fmt::format("{}", fmt::join(b.differs_from_uea, "; "))));
  }
  return out;
}

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
  if (!table.differs_from_uea.empty()) out += "\nDiffers from UltraEval-Audio's own run:\n\n";
  for (const auto& [task, reasons] : table.differs_from_uea)
    out += fmt::format("* {}: {}\n", markdown_cell(task), markdown_cell(fmt::format("{}", fmt::join(reasons, "; "))));
  return out;
}

}  // namespace aeval::report
