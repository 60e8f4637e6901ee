#include <sndfile.h>

#include "aeval/audio.hpp"
#include "aeval/error.hpp"

namespace aeval {

void write_wav(const std::filesystem::path& path, const Audio& audio, WavEncoding encoding) {
  validate_audio(audio, "write_wav(" + path.string() + ")");
  SF_INFO info{};
  info.samplerate = audio.sample_rate;
  info.channels = audio.channels;
  info.format = SF_FORMAT_WAV | (encoding == WavEncoding::pcm16 ? SF_FORMAT_PCM_16 : SF_FORMAT_FLOAT);
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  if (!file) throw Error(ErrorCategory::audio, path.string() + ": cannot write (" + sf_strerror(nullptr) + ")");
  // Clip instead of wrapping around when float samples exceed [-1, 1].
  sf_command(file, SFC_SET_CLIPPING, nullptr, SF_TRUE);
  const auto frames = static_cast<sf_count_t>(audio.frames());
  const sf_count_t written = sf_writef_float(file, audio.samples.data(), frames);
  const int close_rc = sf_close(file);
  if (written != frames || close_rc != 0)
    throw Error(ErrorCategory::audio, path.string() + ": short write");
}

}  // namespace aeval
