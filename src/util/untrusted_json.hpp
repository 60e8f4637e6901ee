#pragma once
// JSON from outside aeval (dataset rows, models' answers and replies, servers' answers), nested at most
// kMaxJsonDepth deep. nlohmann's parser and destructor read any depth without recursing, but copying,
// printing and comparing a value recurse once per level: 100,000 levels overflow a thread's stack at
// the first copy (a worker's, for a manifest row). Every parser of such text goes through here.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "aeval/error.hpp"

namespace aeval {

// No honest row or answer comes near it; Python's json module gives up about here too (RecursionError at
// its default limit of 1,000 frames); copying, printing or comparing a value this deep takes about 100 kB
// of a thread's stack.
inline constexpr std::size_t kMaxJsonDepth = 1000;

// Text whose arrays and objects nest deeper than kMaxJsonDepth (an Error of category data).
class JsonTooDeep : public Error {
 public:
  JsonTooDeep();
};

// Calls `on_bracket(i, c)` for each bracket ([ ] { }) at text[i] outside JSON strings, from `from` on, until it
// returns true; gives that i, or npos.
template <class OnBracket>
std::size_t find_bracket_outside_strings(std::string_view text, std::size_t from, OnBracket on_bracket) {
  bool in_string = false;
  for (std::size_t i = from; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if ((c == '[' || c == ']' || c == '{' || c == '}') && on_bracket(i, c)) {
      return i;
    }
  }
  return std::string_view::npos;
}

// nlohmann's Json::parse(text, nullptr, allow_exceptions), after a scan of the bytes that throws JsonTooDeep
// (whatever allow_exceptions says) where brackets outside strings nest deeper than kMaxJsonDepth.
void refuse_deep_json(std::string_view text);
template <class Json = nlohmann::json>
Json parse_untrusted_json(std::string_view text, bool allow_exceptions = true) {
  refuse_deep_json(text);
  return Json::parse(text, nullptr, allow_exceptions);
}

// What parse_untrusted_json refuses, short of what nests too deep, to tell whose it was (a row's id, a
// reply's request): an object without the members that nest too deep, which `left_out` names; anything
// else is discarded.
struct ShallowJson {
  nlohmann::json value;
  std::vector<std::string> left_out;
};
ShallowJson without_deep_members(std::string_view text);

}  // namespace aeval
