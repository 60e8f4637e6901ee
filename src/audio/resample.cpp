// Resampling with libsoxr at its high-quality setting (SOXR_HQ: 20-bit
// precision, 91% passband), the sox-style resampler of the audio layer.
#include <soxr.h>

#include <cmath>

#include "aeval/audio.hpp"
#include "aeval/error.hpp"

namespace aeval {

namespace detail {
Audio torchaudio_resample(const Audio& audio, int target_rate);
}

Audio resample(const Audio& audio, int target_rate, Resampler resampler) {
  if (target_rate <= 0)
    throw Error(ErrorCategory::audio, "resample: invalid target rate " + std::to_string(target_rate));
  if (audio.sample_rate == target_rate) return audio;
  if (audio.sample_rate <= 0 || audio.channels <= 0)
    throw Error(ErrorCategory::audio, "resample: input has no valid rate or channel count");
  if (resampler == Resampler::torchaudio) return detail::torchaudio_resample(audio, target_rate);

  const std::size_t in_frames = audio.frames();
  const auto out_capacity = static_cast<std::size_t>(
      std::ceil(double(in_frames) * target_rate / audio.sample_rate)) + 1;
  Audio out;
  out.sample_rate = target_rate;
  out.channels = audio.channels;
  out.samples.resize(out_capacity * audio.channels);

  const soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
  const soxr_quality_spec_t quality = soxr_quality_spec(SOXR_HQ, 0);
  std::size_t done = 0;
  soxr_error_t err = soxr_oneshot(audio.sample_rate, target_rate, audio.channels,
                                  audio.samples.data(), in_frames, nullptr,
                                  out.samples.data(), out_capacity, &done, &io, &quality, nullptr);
  if (err) throw Error(ErrorCategory::audio, std::string("resample: libsoxr failed: ") + err);
  out.samples.resize(done * audio.channels);
  return out;
}

}  // namespace aeval
