#pragma once
// A sample's record, as the run store keeps it and samples.jsonl shows it:
// the sample itself, the model's prediction, the scores, or the error.
#include <exception>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "aeval/pipeline/sample.hpp"
#include "tasks/loaded_task.hpp"

namespace aeval::pipeline {

// The sample's own part of its record; fields repeat only what id, audio and
// reference do not already say.
nlohmann::json sample_json(const Sample& sample);
// The sample a stored record was made from.
Sample sample_of(const nlohmann::json& record);

// {stage, category, message}: a failure as the record states it.
nlohmann::json error_json(const std::string& stage, const std::exception& error);

// Post-processes the record's prediction and scores it: the part rescore
// repeats. A record's output_audio is relative to `run_dir`; when the model
// spoke, the first post-process reads its spoken_answer(). A failure here
// is the record's error at stage "score".
void score_into(nlohmann::json& record, const Sample& sample, const LoadedTask& task,
                const std::filesystem::path& run_dir);

}  // namespace aeval::pipeline
