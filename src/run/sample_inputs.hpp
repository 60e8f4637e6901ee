#pragma once
// What one sample gives a run: its row (id, reference, fields) and the bytes
// of the audio its prompt names and it holds. Hashed by content, never by how
// a path is spelled: the response cache keys on the audio's hashes, and the
// run store keeps the fingerprint of the whole, so a resume notices a row or
// an audio file edited since the run began.
#include <string>
#include <vector>

#include "aeval/pipeline/sample.hpp"
#include "prompts/prompt.hpp"

namespace aeval::pipeline {

struct SampleInputs {
  std::vector<std::string> prompt_audio_sha256;  // of rendered.audio, in order ("" for a file that is absent)
  std::string fingerprint;                       // sha256 of the row and of every audio file's hash
};

SampleInputs sample_inputs(const Sample& sample, const RenderedPrompt& rendered);

}  // namespace aeval::pipeline
