// Prompts written as UltraEval-Audio writes them (audio_evals/prompt/base.py): any YAML
// structure whose strings are jinja2 templates, rendered with StrictUndefined. Chat
// structures ([{role, contents: [{type: audio|text, value}]}]) become messages; a map
// ({audio: ..., text: ...}) becomes a fields request, as the `fields` class gives.
#include <fmt/format.h>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "prompts/prompt.hpp"
#include "registry/registry.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using registry::yaml_as_python;

namespace {

using Json = nlohmann::ordered_json;

// A template structure: maps, lists, other values and jinja2 strings.
struct Structure {
  enum class Kind { text, value, list, map } kind = Kind::value;
  std::unique_ptr<Template> text;  // text: a template
  Json value;                      // value: as PyYAML reads it (numbers, booleans, None)
  std::vector<Structure> items;    // list, map
  std::vector<std::string> keys;   // map: the key of each item
};

Structure compile(const YAML::Node& node, const std::string& label) {
  Structure s;
  if (node.IsSequence()) {
    s.kind = Structure::Kind::list;
    for (const auto& item : node) s.items.push_back(compile(item, label));
  } else if (node.IsMap()) {
    s.kind = Structure::Kind::map;
    for (const auto& item : node) {
      s.keys.push_back(item.first.Scalar());
      s.items.push_back(compile(item.second, label));
    }
  } else if (node.IsScalar()) {
    if (Json value = yaml_as_python(node); !value.is_string()) {  // a number, boolean or None
      s.value = std::move(value);
    } else {
      s.kind = Structure::Kind::text;
      s.text = std::make_unique<Template>(node.Scalar(), label, TemplateDialect::jinja2);
    }
  }
  return s;
}

Json render_node(const Structure& s, const Json& row) {
  switch (s.kind) {
    case Structure::Kind::text: return s.text->render(row);
    case Structure::Kind::value: return s.value;
    case Structure::Kind::list: {
      Json items = Json::array();
      for (const auto& item : s.items) items.push_back(render_node(item, row));
      return items;
    }
    case Structure::Kind::map: {
      Json object = Json::object();
      for (std::size_t k = 0; k < s.items.size(); ++k) object[s.keys[k]] = render_node(s.items[k], row);
      return object;
    }
  }
  return nullptr;
}

class Jinja2Prompt final : public Prompt::EntryForm {
 public:
  explicit Jinja2Prompt(const Args& args)
      : EntryForm(args.entry()),
        structure_(compile(args.node("template"), fmt::format("prompt '{}' ({})", args.entry().name, args.entry().where()))) {}

  Json render_structure(const Json& row) const override { return render_node(structure_, row); }

  RenderedPrompt render(const Sample& sample) const override {
    Json row = sample.fields.is_object() ? Json(sample.fields) : Json::object();
    if (!row.contains("WavPath") && !sample.audio.empty()) row["WavPath"] = sample.audio.string();
    const Json rendered = render_structure(row);
    RenderedPrompt r;
    r.structure = rendered;
    const auto text_part = [](const Json& value) { return Json{{"type", "text"}, {"text", text::python_str(value)}}; };
    if (rendered.is_object()) {
      Json shape = Json::object();
      for (const auto& [field, value] : rendered.items())
        shape[field] = value.is_string() ? Json(r.field(field, value.get<std::string>())) : Json(text::python_str(value));
      r.shape = nlohmann::json(shape);
      return r;
    }
    Json messages = Json::array();
    if (rendered.is_string()) {
      messages.push_back({{"role", "user"}, {"content", Json::array({text_part(rendered)})}});
    } else {
      for (const auto& m : rendered) {
        if (!m.is_object() || !m.contains("role"))
          throw Error(ErrorCategory::config, fmt::format("prompt '{}': a message needs a role", name_));
        const Json& contents = m.contains("contents") ? m["contents"] : m.contains("content") ? m["content"] : Json("");
        Json parts = Json::array();
        if (contents.is_array()) {
          for (const auto& part : contents) {
            const std::string type = part.is_object() && part.contains("type") ? text::python_str(part["type"]) : "";
            if (type != "audio" && type != "text")
              throw Error(ErrorCategory::config,
                          fmt::format("prompt '{}': a content part is {{type: audio|text, value: ...}}", name_));
            const Json value = part.contains("value") ? part["value"] : Json("");
            parts.push_back(type == "audio" ? Json(r.audio_part(text::python_str(value))) : text_part(value));
          }
        } else {
          parts.push_back(text_part(contents));
        }
        messages.push_back({{"role", text::python_str(m["role"])}, {"content", parts}});
      }
    }
    r.shape = nlohmann::json(messages);
    return r;
  }

 private:
  Structure structure_;
};

const PromptClasses::Registration kJinja2Class{
    {Kind::prompt, "jinja2",
     "Any structure whose strings are jinja2 templates (StrictUndefined), as UltraEval-Audio's prompts are: "
     "[{role, contents: [{type: audio|text, value}]}] gives chat messages, a map gives fields",
     {arg::structure("template", "the structure; strings see the row's fields, WavPath being the audio's path")},
     {},
     {{"audio_evals.prompt.base.Prompt"}}},
    [](const Args& args) { return Prompt(std::make_shared<const Jinja2Prompt>(args)); }};

}  // namespace

}  // namespace aeval::pipeline
