#include <charconv>
#include <regex>

#include "aeval/metrics/judges.hpp"

namespace aeval::metrics {

namespace {

std::optional<double> number_in(const std::string& s, double low, double high) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < low || v > high) return std::nullopt;
  return v;
}

}  // namespace

std::optional<double> parse_bracketed_rating(const std::string& reply, double low, double high) {
  // The first "[[n]]", as MT-Bench's grader and UltraEval-Audio's chatbot judge read it.
  static const std::regex rating(R"(\[\[\s*(\d+(?:\.\d+)?)\s*\]\])");
  std::smatch m;
  if (!std::regex_search(reply, m, rating)) return std::nullopt;
  return number_in(m[1].str(), low, high);
}

std::optional<std::pair<double, double>> parse_score_pair(const std::string& reply, double low, double high) {
  // AIR-Bench's grader answers "s1 s2" on its first line: the two first space-separated words.
  const std::string line = reply.substr(0, reply.find('\n'));
  static const std::regex pair(R"(^\s*(\S+)\s+(\S+))");
  std::smatch m;
  if (!std::regex_search(line, m, pair)) return std::nullopt;
  const auto first = number_in(m[1].str(), low, high), second = number_in(m[2].str(), low, high);
  if (!first || !second) return std::nullopt;
  return std::pair{*first, *second};
}

}  // namespace aeval::metrics
