#include <algorithm>
#include <cmath>

#include "aeval/metrics/judges.hpp"
#include "aeval/text/json_in_text.hpp"

namespace aeval::metrics {

std::optional<CaptionJudgement> parse_caption_judgement(const std::string& reply) {
  const auto object = text::find_json(reply, '{');
  if (!object) return std::nullopt;
  const auto criterion = [&](const char* key) -> std::optional<double> {
    const auto found = object->find(key);
    if (found == object->end() || !found->is_number()) return std::nullopt;
    return std::clamp(found->get<double>(), 0.0, 10.0);
  };
  const auto accuracy = criterion("accuracy"), completeness = criterion("completeness"),
             hallucination = criterion("hallucination");
  if (!accuracy || !completeness || !hallucination) return std::nullopt;
  CaptionJudgement j;
  j.accuracy = *accuracy;
  j.completeness = *completeness;
  j.hallucination = *hallucination;
  j.overall = std::round((j.accuracy + j.completeness + j.hallucination) / 3 * 100) / 100;
  if (const auto r = object->find("reasoning"); r != object->end() && r->is_string()) j.reasoning = *r;
  return j;
}

}  // namespace aeval::metrics
