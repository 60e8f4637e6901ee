#pragma once
// The models UltraEval-Audio's speech-out scoring names by its own entries, as the scoring-model
// entries of aeval that run each the same way (registry/models/scoring.yaml): a recognizer is a
// model and the prompt it is asked with (`model_name`, `prompt_name` of Speech2text and of the TTS
// evaluators); a speaker or emotion model is one name (`model_name`).
#include <string>

namespace aeval::pipeline {

// The scoring-model entry that runs UEA's recognizer (model, prompt). Throws aeval::Error (config)
// naming the pair when none does, which makes the UEA entry unsupported with that reason.
std::string uea_recognizer(const std::string& model, const std::string& prompt);

// The scoring-model entry that runs the speaker or emotion model UEA's TTS evaluators name by
// `model_name`. Throws aeval::Error (config) naming it when none does.
std::string uea_scoring_model(const std::string& model);

}  // namespace aeval::pipeline
