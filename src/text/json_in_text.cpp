#include "aeval/text/json_in_text.hpp"

namespace aeval::text {

namespace {

// Drops commas that directly precede a closing bracket, outside strings.
std::string without_trailing_commas(const std::string& s) {
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < s.size()) out += s[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == ',') {
      const auto next = s.find_first_not_of(" \t\r\n", i + 1);
      if (next != std::string::npos && (s[next] == ']' || s[next] == '}')) continue;
    }
    out += c;
  }
  return out;
}

std::optional<nlohmann::json> parse_as(const std::string& candidate, char open) {
  for (const std::string& text : {candidate, without_trailing_commas(candidate)}) {
    auto parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (open == '{' ? parsed.is_object() : parsed.is_array()) return parsed;
  }
  return std::nullopt;
}

}  // namespace

std::optional<nlohmann::json> find_json(const std::string& text, char open) {
  const char close = open == '{' ? '}' : ']';
  // Widest span first: the outermost value, whatever nests inside it.
  for (std::size_t from = text.find(open); from != std::string::npos; from = text.find(open, from + 1))
    for (std::size_t to = text.rfind(close); to != std::string::npos && to > from;
         to = to == 0 ? std::string::npos : text.rfind(close, to - 1))
      if (auto parsed = parse_as(text.substr(from, to - from + 1), open)) return parsed;
  return std::nullopt;
}

}  // namespace aeval::text
