#pragma once
// Audio in memory: float32 samples, downmix, resample, validation. Reading
// and writing files is aeval/audio_io.hpp. Every failure is an aeval::Error
// (category audio) naming its source.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace aeval {

struct Audio {
  std::vector<float> samples;  // interleaved, channels * frames values
  int sample_rate = 0;
  int channels = 0;

  std::size_t frames() const { return channels > 0 ? samples.size() / channels : 0; }
  double seconds() const { return sample_rate > 0 ? double(frames()) / sample_rate : 0.0; }
};

// Checks the invariants every decoded or generated Audio must satisfy; `what`
// names the source in the error message.
void validate_audio(const Audio& audio, const std::string& what);

// Averages all channels into one.
Audio to_mono(const Audio& audio);

enum class Resampler {
  soxr_hq,     // libsoxr at SOXR_HQ: the sox-style default
  torchaudio,  // torchaudio 0.13's sinc_interpolation kernel (Hann, width 6, rolloff 0.99)
};

// Resamples every channel. Returns a copy when the rate already matches.
// Use Resampler::torchaudio where parity with a PyTorch pipeline matters
// (AudioBERTScore's reference resamples with torchaudio).
Audio resample(const Audio& audio, int target_rate, Resampler resampler = Resampler::soxr_hq);


}  // namespace aeval
