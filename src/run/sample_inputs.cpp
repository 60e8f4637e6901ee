#include "run/sample_inputs.hpp"

#include <nlohmann/json.hpp>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "util/sha256.hpp"

namespace aeval::pipeline {

namespace {

// Audio that cannot be read hashes to "": a model that reads no audio may be
// given paths that do not exist, and a file that appears later is a change.
std::string content_hash(const std::filesystem::path& path) {
  try {
    return audio_sha256(path);
  } catch (const Error&) {
    return "";
  }
}

}  // namespace

SampleInputs sample_inputs(const Sample& sample, const RenderedPrompt& rendered) {
  SampleInputs inputs;
  std::string sample_audio_sha256;  // most prompts name the sample's own audio: read it once
  for (const auto& path : rendered.audio) {
    inputs.prompt_audio_sha256.push_back(content_hash(path));
    if (path == sample.audio) sample_audio_sha256 = inputs.prompt_audio_sha256.back();
  }
  if (sample_audio_sha256.empty() && !sample.audio.empty()) sample_audio_sha256 = content_hash(sample.audio);
  const nlohmann::json material = {
      {"id", sample.id},
      {"reference", sample.reference ? nlohmann::json(*sample.reference) : nlohmann::json(nullptr)},
      {"fields", sample.fields},
      {"audio_sha256", sample_audio_sha256},
      {"prompt_audio_sha256", inputs.prompt_audio_sha256}};
  inputs.fingerprint = sha256_hex(material.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return inputs;
}

}  // namespace aeval::pipeline
