#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace aeval::pipeline {

// One row of a dataset: an id, its audio, its reference text and every other
// field of the manifest row (free for prompts and evaluators).
struct Sample {
  std::string id;
  std::filesystem::path audio;
  std::string reference;
  nlohmann::json fields;
};

}  // namespace aeval::pipeline
