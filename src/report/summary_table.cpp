#include <fmt/format.h>

#include "report/summary.hpp"

namespace aeval::report {

using nlohmann::json;

std::string format_summary_table(const json& s) {
  std::string out = fmt::format("{:<16} {:>10}  {}\n", "metric", "value", "detail");
  for (const auto& [name, m] : s["metrics"].items()) {
    const json& v = m["value"];
    std::string detail;
    if (m.contains("uea"))
      detail = fmt::format("UltraEval-Audio's {}: {}", m["aggregation"].get<std::string>(), m["uea"].dump());
    else if (m.contains("reference_tokens"))
      detail = fmt::format("hits {} subs {} dels {} ins {} ref tokens {}", m["hits"].get<long>(),
                           m["substitutions"].get<long>(), m["deletions"].get<long>(), m["insertions"].get<long>(),
                           m["reference_tokens"].get<long>());
    out += fmt::format("{:<16} {:>10}  {}\n", name, v.is_number() ? fmt::format("{:.4f}", v.get<double>()) : "-", detail);
  }
  for (const auto& [aggregator, metrics] : s["aggregations"].items())
    for (const auto& [name, m] : metrics.items()) {
      if (m.contains("interval"))
        out += fmt::format("{:<16} {:>10}  {:.0f}% interval [{:.4f}, {:.4f}] ({})\n", name, "",
                           100 * m["interval"]["confidence"].get<double>(), m["interval"]["low"].get<double>(),
                           m["interval"]["high"].get<double>(), aggregator);
      if (m.contains("groups"))
        for (const auto& [field, groups] : m["groups"].items())
          for (const auto& [group, g] : groups.items())
            out += fmt::format("{:<16} {:>10}  {}={} ({} samples)\n", name,
                               g["value"].is_number() ? fmt::format("{:.4f}", g["value"].get<double>()) : "-", field,
                               group, g["samples"].get<long>());
    }
  out += fmt::format("samples {}, failed {} (fail_rate {:.4f})", s["counts"]["samples"].get<std::size_t>(),
                     s["counts"]["failed"].get<std::size_t>(), s["fail_rate"].get<double>());
  // Seconds of audio the model was given: none when the run has no model (a dataset scored as it is).
  if (const double seconds = s["audio_seconds"].get<double>(); seconds > 0) out += fmt::format("; {:.1f} s of audio", seconds);
  out += "\n";
  return out;
}

}  // namespace aeval::report
