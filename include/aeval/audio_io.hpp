#pragma once
// Audio files: decode any supported file to float32, write WAV. Every failure
// is an aeval::Error (category audio) naming the file.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "aeval/audio.hpp"

namespace aeval {

// Decodes WAV, FLAC, OGG/Vorbis, Opus, MP3 (libsndfile) and raw G.722 or
// anything else libsndfile rejects (FFmpeg). Rejects missing, empty,
// truncated and corrupt files, zero samples, NaN/Inf samples and absurd rates.
Audio decode_audio(const std::filesystem::path& path);

// Decodes, downmixes and resamples: what a model that wants `rate` Hz mono needs.
Audio load_mono(const std::filesystem::path& path, int rate);

// 16-bit PCM: round to nearest, clip to [-32768, 32767] (what int16 codecs and decoders take).
std::vector<int16_t> to_pcm16(const std::vector<float>& samples);

enum class WavEncoding { pcm16, float32 };
// A complete WAV file in memory (for uploads); samples beyond [-1, 1] clip.
std::string encode_wav(const Audio& audio, WavEncoding encoding = WavEncoding::pcm16);
void write_wav(const std::filesystem::path& path, const Audio& audio,
               WavEncoding encoding = WavEncoding::pcm16);

}  // namespace aeval
