#include <cctype>
#include <cstdlib>

#include "aeval/metrics/judges.hpp"

namespace aeval::metrics {

std::optional<double> parse_rating(const std::string& answer, const std::string& label) {
  const auto at = answer.rfind(label + ":");
  if (at == std::string::npos) return std::nullopt;
  std::size_t from = at + label.size() + 1;
  while (from < answer.size() && std::isspace(static_cast<unsigned char>(answer[from]))) ++from;
  if (from >= answer.size() || !(std::isdigit(static_cast<unsigned char>(answer[from])) || answer[from] == '-'))
    return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(answer.c_str() + from, &end);
  if (end == answer.c_str() + from) return std::nullopt;
  return value;
}

}  // namespace aeval::metrics
