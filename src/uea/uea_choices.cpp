// UltraEval-Audio's ChoicesEval (audio_evals/evaluator/choices.py at 9b69da6; MMSU, Kimi-Audio's MMAU and
// VocalSound): the option letter an answer gives, its first character or else its second to last (as in
// "The answer is B."), against the letter the label has among the choices. Option i is chr(65 + i), so past
// 26 choices the letters go on as Python's code points do ('[', ..., then 'a', which lowercases to 'A's).
// The choices are a row column holding them (choices_columns a name), the row's columns one per option
// (a list), or the entry's list itself (constant). Python's semantics are kept where they decide: str()
// of row values, lower() then strip(), '-' read as ' ', a later repeat of a choice taking its letter, a
// label not among the choices raising KeyError (the sample fails, as in UEA), and match None for an
// answer with no letter unless ignore_parse_error makes it 0.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aeval/text/python_values.hpp"
#include "aeval/text/unicode.hpp"
#include "uea/uea_evaluator.hpp"
#include "registry/registry.hpp"

namespace aeval::pipeline {
namespace {

using Value = UeaEvaluator::Value;
using nlohmann::json;

// What enumerate() walks once len() has accepted the value: a list's items, a string's characters, a dict's keys.
std::vector<Value> python_items(const Value& v) {
  std::vector<Value> items;
  if (v.is_array()) {
    items.assign(v.begin(), v.end());
  } else if (v.is_string()) {
    for (const char32_t c : text::to_u32(v.get<std::string>())) items.emplace_back(text::to_utf8(c));
  } else if (v.is_object()) {
    for (const auto& [key, _] : v.items()) items.emplace_back(key);
  } else {
    python_error("TypeError", fmt::format("object of type '{}' has no len()", text::python_type_name(v)));
  }
  return items;
}

// value.lower(), which only a str has.
std::string lower_of(const Value& v) {
  if (!v.is_string())
    python_error("AttributeError", fmt::format("'{}' object has no attribute 'lower'", text::python_type_name(v)));
  return text::lower(v.get<std::string>());
}

std::string dashes_as_spaces(std::string s) {
  std::replace(s.begin(), s.end(), '-', ' ');
  return s;
}

// kwargs.get(column, ''): the row's keys are text, so a column of another type finds nothing.
Value row_value(const json& row, const Value& column) {
  if (column.is_array() || column.is_object())
    python_error("TypeError", fmt::format("unhashable type: '{}'", text::python_type_name(column)));
  if (column.is_string() && row.contains(column.get<std::string>())) return Value(row.at(column.get<std::string>()));
  return "";
}

struct Choices {
  std::size_t count = 0;                    // letters chr(65) .. chr(65 + count - 1)
  std::map<std::string, char32_t> letters;  // a choice's text, as _eval keys it → its letter
};

struct ChoicesSpec {
  Value columns;  // choices_columns as UEA's YAML gives it: a column name, or a list
  bool constant = false;
};

// The choices _eval builds for one row, in its order (a repeated text keeps the later letter).
Choices row_choices(const ChoicesSpec& spec, const json& row) {
  Choices choices;
  const auto add = [&](std::size_t i, const std::string& text) { choices.letters[text] = char32_t(U'A' + i); };
  if (spec.columns.is_string()) {
    const std::string column = spec.columns.get<std::string>();
    if (!row.contains(column)) python_error("KeyError", text::python_repr(spec.columns));
    const std::vector<Value> items = python_items(Value(row.at(column)));
    choices.count = items.size();
    for (std::size_t i = 0; i < items.size(); ++i) add(i, text::strip(lower_of(items[i])));
    return choices;
  }
  const std::vector<Value> items = python_items(spec.columns);
  choices.count = items.size();
  for (std::size_t i = 0; i < items.size(); ++i)
    add(i, spec.constant ? text::strip(lower_of(items[i]))
                         : dashes_as_spaces(text::strip(text::lower(text::python_str(row_value(row, items[i]))))));
  return choices;
}

// The answer's letter: its first character, else its second to last; none for "" and "None".
std::optional<char32_t> answer_letter(const std::string& answer, const Choices& choices) {
  const auto is_letter = [&](char32_t c) { return c >= U'A' && c - U'A' < choices.count; };
  if (answer.empty() || answer == "None") return std::nullopt;
  const std::u32string u = text::to_u32(answer);
  if (is_letter(u[0])) return u[0];
  if (u.size() > 1 && is_letter(u[u.size() - 2])) return u[u.size() - 2];
  return std::nullopt;
}

const EvaluatorClasses::Registration kChoices{
    {registry::Kind::evaluator, "uea-choices",
     "UltraEval-Audio's ChoicesEval: the option letter the answer starts with (or ends with, before a mark) against "
     "the label's letter among the choices (match 1, 0, or None when no letter)",
     {registry::arg::structure("choices_columns", "a row column holding the choices, or a list: the row's column of "
                                                  "each option, or the options themselves (constant)"),
      registry::arg::boolean("ignore_parse_error", false, "an answer with no letter scores match 0, not None"),
      registry::arg::boolean("constant", false, "choices_columns lists the options themselves, not row columns"),
      label_field_arg()},
     {},
     {registry::UeaClass{"audio_evals.evaluator.choices.ChoicesEval"}}},
    [](const registry::Args& args, const registry::Registry&, const std::shared_ptr<ScoringModels>&) {
      const ChoicesSpec spec{registry::yaml_as_python(args.node("choices_columns")), args.boolean("constant")};
      const bool ignore_parse_error = args.boolean("ignore_parse_error");
      return uea_evaluator(args, [spec, ignore_parse_error](const Value& pred, const Value& label_value,
                                                            const json& row) -> Value {
        const std::string answer = text::strip(text::python_str(pred));
        const std::string label = text::strip(text::python_str(label_value));
        const Choices choices = row_choices(spec, row);
        const std::optional<char32_t> letter = answer_letter(answer, choices);
        Value match = nullptr;
        if (!letter && ignore_parse_error) match = 0;
        if (letter) {
          const std::string key = dashes_as_spaces(text::strip(text::lower(label)));
          const auto found = choices.letters.find(key);
          if (found == choices.letters.end()) python_error("KeyError", text::python_repr(Value(key)));
          match = text::lower(text::to_utf8(*letter)) == text::lower(text::to_utf8(found->second)) ? 1 : 0;
        }
        return {{"match", match},
                {"is_format_error", letter ? 0 : 1},
                {"pred", answer},
                {"model_predict", letter ? Value(text::to_utf8(*letter)) : Value()},
                {"ref", label}};
      });
    }};

}  // namespace
}  // namespace aeval::pipeline
