#include "aeval/report/leaderboard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "aeval/error.hpp"
#include "aeval/version.hpp"

namespace aeval::report {

namespace {

using nlohmann::json;

// How a metric of this evaluator class enters the normalized average.
struct Normalization {
  std::string rule;  // shown in the report; "" : not averaged
  std::function<double(double)> apply;
};

Normalization normalization_of(const std::string& evaluator_class) {
  if (evaluator_class == "error_rate") return {"100 − 100·x", [](double x) { return 100 - 100 * x; }};
  if (evaluator_class == "exact_match" || evaluator_class == "exist_match" || evaluator_class == "meteor" ||
      evaluator_class == "rouge_l")
    return {"100·x", [](double x) { return 100 * x; }};
  if (evaluator_class == "bleu") return {"x", [](double x) { return x; }};
  if (evaluator_class == "mos") return {"20·x", [](double x) { return 20 * x; }};
  return {"", nullptr};
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

}  // namespace

std::vector<Leaderboard> collect_leaderboards(const std::filesystem::path& root) {
  if (!std::filesystem::is_directory(root))
    throw Error(ErrorCategory::data, fmt::format("{} is not a folder of results", root.string()));
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.path().filename() == "summary.json") files.push_back(e.path());
  if (files.empty()) throw Error(ErrorCategory::data, fmt::format("no summary.json under {}", root.string()));
  std::sort(files.begin(), files.end());  // run ids are UTC timestamps: later runs sort later

  std::map<std::string, Leaderboard> boards;
  std::map<std::string, std::map<std::string, LeaderboardRow>> latest;  // task → model → row
  for (const auto& file : files) {
    json s;
    try {
      s = json::parse(std::ifstream(file));
      Leaderboard& board = boards[s.at("task").get<std::string>()];
      board.task = s["task"];
      board.dataset = s.at("dataset");
      LeaderboardRow row;
      row.model = s.at("model");
      row.run_dir = file.parent_path();
      row.fail_rate = s.at("fail_rate");
      row.samples = s.at("counts").at("samples");
      double total = 0;
      int averaged = 0;
      board.metrics.clear();
      board.normalized.clear();
      for (const auto& evaluator : s.at("provenance").at("evaluators")) {
        const std::string name = evaluator.at("name");
        const Normalization n = normalization_of(evaluator.at("class"));
        board.metrics.push_back(name);
        board.normalized.push_back(n.rule);
        const json& v = s.at("metrics").at(name).at("value");
        if (!v.is_number()) continue;
        row.values[name] = v.get<double>();
        if (n.apply) total += n.apply(v.get<double>()), ++averaged;
      }
      if (averaged) row.average = total / averaged;
      latest[board.task][row.model] = row;
    } catch (const json::exception& e) {
      throw Error(ErrorCategory::data, fmt::format("{}: not an aeval summary ({})", file.string(), e.what()));
    }
  }
  std::vector<Leaderboard> out;
  for (auto& [task, board] : boards) {
    for (auto& [model, row] : latest[task]) board.rows.push_back(row);
    std::stable_sort(board.rows.begin(), board.rows.end(), [](const LeaderboardRow& a, const LeaderboardRow& b) {
      return a.average.value_or(-INFINITY) > b.average.value_or(-INFINITY);
    });
    out.push_back(std::move(board));
  }
  return out;
}

std::string render_markdown(const std::vector<Leaderboard>& boards) {
  std::string out = fmt::format("# aeval leaderboard\n\naeval {} ({}). Rows: the latest run of each model; "
                                "average: the normalized mean of the metrics marked with their rule.\n",
                                kVersion, kGitCommit);
  for (const auto& b : boards) {
    out += fmt::format("\n## {} (dataset {})\n\n| model |", markdown_cell(b.task), markdown_cell(b.dataset));
    for (std::size_t i = 0; i < b.metrics.size(); ++i)
      out += fmt::format(" {}{} |", markdown_cell(b.metrics[i]), b.normalized[i].empty() ? "" : " (" + b.normalized[i] + ")");
    out += " average | samples | fail rate |\n|---|";
    for (std::size_t i = 0; i < b.metrics.size(); ++i) out += "---:|";
    out += "---:|---:|---:|\n";
    for (const auto& r : b.rows) {
      out += fmt::format("| {} |", markdown_cell(r.model));
      for (const auto& m : b.metrics) {
        const auto it = r.values.find(m);
        out += fmt::format(" {} |", it == r.values.end() ? "–" : number(it->second));
      }
      out += fmt::format(" {} | {} | {:.3f} |\n", r.average ? fmt::format("{:.2f}", *r.average) : "–", r.samples,
                         r.fail_rate);
    }
  }
  return out;
}

std::string render_html(const std::vector<Leaderboard>& boards) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>aeval leaderboard</title>\n"
      "<style>body{{font-family:sans-serif;margin:2em;max-width:70em}}table{{border-collapse:collapse;margin:1em 0}}"
      "th,td{{border:1px solid #bbb;padding:.3em .6em;text-align:right}}th:first-child,td:first-child{{text-align:left}}"
      "caption{{font-weight:bold;text-align:left}}.rule{{font-weight:normal;color:#555;font-size:.85em}}</style>\n"
      "</head><body>\n<h1>aeval leaderboard</h1>\n<p>aeval {} ({}). Rows: the latest run of each model. Average: the "
      "normalized mean of the metrics that show a rule.</p>\n",
      kVersion, kGitCommit);
  for (const auto& b : boards) {
    out += fmt::format("<section class=\"task\" id=\"{0}\">\n<h2>{0}</h2>\n<table>\n<caption>dataset {1}</caption>\n"
                       "<thead><tr><th>model</th>",
                       escape(b.task), escape(b.dataset));
    for (std::size_t i = 0; i < b.metrics.size(); ++i)
      out += fmt::format("<th>{}<br><span class=\"rule\">{}</span></th>", escape(b.metrics[i]), escape(b.normalized[i]));
    out += "<th>average</th><th>samples</th><th>fail rate</th></tr></thead>\n<tbody>\n";
    for (const auto& r : b.rows) {
      out += fmt::format("<tr><td>{}</td>", escape(r.model));
      for (const auto& m : b.metrics) {
        const auto it = r.values.find(m);
        out += fmt::format("<td>{}</td>", it == r.values.end() ? "–" : number(it->second));
      }
      out += fmt::format("<td>{}</td><td>{}</td><td>{:.3f}</td></tr>\n",
                         r.average ? fmt::format("{:.2f}", *r.average) : "–", r.samples, r.fail_rate);
    }
    out += "</tbody>\n</table>\n";
    // A bar per model: the normalized average, or the first metric when nothing normalizes.
    const bool by_average = std::any_of(b.rows.begin(), b.rows.end(), [](const auto& r) { return r.average.has_value(); });
    const std::string what = by_average ? "normalized average" : (b.metrics.empty() ? "" : b.metrics.front());
    double top = 0;
    std::vector<std::pair<std::string, double>> bars;
    for (const auto& r : b.rows) {
      const double v = by_average ? r.average.value_or(0) : (r.values.count(what) ? r.values.at(what) : 0);
      bars.emplace_back(r.model, v);
      top = std::max(top, std::fabs(v));
    }
    constexpr int kLabel = 220, kWidth = 420, kBar = 22;
    out += fmt::format("<svg class=\"chart\" role=\"img\" aria-label=\"{0}: {1} per model\" xmlns=\"http://www.w3.org/2000/svg\" "
                       "width=\"{2}\" height=\"{3}\">\n<text x=\"0\" y=\"14\" font-size=\"13\">{1}</text>\n",
                       escape(b.task), escape(what), kLabel + kWidth + 70, 24 + kBar * int(bars.size()));
    for (std::size_t i = 0; i < bars.size(); ++i) {
      const int y = 22 + kBar * int(i);
      const double w = top > 0 ? kWidth * std::fabs(bars[i].second) / top : 0;
      out += fmt::format("<text x=\"0\" y=\"{}\" font-size=\"12\">{}</text><rect x=\"{}\" y=\"{}\" width=\"{:.1f}\" "
                         "height=\"{}\" fill=\"#4a78b5\"/><text x=\"{:.1f}\" y=\"{}\" font-size=\"12\">{}</text>\n",
                         y + 15, escape(bars[i].first), kLabel, y + 2, w, kBar - 6, kLabel + w + 4, y + 15,
                         number(bars[i].second));
    }
    out += "</svg>\n</section>\n";
  }
  return out + "</body></html>\n";
}

}  // namespace aeval::report
