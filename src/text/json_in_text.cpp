#include "aeval/text/json_in_text.hpp"

#include "util/untrusted_json.hpp"

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
    // accept() reads without building a value: most spans of brackets in prose are no JSON, and building
    // one allocates per bracket. JSON that nests too deep is the answer's JSON, and refused (JsonTooDeep).
    if (!nlohmann::json::accept(text)) continue;
    auto parsed = parse_untrusted_json(text, /*allow_exceptions=*/false);
    if (open == '{' ? parsed.is_object() : parsed.is_array()) return parsed;
  }
  return std::nullopt;
}

// Where the value opening at `from` would close: the bracket that balances
// it outside strings, as JSON reads strings. A span that parses as JSON can
// end nowhere else, so it is the one candidate worth parsing (trying every
// closing bracket made a reply full of braces, such as LaTeX, take minutes).
std::size_t matching_close(const std::string& text, std::size_t from, char open, char close) {
  std::size_t depth = 0;
  return find_bracket_outside_strings(text, from, [&](std::size_t, char c) {
    if (c == open) ++depth;
    return c == close && --depth == 0;
  });
}

}  // namespace

std::optional<nlohmann::json> find_json(const std::string& text, char open) {
  const char close = open == '{' ? '}' : ']';
  // The first opening bracket that starts a value: the outermost one, whatever nests inside it.
  for (std::size_t from = text.find(open); from != std::string::npos; from = text.find(open, from + 1))
    if (const std::size_t to = matching_close(text, from, open, close); to != std::string::npos)
      if (auto parsed = parse_as(text.substr(from, to - from + 1), open)) return parsed;
  return std::nullopt;
}

}  // namespace aeval::text
