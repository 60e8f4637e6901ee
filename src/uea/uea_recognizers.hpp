#pragma once
// The models UltraEval-Audio's speech-out scoring names by its own entries, as the scoring-model
// entries of aeval that run each the same way (registry/models/scoring.yaml): a recognizer is a
// model and the prompt it is asked with (`model_name`, `prompt_name` of Speech2text and of the TTS
// evaluators); a speaker or emotion model is one name (`model_name`).
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "registry/classes.hpp"

namespace aeval::pipeline {

class ScoringModels;

// How aeval runs UEA's recognizer (model, prompt): a scoring-model entry of aeval's that runs it the same way
// (prompt empty: it is given the audio alone), else UEA's own model entry asked with UEA's own prompt entry, as
// UEA asks it (its class runs as a uea_model: docs/uea.md).
struct UeaRecognizer {
  std::string model, prompt;
};
UeaRecognizer uea_recognizer(const std::string& model, const std::string& prompt);

// What the recognizer an entry's `model` and `prompt` arguments name hears in an audio file: the scoring model
// given the audio alone, or asked with the prompt rendered for the file (WavPath), as UEA asks its own models.
// Throws aeval::Error (config) for a prompt the registry lacks.
// The `prompt` argument of the classes that hear with a recognizer (the TTS evaluators, Speech2text).
registry::ArgSpec recognizer_prompt_arg();

// `inference_kwargs`: what UEA's evaluator passes its model's inference() besides the prompt (SeedTTSEvalASRWER's
// generate_kwargs): given to UEA's own class (a recognizer asked with a prompt); aeval's scoring models (given the
// audio alone) decode as their entry says, so the caller checks that it asks for nothing else.
using Hearing = std::function<std::string(const std::filesystem::path& audio, const nlohmann::json& inference_kwargs)>;
Hearing uea_hearing(const registry::Registry& registry, std::shared_ptr<ScoringModels> scoring, const std::string& model,
                    const std::string& prompt);

// The scoring-model entry that runs the speaker or emotion model UEA's TTS evaluators name by
// `model_name`. Throws aeval::Error (config) naming it when none does.
std::string uea_scoring_model(const std::string& model);

}  // namespace aeval::pipeline
