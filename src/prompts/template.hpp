#pragma once
// Prompt templates: a small, documented subset of Jinja (docs/templates.md).
//   {{ expr }}  expressions with dotted access, [index], literals, and filters:
//               default, lower, upper, trim, join, length, replace, tojson
//   {% if %}{% elif %}{% else %}{% endif %}, {% for x in xs %}{% endfor %}
//               (inside a loop: loop.index, loop.index0, loop.first, loop.last, loop.length)
//   {# comments #}, and '-' inside a delimiter to strip whitespace on that side.
// A template only reads its context: there is no way to reach files, the
// network or processes, and rendered text is never parsed again, so dataset
// text that looks like template syntax stays text.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace aeval::pipeline {

// aeval: the language docs/templates.md describes. jinja2: what jinja2's
// Template(source, undefined=StrictUndefined).render(**row) gives, as
// UltraEval-Audio renders its prompts: values print as Python's str() (a list
// as ['a', 'b']), `default` replaces only a missing value (not a None), the
// source's line endings become "\n" and one final newline is dropped.
enum class TemplateDialect { aeval, jinja2 };

class Template {
 public:
  // `name` appears in every error ("prompt 'qa' (registry/prompts/qa.yaml:3)").
  // Throws aeval::Error (config) with the line and column of a syntax error.
  Template(std::string_view source, std::string name, TemplateDialect dialect = TemplateDialect::aeval);
  ~Template();
  Template(Template&&) noexcept;
  Template& operator=(Template&&) noexcept;

  // Throws aeval::Error (config) naming the template and the missing field
  // when the template uses a variable the context does not have.
  std::string render(const nlohmann::json& context) const;
  // The same, with maps in the order they were written (Python dicts print so).
  std::string render(const nlohmann::ordered_json& context) const;

  const std::string& source() const { return source_; }

 private:
  struct Node;
  std::string source_, name_;
  TemplateDialect dialect_;
  std::unique_ptr<Node> root_;
};

}  // namespace aeval::pipeline
