#include <cctype>
#include <cstdlib>

#include "aeval/metrics/judges.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::metrics {

std::optional<double> parse_rating(const std::string& answer, const std::string& label,
                                   const std::map<std::string, double>& words) {
  const auto at = answer.rfind(label + ":");
  if (at == std::string::npos) return std::nullopt;
  std::size_t from = at + label.size() + 1;
  while (from < answer.size() && std::isspace(static_cast<unsigned char>(answer[from]))) ++from;
  if (!words.empty()) {
    std::size_t end = from;
    while (end < answer.size() && std::isalnum(static_cast<unsigned char>(answer[end]))) ++end;
    const auto found = words.find(text::lower(answer.substr(from, end - from)));
    return found == words.end() ? std::nullopt : std::optional<double>(found->second);
  }
  if (from >= answer.size() || !(std::isdigit(static_cast<unsigned char>(answer[from])) || answer[from] == '-'))
    return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(answer.c_str() + from, &end);
  if (end == answer.c_str() + from) return std::nullopt;
  return value;
}

}  // namespace aeval::metrics
