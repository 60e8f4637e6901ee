#include <sndfile.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"

namespace aeval {

namespace {

// libsndfile writing into a growing string (its "virtual I/O").
struct Sink {
  std::string bytes;
  sf_count_t position = 0;
};

sf_count_t sink_length(void* user) { return sf_count_t(static_cast<Sink*>(user)->bytes.size()); }
sf_count_t sink_seek(sf_count_t offset, int whence, void* user) {
  auto* s = static_cast<Sink*>(user);
  const sf_count_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? s->position : sf_count_t(s->bytes.size());
  s->position = base + offset;
  return s->position;
}
sf_count_t sink_read(void*, sf_count_t, void*) { return 0; }
sf_count_t sink_write(const void* data, sf_count_t count, void* user) {
  auto* s = static_cast<Sink*>(user);
  const auto end = std::size_t(s->position + count);
  if (end > s->bytes.size()) s->bytes.resize(end);
  std::memcpy(s->bytes.data() + s->position, data, std::size_t(count));
  s->position += count;
  return count;
}
sf_count_t sink_tell(void* user) { return static_cast<Sink*>(user)->position; }

}  // namespace

std::vector<int16_t> to_pcm16(const std::vector<float>& samples) {
  std::vector<int16_t> pcm(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const float scaled = std::nearbyint(samples[i] * 32768.0f);
    pcm[i] = int16_t(std::fmax(-32768.0f, std::fmin(32767.0f, scaled)));
  }
  return pcm;
}

std::string encode_wav(const Audio& audio, WavEncoding encoding) {
  validate_audio(audio, "encode_wav");
  SF_INFO info{};
  info.samplerate = audio.sample_rate;
  info.channels = audio.channels;
  info.format = SF_FORMAT_WAV | (encoding == WavEncoding::pcm16 ? SF_FORMAT_PCM_16 : SF_FORMAT_FLOAT);
  SF_VIRTUAL_IO io{sink_length, sink_seek, sink_read, sink_write, sink_tell};
  Sink sink;
  SNDFILE* file = sf_open_virtual(&io, SFM_WRITE, &info, &sink);
  if (!file) throw Error(ErrorCategory::audio, std::string("cannot encode WAV: ") + sf_strerror(nullptr));
  // Clip instead of wrapping around when float samples exceed [-1, 1].
  sf_command(file, SFC_SET_CLIPPING, nullptr, SF_TRUE);
  // No PEAK chunk: it records when it was written, and the same audio must be the same bytes
  // (a resumed run's outputs, the response cache's content keys).
  sf_command(file, SFC_SET_ADD_PEAK_CHUNK, nullptr, SF_FALSE);
  const auto frames = static_cast<sf_count_t>(audio.frames());
  const sf_count_t written = sf_writef_float(file, audio.samples.data(), frames);
  const int close_rc = sf_close(file);
  if (written != frames || close_rc != 0) throw Error(ErrorCategory::audio, "WAV encoding stopped short");
  return std::move(sink.bytes);
}

void write_wav(const std::filesystem::path& path, const Audio& audio, WavEncoding encoding) {
  const std::string bytes = encode_wav(audio, encoding);
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  if (!out) throw Error(ErrorCategory::audio, path.string() + ": cannot write");
}

}  // namespace aeval
