#pragma once
// Python's view of JSON-like values, for references that print or parse them:
// str() and repr() as CPython 3.11 writes them (jinja2 prints a list in a
// template with str(), which is repr() of its items), json.loads' reading of
// a document, and ast.literal_eval of a Python literal. Objects keep their
// key order (nlohmann::ordered_json), as Python dicts keep insertion order.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace aeval::text {

using OrderedJson = nlohmann::ordered_json;

// repr(value): strings quoted and escaped as CPython does, floats in shortest
// round-trip form (1e+16, 0.1, 2.5e-07), None/True/False, lists and dicts.
std::string python_repr(const OrderedJson& value);
// str(value): a string as it is, anything else as repr().
std::string python_str(const OrderedJson& value);
// type(value).__name__: "str", "int", "float", "bool", "NoneType", "list", "dict".
const char* python_type_name(const OrderedJson& value);
// repr() of one float.
std::string python_float_repr(double value);

// json.loads(text): nullopt where Python raises (JSON syntax; nesting deeper than 1,000
// levels, where Python's RecursionError comes a few levels sooner; NaN and Infinity are
// accepted, as Python accepts them, and read as floats).
std::optional<OrderedJson> python_json_loads(std::string_view text);

// ast.literal_eval(text) for the literals that have a JSON form: strings (all quote
// styles, prefixes r/u, escapes, adjacent strings joined), ints, floats, True,
// False, None, lists and dicts with string keys; nullopt where Python raises (more than
// 200 brackets open at once among them) or
// where the value has no JSON form (tuples, sets, bytes, complex, dicts with other keys).
std::optional<OrderedJson> python_literal_eval(std::string_view text);

// template.format(**fields) for named fields: "{name}" is str() of that field, "{{" and "}}" are
// braces. Throws aeval::Error (data) where Python raises: a missing field (KeyError), a lone
// brace; format specs and conversions ("{x:>4}", "{x!r}") are refused as not supported.
std::string python_format(std::string_view format, const OrderedJson& fields);

}  // namespace aeval::text
