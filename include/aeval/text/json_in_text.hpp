#pragma once
// The JSON a language model's answer contains: found inside code fences,
// prose and trailing chatter, with the commonest slip (a trailing comma
// before ] or }) forgiven.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace aeval::text {

// The first (outermost) JSON object (`open` '{') or array ('[') in `text`. One nested
// deeper than 1,000 levels throws aeval::Error (data) rather than return a value whose
// every copy would recurse that deep.
std::optional<nlohmann::json> find_json(const std::string& text, char open = '{');

}  // namespace aeval::text
