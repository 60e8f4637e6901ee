#pragma once
// How a sample becomes a model request: prompt entries rendered per sample.
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "aeval/models/model.hpp"
#include "aeval/pipeline/sample.hpp"
#include "prompts/template.hpp"
#include "registry/factory.hpp"

namespace aeval::pipeline {

// A prompt rendered for one sample: the request's shape (messages or fields,
// audio parts as {"type": "audio", "index": k}) and the audio files it names.
struct RenderedPrompt {
  nlohmann::json shape;
  std::vector<std::filesystem::path> audio;
  nlohmann::ordered_json structure;  // jinja2 prompts: the structure as rendered (models::Request::structure)
  // Appends `path` to the audio sent; the content part that points at it.
  nlohmann::json audio_part(std::filesystem::path path);
  // A value of a fields shape: the audio a field whose name contains "audio" names, else the text.
  nlohmann::json field(const std::string& name, const std::string& text);
  // Turns the shape into a model request once the audio is loaded.
  models::Request request(const std::string& sample_id, std::vector<Audio> loaded) const;
};

// A prompt entry, as its class renders it. Each prompt class (chat, fields, jinja2, and the default: the
// sample's audio alone) is a Form of its own, defined in its own file.
class Prompt {
 public:
  class Form {
   public:
    virtual ~Form() = default;
    virtual RenderedPrompt render(const Sample& sample) const = 0;
    virtual nlohmann::json identity() const = 0;
    virtual bool audio_alone() const { return false; }
    virtual bool asks_each_audio() const { return false; }
    // A jinja2 prompt's structure rendered for one row, as UltraEval-Audio's Prompt.load(**row) returns
    // it (jinja2_prompt.cpp); throws aeval::Error (config) naming a missing variable, (internal) for
    // the other classes.
    virtual nlohmann::ordered_json render_structure(const nlohmann::ordered_json& row) const;
  };
  // What the forms made from a registry entry share: its name, its class and its templates as written,
  // which make its identity.
  class EntryForm : public Form {
   public:
    explicit EntryForm(const registry::Entry& entry);
    nlohmann::json identity() const override;

   protected:
    std::string name_, class_id_;
    nlohmann::json source_;
  };

  explicit Prompt(std::shared_ptr<const Form> form) : form_(std::move(form)) {}
  // name "" is the default prompt: the sample's audio, nothing else.
  static Prompt load(const registry::Registry& registry, const std::string& name);
  RenderedPrompt render(const Sample& sample) const { return form_->render(sample); }
  nlohmann::json identity() const { return form_->identity(); }
  // The default prompt: nothing but the sample's audio is sent, so records need not show it.
  bool is_audio_alone() const { return form_->audio_alone(); }
  // The model is asked once per audio clip the prompt names (models/each_audio.hpp).
  bool asks_each_audio() const { return form_->asks_each_audio(); }
  nlohmann::ordered_json render_structure(const nlohmann::ordered_json& row) const {
    return form_->render_structure(row);
  }

 private:
  std::shared_ptr<const Form> form_;
};

// Prompt classes register here (registry/factory.hpp).
using PromptClasses = registry::ClassFactories<Prompt>;

}  // namespace aeval::pipeline
