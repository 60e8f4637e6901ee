#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace aeval::pipeline {

// One row of a dataset: an id, its audio, its reference text and every other
// field of the manifest row (free for prompts and evaluators).
struct Sample {
  std::string id;
  std::filesystem::path audio;
  std::optional<std::string> reference;  // none: the row has no reference field (not the same as "")
  nlohmann::json fields;
  // Why the dataset could not read the row whole (a field nested too deep): the sample fails alone with it.
  std::optional<std::string> unreadable{};
};

}  // namespace aeval::pipeline
