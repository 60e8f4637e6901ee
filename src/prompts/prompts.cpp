// The prompt classes of aeval's own: the default (the sample's audio alone),
// `chat` (messages of text and audio parts) and `fields` (named templates for
// models that are not chat models), each rendering a sample its own way.
#include <fmt/format.h>

#include "aeval/error.hpp"
#include "prompts/prompt.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::Entry;
using registry::Kind;
using registry::Registry;
using registry::yaml_to_json;

namespace {

// What a template sees: every manifest field, plus id, audio and reference.
nlohmann::ordered_json context_of(const Sample& sample) {
  nlohmann::ordered_json c = sample.fields.is_object() ? nlohmann::ordered_json(sample.fields) : nlohmann::ordered_json::object();
  c["id"] = sample.id;
  c["audio"] = sample.audio.string();
  c["reference"] = sample.reference.value_or("");
  return c;
}

std::string label_of(const Entry& entry) { return fmt::format("prompt '{}' ({})", entry.name, entry.where()); }

// The default prompt: the sample's audio, nothing else.
class AudioAlone final : public Prompt::Form {
 public:
  RenderedPrompt render(const Sample& sample) const override {
    RenderedPrompt r;
    r.shape = nlohmann::json::object();
    if (sample.audio.empty()) return r;
    r.shape = {{"audio", r.audio_part(sample.audio)}};
    return r;
  }
  nlohmann::json identity() const override { return {{"class", "audio"}, {"description", "the sample's audio alone"}}; }
  bool audio_alone() const override { return true; }
};

class ChatPrompt final : public Prompt::EntryForm {
 public:
  explicit ChatPrompt(const Args& args) : EntryForm(args.entry()) {
    const Entry& entry = args.entry();
    const auto bad = [&](const std::string& what) {
      return Error(ErrorCategory::config, fmt::format("{}: {}", label_of(entry), what));
    };
    for (const auto& m : entry.args["messages"]) {
      if (!m.IsMap() || !m["role"] || !m["content"]) throw bad("every message needs a role and a content");
      Message message{m["role"].as<std::string>(), {}};
      if (message.role != "system" && message.role != "user" && message.role != "assistant")
        throw bad(fmt::format("role '{}' is not system, user or assistant", message.role));
      const std::string where = fmt::format("{} message {}", label_of(entry), messages_.size() + 1);
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
      messages_.push_back(std::move(message));
    }
    if (messages_.empty()) throw bad("it has no messages");
    each_audio_ = args.boolean("each_audio");
  }
  bool asks_each_audio() const override { return each_audio_; }

  RenderedPrompt render(const Sample& sample) const override {
    RenderedPrompt r;
    const nlohmann::ordered_json context = context_of(sample);
    r.shape = nlohmann::json::array();
    for (const auto& message : messages_) {
      nlohmann::json parts = nlohmann::json::array();
      for (const auto& part : message.parts) {
        const std::string text = part.value.render(context);
        parts.push_back(part.type == "audio" ? r.audio_part(text) : nlohmann::json{{"type", "text"}, {"text", text}});
      }
      r.shape.push_back({{"role", message.role}, {"content", parts}});
    }
    return r;
  }

 private:
  struct Part {
    std::string type;  // text or audio
    Template value;
  };
  struct Message {
    std::string role;
    std::vector<Part> parts;
  };
  std::vector<Message> messages_;
  bool each_audio_ = false;
};

class FieldsPrompt final : public Prompt::EntryForm {
 public:
  explicit FieldsPrompt(const Args& args) : EntryForm(args.entry()) {
    const Entry& entry = args.entry();
    for (const auto& item : entry.args["fields"]) {
      const std::string field = item.first.as<std::string>();
      if (!item.second.IsScalar())
        throw Error(ErrorCategory::config, fmt::format("{}: field '{}' must be a template string", label_of(entry), field));
      fields_.emplace_back(field, Template(item.second.as<std::string>(), label_of(entry) + " field " + field));
    }
  }

  // Fields whose name contains "audio" name audio files.
  RenderedPrompt render(const Sample& sample) const override {
    RenderedPrompt r;
    const nlohmann::ordered_json context = context_of(sample);
    r.shape = nlohmann::json::object();
    for (const auto& [field, value] : fields_) {
      r.shape[field] = r.field(field, value.render(context));
    }
    return r;
  }

 private:
  std::vector<std::pair<std::string, Template>> fields_;
};

const PromptClasses::Registration kChatClass{
    {Kind::prompt, "chat", "Chat messages (system/user/assistant) of text and audio parts, rendered per sample",
     {arg::list("messages",
                "[{role: user, content: [{type: audio, value: '{{ audio }}'}, {type: text, value: '...'}]}]; "
                "content may also be one template string"),
      arg::boolean("each_audio", false,
                   "ask once per audio part, each request with the text and that clip alone; the answer is a JSON "
                   "array of the answers, in the clips' order")}},
    [](const Args& args) { return Prompt(std::make_shared<const ChatPrompt>(args)); }};
const PromptClasses::Registration kFieldsClass{
    {Kind::prompt, "fields",
     "A map of named templates for non-chat models (TTS text, codec input); fields whose name contains 'audio' are "
     "audio paths",
     {arg::map("fields", "{name: template}")}},
    [](const Args& args) { return Prompt(std::make_shared<const FieldsPrompt>(args)); }};

}  // namespace

Prompt Prompt::load(const Registry& registry, const std::string& name) {
  if (name.empty()) return Prompt(std::make_shared<const AudioAlone>());
  return PromptClasses::make(registry.get(Kind::prompt, name), Kind::prompt);
}

nlohmann::ordered_json Prompt::Form::render_structure(const nlohmann::ordered_json&) const {
  throw Error(ErrorCategory::internal, "prompt '" + identity().value("name", "") + "' is not a jinja2 structure");
}

Prompt::EntryForm::EntryForm(const Entry& entry)
    : name_(entry.name), class_id_(entry.class_id), source_(yaml_to_json(entry.args)) {}

nlohmann::json Prompt::EntryForm::identity() const { return {{"name", name_}, {"class", class_id_}, {"templates", source_}}; }

nlohmann::json RenderedPrompt::audio_part(std::filesystem::path path) {
  audio.push_back(std::move(path));
  return nlohmann::json{{"type", "audio"}, {"index", audio.size() - 1}};
}

nlohmann::json RenderedPrompt::field(const std::string& name, const std::string& text) {
  return name.find("audio") != std::string::npos ? audio_part(text) : nlohmann::json(text);
}

models::Request RenderedPrompt::request(const std::string& sample_id, std::vector<Audio> loaded) const {
  models::Request request;
  request.sample_id = sample_id;
  request.audio = std::move(loaded);
  request.structure = structure;
  request.audio_files = audio;
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

}  // namespace aeval::pipeline
