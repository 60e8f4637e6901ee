#include "aeval/metrics/judges.hpp"
#include "aeval/text/json_in_text.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::metrics {

std::optional<bool> parse_verdict(const std::string& answer, const std::string& field) {
  const auto object = text::find_json(answer);
  if (!object || !object->contains(field)) return std::nullopt;
  const nlohmann::json& v = (*object)[field];
  if (v.is_boolean()) return v.get<bool>();
  if (!v.is_string()) return std::nullopt;
  const std::string said = text::lower(v.get<std::string>());
  if (said == "true" || said == "false") return said == "true";
  return std::nullopt;
}

}  // namespace aeval::metrics
