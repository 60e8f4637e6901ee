#pragma once
// A "model" whose answers were produced elsewhere: a JSONL file of
// {id, prediction} rows, looked up by sample id. It lets aeval score outputs
// of any system (a paper's released predictions, a cluster job) with the same
// tasks, post-processing and evaluators.
#include <filesystem>
#include <memory>
#include <string>

#include "aeval/models/model.hpp"

namespace aeval::models {

struct PredictionsFileConfig {
  std::filesystem::path path;
  std::string id_field = "id";
  std::string prediction_field = "prediction";
};

// Throws aeval::Error (data) naming file and line for malformed rows and
// duplicate ids. A sample without a row fails alone when it is inferred.
std::unique_ptr<Model> make_predictions_file(const PredictionsFileConfig& config);

}  // namespace aeval::models
