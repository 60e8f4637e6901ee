#include "util/untrusted_json.hpp"

namespace aeval {

JsonTooDeep::JsonTooDeep()
    : Error(ErrorCategory::data, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels") {}

void refuse_deep_json(std::string_view text) {
  std::size_t depth = 0;
  find_bracket_outside_strings(text, 0, [&](std::size_t, char c) {
    if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) throw JsonTooDeep();
    } else if (depth > 0) {
      --depth;
    }
    return false;
  });
}

ShallowJson without_deep_members(std::string_view text) {
  using Event = nlohmann::json::parse_event_t;
  ShallowJson out;
  std::string member;  // the top-level member being read
  // nlohmann's callback parser does not recurse either; a value it is told not to keep is dropped whole.
  const auto keep = [&](int depth, Event event, nlohmann::json& parsed) {
    if (event == Event::key && depth == 1) member = parsed.get<std::string>();
    const bool opens = event == Event::object_start || event == Event::array_start;
    if (!opens || std::size_t(depth) < kMaxJsonDepth) return true;
    if (out.left_out.empty() || out.left_out.back() != member) out.left_out.push_back(member);
    return false;
  };
  out.value = nlohmann::json::parse(text, keep, /*allow_exceptions=*/false);
  if (!out.value.is_object()) {
    out.value = nlohmann::json(nlohmann::json::value_t::discarded);
    out.left_out.clear();
  }
  for (const auto& name : out.left_out) out.value.erase(name);
  return out;
}

}  // namespace aeval
