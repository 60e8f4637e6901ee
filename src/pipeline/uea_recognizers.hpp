#pragma once
// UltraEval-Audio names a speech recognizer by two entries, a model and the prompt it is asked
// with (`model_name`, `prompt_name` of Speech2text and of its TTS evaluators); aeval runs the
// same recognizer the same way as one of its scoring-model entries (registry/models/scoring.yaml).
#include <string>

namespace aeval::pipeline {

// The scoring-model entry that runs UEA's recognizer (model, prompt). Throws aeval::Error (config)
// naming the pair when none does, which makes the UEA entry unsupported with that reason.
std::string uea_recognizer(const std::string& model, const std::string& prompt);

}  // namespace aeval::pipeline
