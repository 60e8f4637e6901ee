#pragma once
// A publisher's prompt read from its pinned Python file (issue 56): the literals a module or one of its functions
// states, found by the statements around them and read with Python's own rules. A file without a piece is refused
// naming it, so a different file cannot pass for the pinned one.
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "registry/args.hpp"

namespace aeval::pipeline {

// `relative` of the publisher's release the entry names (`release`: its files at a commit), downloaded and checked
// by the SHA-256 that argument `sha256_arg` gives, cached as the entry's prompt files.
std::filesystem::path publisher_file(const registry::Args& args, const std::string& relative,
                                     const std::string& sha256_arg = "sha256");

class PythonSource {
 public:
  // `scope`: "def name(" reads that function's body, "" the whole file; `what` names the prompt in errors, with its
  // verb ("AudioCapBench's judge prompt is").
  PythonSource(const std::filesystem::path& file, std::string what, const std::string& scope = "");

  // The position just after `anchor`, searched from `from`.
  std::size_t after(const std::string& anchor, std::size_t from = 0) const;
  // The text of the literal just after `anchor`, searched from `at`; `at` moves past it.
  std::string text_after(const std::string& anchor, std::size_t& at) const;
  // The string literal at `at` (whitespace first), as written: prefix letters and quotes included.
  std::string literal(std::size_t& at) const;
  // The text of a literal as Python reads it; an f-string's fields stay as written ("{name}"), for python_format.
  std::string text_of(const std::string& written) const;
  // Adjacent string literals in parentheses, joined ("(" "a" "b" ")"); or one literal.
  std::string strings(std::size_t& at) const;
  // {"key": strings, ...} at `at`.
  std::map<std::string, std::string> dictionary(std::size_t& at) const;
  // [literal, literal, ...] at `at`: each one's text_of.
  std::vector<std::string> string_list(std::size_t& at) const;
  // The bracketed literal at `at` (a dict, a list), as ast.literal_eval reads it.
  text::OrderedJson value(std::size_t& at) const;

 private:
  void skip_space(std::size_t& at) const;
  Error missing(const std::string& anchor) const;
  Error unexpected(std::size_t at, const std::string& expected) const;

  std::filesystem::path file_;
  std::string what_, scope_, body_;
};

}  // namespace aeval::pipeline
