#include <cmath>

#include "aeval/audio.hpp"
#include "aeval/error.hpp"

namespace aeval {

namespace {
// Real recordings range from 4 kHz telephone captures to 768 kHz lab audio;
// anything outside is a corrupt header, not audio.
constexpr int kMinRate = 1000;
constexpr int kMaxRate = 768000;
constexpr int kMaxChannels = 64;
}  // namespace

void validate_audio(const Audio& audio, const std::string& what) {
  if (audio.sample_rate < kMinRate || audio.sample_rate > kMaxRate)
    throw Error(ErrorCategory::audio, what + ": absurd sample rate " +
                                          std::to_string(audio.sample_rate) + " Hz");
  if (audio.channels < 1 || audio.channels > kMaxChannels)
    throw Error(ErrorCategory::audio,
                what + ": unsupported channel count " + std::to_string(audio.channels));
  if (audio.samples.empty()) throw Error(ErrorCategory::audio, what + ": zero samples");
  if (audio.samples.size() % audio.channels != 0)
    throw Error(ErrorCategory::audio, what + ": sample count is not a multiple of the channel count");
  for (std::size_t i = 0; i < audio.samples.size(); ++i) {
    if (!std::isfinite(audio.samples[i]))
      throw Error(ErrorCategory::audio, what + ": non-finite sample (NaN or Inf) at frame " +
                                            std::to_string(i / audio.channels));
  }
}

}  // namespace aeval
