#include "aeval/audio.hpp"

namespace aeval {

Audio to_mono(const Audio& audio) {
  if (audio.channels == 1) return audio;
  Audio mono;
  mono.sample_rate = audio.sample_rate;
  mono.channels = 1;
  const std::size_t frames = audio.frames();
  mono.samples.resize(frames);
  const float scale = 1.0f / float(audio.channels);
  for (std::size_t f = 0; f < frames; ++f) {
    float sum = 0.0f;
    for (int c = 0; c < audio.channels; ++c) sum += audio.samples[f * audio.channels + c];
    mono.samples[f] = sum * scale;
  }
  return mono;
}

}  // namespace aeval
