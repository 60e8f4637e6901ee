#pragma once
// Built-in audio codecs as models: audio in, reconstructed audio out, for the
// codec leaderboard. Each encodes and decodes in memory with its library
// (libopus, libcodec2, LAME + libsndfile's MP3 decoder, libgsm) at the
// codec's own sample rate; the reconstruction is aligned to the input by the
// lag of maximum cross-correlation within ±100 ms (the codecs' algorithmic
// delays) and cut or zero-padded to the input's length.
#include <memory>
#include <string>

#include "aeval/audio.hpp"
#include "aeval/models/model.hpp"

namespace aeval::models {

struct CodecConfig {
  std::string codec = "opus";  // opus | codec2 | mp3 | gsm | identity
  int bitrate_kbps = 12;       // opus, mp3
  int mode = 3200;             // codec2: 3200, 2400, 1600, 1400, 1300, 1200 (bit/s)
  int max_concurrency = 2;
};

// The codec's own sample rate (the rate its input is converted to).
int codec_sample_rate(const CodecConfig& config);

// Encodes and decodes `audio` (mono, at codec_sample_rate). Throws aeval::Error
// (config) for an unknown codec or an unsupported bitrate/mode.
Audio encode_decode(const Audio& audio, const CodecConfig& config);

std::unique_ptr<Model> make_codec_model(const CodecConfig& config);

}  // namespace aeval::models
