#pragma once
// Text-to-speech with espeak-ng, run as a subprocess (it is GPL: never
// linked). The request's text goes to its standard input, never through a
// shell; the WAV it writes is read back and returned as the response audio.
#include <memory>
#include <string>

#include "aeval/models/model.hpp"

namespace aeval::models {

struct EspeakConfig {
  std::string voice = "en-us";
  int words_per_minute = 175;
  int pitch = 50;  // 0-99
  int max_concurrency = 2;
  std::string program = "espeak-ng";
};

std::unique_ptr<Model> make_espeak_tts(const EspeakConfig& config);

}  // namespace aeval::models
