#include <fmt/format.h>

#include "aeval/error.hpp"
#include "pipeline/prompt.hpp"

namespace aeval::pipeline {

namespace {

// What a template sees: every manifest field, plus id, audio and reference.
nlohmann::ordered_json context_of(const Sample& sample) {
  nlohmann::ordered_json c = sample.fields.is_object() ? nlohmann::ordered_json(sample.fields) : nlohmann::ordered_json::object();
  c["id"] = sample.id;
  c["audio"] = sample.audio.string();
  c["reference"] = sample.reference.value_or("");
  return c;
}

}  // namespace

Prompt Prompt::load(const Registry& registry, const std::string& name) {
  if (name.empty()) {
    Prompt p;
    p.class_id_ = "audio";
    return p;
  }
  return PromptClasses::make(registry.get(Kind::prompt, name), Kind::prompt);
}

Prompt Prompt::from_entry(const Args& args) {
  const Entry& entry = args.entry();
  const std::string& name = entry.name;
  Prompt p;
  p.name_ = name;
  p.class_id_ = entry.class_id;
  p.source_ = yaml_to_json(entry.args);
  const std::string label = fmt::format("prompt '{}' ({})", name, entry.where());
  const auto bad = [&](const std::string& what) {
    return Error(ErrorCategory::config, fmt::format("{}: {}", label, what));
  };
  if (entry.class_id == "fields") {
    for (const auto& item : entry.args["fields"]) {
      const std::string field = item.first.as<std::string>();
      if (!item.second.IsScalar()) throw bad(fmt::format("field '{}' must be a template string", field));
      p.fields_.emplace_back(field, Template(item.second.as<std::string>(), label + " field " + field));
    }
    return p;
  }
  for (const auto& m : entry.args["messages"]) {
    if (!m.IsMap() || !m["role"] || !m["content"]) throw bad("every message needs a role and a content");
    Message message{m["role"].as<std::string>(), {}};
    if (message.role != "system" && message.role != "user" && message.role != "assistant")
      throw bad(fmt::format("role '{}' is not system, user or assistant", message.role));
    const std::string where = fmt::format("{} message {}", label, p.messages_.size() + 1);
    if (m["content"].IsScalar()) {
      message.parts.push_back({"text", Template(m["content"].as<std::string>(), where)});
    } else {
      for (const auto& part : m["content"]) {
        if (!part.IsMap() || !part["type"] || !part["value"]) throw bad("a content part is {type: text|audio, value: ...}");
        const std::string type = part["type"].as<std::string>();
        if (type != "text" && type != "audio") throw bad(fmt::format("part type '{}' is not text or audio", type));
        message.parts.push_back({type, Template(part["value"].as<std::string>(), where + " " + type + " part")});
      }
    }
    p.messages_.push_back(std::move(message));
  }
  if (p.messages_.empty()) throw bad("it has no messages");
  return p;
}

namespace {
const PromptClasses::Registration kChatClass{
    {Kind::prompt, "chat", "Chat messages (system/user/assistant) of text and audio parts, rendered per sample",
     {arg::list("messages",
                "[{role: user, content: [{type: audio, value: '{{ audio }}'}, {type: text, value: '...'}]}]; "
                "content may also be one template string")}},
    Prompt::from_entry};
const PromptClasses::Registration kFieldsClass{
    {Kind::prompt, "fields",
     "A map of named templates for non-chat models (TTS text, codec input); fields whose name contains 'audio' are "
     "audio paths",
     {arg::map("fields", "{name: template}")}},
    Prompt::from_entry};
}  // namespace

RenderedPrompt Prompt::render(const Sample& sample) const {
  RenderedPrompt r;
  if (class_id_ == "audio") {
    r.shape = nlohmann::json::object();
    if (sample.audio.empty()) return r;
    r.audio.push_back(sample.audio);
    r.shape = {{"audio", {{"type", "audio"}, {"index", 0}}}};
    return r;
  }
  if (structure_) return render_jinja2(sample);
  const nlohmann::ordered_json context = context_of(sample);
  const auto audio_part = [&](const std::string& path) {
    r.audio.emplace_back(path);
    return nlohmann::json{{"type", "audio"}, {"index", r.audio.size() - 1}};
  };
  if (class_id_ == "fields") {
    r.shape = nlohmann::json::object();
    for (const auto& [field, value] : fields_) {
      const std::string text = value.render(context);
      r.shape[field] = field.find("audio") != std::string::npos ? audio_part(text) : nlohmann::json(text);
    }
    return r;
  }
  r.shape = nlohmann::json::array();
  for (const auto& message : messages_) {
    nlohmann::json parts = nlohmann::json::array();
    for (const auto& part : message.parts) {
      const std::string text = part.value.render(context);
      parts.push_back(part.type == "audio" ? audio_part(text) : nlohmann::json{{"type", "text"}, {"text", text}});
    }
    r.shape.push_back({{"role", message.role}, {"content", parts}});
  }
  return r;
}

models::Request RenderedPrompt::request(const std::string& sample_id, std::vector<Audio> loaded) const {
  models::Request request;
  request.sample_id = sample_id;
  request.audio = std::move(loaded);
  if (shape.is_array()) {
    for (const auto& m : shape) {
      models::Message message{m["role"], {}};
      for (const auto& part : m["content"]) {
        if (part["type"] == "audio") message.parts.push_back({models::Part::Type::audio, "", part["index"]});
        else message.parts.push_back({models::Part::Type::text, part["text"], 0});
      }
      request.messages.push_back(std::move(message));
    }
  } else {
    for (const auto& [field, value] : shape.items())
      if (value.is_string()) request.fields[field] = value;
  }
  return request;
}

nlohmann::json Prompt::identity() const {
  if (class_id_ == "audio") return {{"class", "audio"}, {"description", "the sample's audio alone"}};
  return {{"name", name_}, {"class", class_id_}, {"templates", source_}};
}

}  // namespace aeval::pipeline
