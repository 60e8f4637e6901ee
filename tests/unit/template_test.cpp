// The prompt template language (docs/templates.md): what it renders, what it
// refuses, and that dataset text is never executed.
#include "prompts/template.hpp"

#include <gtest/gtest.h>

#include "aeval/error.hpp"

namespace {

using aeval::pipeline::Template;
using nlohmann::json;

std::string render(const std::string& source, const json& context) { return Template(source, "t").render(context); }

std::string error_of(const std::string& source, const json& context = json::object()) {
  try {
    render(source, context);
  } catch (const aeval::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Template, ExpressionsAndFilters) {
  const json c = {{"question", "  What is heard?  "},
                  {"choices", {"dog", "cat", "rain"}},
                  {"meta", {{"lang", "EN"}, {"n", 3}, {"score", 0.5}}}};
  EXPECT_EQ(render("Q: {{ question | trim }}", c), "Q: What is heard?");
  EXPECT_EQ(render("{{ choices | join(', ') }} ({{ choices | length }})", c), "dog, cat, rain (3)");
  EXPECT_EQ(render("{{ meta.lang | lower }}-{{ meta.lang|upper }}", c), "en-EN");
  EXPECT_EQ(render("{{ choices[0] }} {{ choices[-1] }} {{ meta['n'] }} {{ meta.score }}", c), "dog rain 3 0.5");
  EXPECT_EQ(render("{{ missing | default('none given') }}", c), "none given");
  EXPECT_EQ(render("{{ question | trim | replace('?', '!') }}", c), "What is heard!");
  EXPECT_EQ(render("{{ meta | tojson }}", c), R"({"lang":"EN","n":3,"score":0.5})");
  EXPECT_EQ(render("{{ 'ß' | upper }} {{ 'naïve' | length }}", c), "SS 5");
}

TEST(Template, ControlFlowAndWhitespace) {
  const json c = {{"choices", {"dog", "cat"}}, {"lang", "zh"}};
  EXPECT_EQ(render("{% for c in choices %}[{{ c }}]{% endfor %}", c), "[dog][cat]");
  EXPECT_EQ(render("{% for c in choices %}{{ 'ABC'[loop.index0] }}. {{ c }}{% if not loop.last %}, {% endif %}{% endfor %}", c),
            "A. dog, B. cat");
  EXPECT_EQ(render("{% if lang == 'en' %}E{% elif lang == 'zh' %}Z{% else %}?{% endif %}", c), "Z");
  EXPECT_EQ(render("{% if missing is defined %}yes{% else %}no{% endif %}", c), "no");
  EXPECT_EQ(render("{% if 'cat' in choices and not (lang != 'zh') %}ok{% endif %}", c), "ok");
  EXPECT_EQ(render("a {# a comment #}b", c), "a b");
  EXPECT_EQ(render("Choices:\n{%- for c in choices %}\n  {{- c }}{% endfor %}", c), "Choices:dogcat");
}

TEST(Template, UndefinedFieldsNameTheTemplateAndField) {
  const std::string e = error_of("Hello\n{{ sample.question }}", {{"sample", {{"text", "x"}}}});
  EXPECT_NE(e.find("t: template line 2"), std::string::npos) << e;
  EXPECT_NE(e.find("'sample.question' is not defined"), std::string::npos) << e;
  EXPECT_NE(e.find("default"), std::string::npos) << e;
}

TEST(Template, SyntaxErrorsGiveTheLine) {
  EXPECT_NE(error_of("ok\n{{ question ").find("line 2"), std::string::npos);
  EXPECT_NE(error_of("{% if x %}no end").find("endif"), std::string::npos);
  EXPECT_NE(error_of("{{ x | shout }}", {{"x", "a"}}).find("unknown filter 'shout'"), std::string::npos);
  EXPECT_NE(error_of("{% include 'secrets.txt' %}").find("unknown or misplaced tag 'include'"), std::string::npos);
  EXPECT_NE(error_of("{{ x.__class__ }}", {{"x", "a"}}).find("not defined"), std::string::npos);
}

TEST(Template, DatasetTextThatLooksLikeTemplateSyntaxStaysText) {
  const json c = {{"text", "{{ secret }} {% for x in y %}{% endfor %} {# #} {% include '/etc/passwd' %}"},
                  {"secret", "LEAKED"}};
  const std::string out = render("Transcript: {{ text }}", c);
  EXPECT_EQ(out, "Transcript: " + c["text"].get<std::string>());
  EXPECT_EQ(out.find("LEAKED"), std::string::npos);
}

}  // namespace
