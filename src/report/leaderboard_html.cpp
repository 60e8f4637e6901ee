// Leaderboards and suite tables as one self-contained HTML file: tables and SVG charts, no script.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "aeval/report/leaderboard.hpp"
#include "aeval/version.hpp"
#include "report/board_text.hpp"

namespace aeval::report {

using namespace board_text;

namespace {

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
  out += "</tbody>\n</table>\n";
  if (!table.differs_from_uea.empty()) out += "<p>Differs from UltraEval-Audio's own run:</p>\n<ul>\n";
  for (const auto& [task, reasons] : table.differs_from_uea)
    out += fmt::format("<li>{}: {}</li>\n", escape(task), escape(fmt::format("{}", fmt::join(reasons, "; "))));
  if (!table.differs_from_uea.empty()) out += "</ul>\n";
  return out + "</body></html>\n";
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
      out += fmt::format("<td>{}</td><td>{}</td><td>{:.3f}</td></tr>\n", average_text(r), r.samples, r.fail_rate);
    }
    out += "</tbody>\n</table>\n";
    if (!b.mixed_metrics.empty()) out += fmt::format("<p class=\"mixed\">Not one ranking: {}.</p>\n", escape(b.mixed_metrics));
    out += spreads_html(b) + published_html(b);
    if (!b.differs_from_uea.empty())
      out += fmt::format("<p class=\"differs\">Differs from UltraEval-Audio's own run: {}.</p>\n",
                         escape(fmt::format("{}", fmt::join(b.differs_from_uea, "; "))));
    out += bar_charts(b);
    if (kbps)
      for (std::size_t i = 0; i < b.columns.size(); ++i) out += bitrate_chart(b, i);
    out += "</section>\n";
  }
  return out + "</body></html>\n";
}

}  // namespace aeval::report
