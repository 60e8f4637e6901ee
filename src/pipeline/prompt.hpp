#pragma once
// How a sample becomes a model request: prompt entries rendered per sample.
#include <filesystem>
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
  nlohmann::json source_;
};

// Prompt classes register here (registry/factory.hpp).
using PromptClasses = ClassFactories<Prompt>;

}  // namespace aeval::pipeline
