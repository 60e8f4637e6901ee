#pragma once
// How a sample becomes a model request: prompt entries rendered per sample.
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "aeval/models/model.hpp"
#include "aeval/pipeline/sample.hpp"
#include "pipeline/template.hpp"
#include "registry/factory.hpp"

namespace aeval::pipeline {

// A prompt rendered for one sample: the request's shape (messages or fields,
// audio parts as {"type": "audio", "index": k}) and the audio files it names.
struct RenderedPrompt {
  nlohmann::json shape;
  std::vector<std::filesystem::path> audio;
  // Turns the shape into a model request once the audio is loaded.
  models::Request request(const std::string& sample_id, std::vector<Audio> loaded) const;
};

class Prompt {
 public:
  // name "" is the default prompt: the sample's audio, nothing else.
  static Prompt load(const Registry& registry, const std::string& name);
  // A chat or fields prompt from its entry (what the prompt classes build).
  static Prompt from_entry(const Args& args);
  RenderedPrompt render(const Sample& sample) const;
  nlohmann::json identity() const;
  // The default prompt: nothing but the sample's audio is sent, so records need not show it.
  bool is_audio_alone() const { return class_id_ == "audio"; }

  // A jinja2 prompt's structure rendered for one row, as UltraEval-Audio's Prompt.load(**row)
  // returns it (jinja2_prompt.cpp); throws aeval::Error (config) naming a missing variable.
  nlohmann::ordered_json render_structure(const nlohmann::ordered_json& row) const;
  struct Structure;  // a template structure: maps, lists, other values and jinja2 strings

 private:
  struct Part {
    std::string type;  // text or audio
    Template value;
  };
  struct Message {
    std::string role;
    std::vector<Part> parts;
  };
  std::string name_, class_id_;
  std::vector<Message> messages_;
  std::vector<std::pair<std::string, Template>> fields_;
  std::shared_ptr<const Structure> structure_;  // class jinja2
  nlohmann::json source_;
  friend Prompt jinja2_prompt(const Args& args);
  RenderedPrompt render_jinja2(const Sample& sample) const;
};

// Prompt classes register here (registry/factory.hpp).
using PromptClasses = ClassFactories<Prompt>;

}  // namespace aeval::pipeline
