#pragma once
// Audio files: decode any supported file to float32, write WAV. Every failure
// is an aeval::Error (category audio) naming the file.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "aeval/audio.hpp"

namespace aeval {

// Decodes WAV, FLAC, OGG/Vorbis, Opus, MP3 (libsndfile) and raw G.722 or
// anything else libsndfile rejects (FFmpeg). Rejects missing, empty,
// truncated and corrupt files, zero samples, NaN/Inf samples and absurd rates.
// `path` may name part of a file: "rec.wav#t=1.5,3.25" (seconds), or a clip
// a dataset stores inside another file ("0000.parquet#row=17&column=audio").
Audio decode_audio(const std::filesystem::path& path);

// The same for encoded audio in memory. `name` is what errors call it;
// `format_hint` is a file name ("x.g722") whose extension says what they are
// where they carry no header (".g722"); empty: probe the bytes.
Audio decode_audio_bytes(std::string_view bytes, const std::string& name, const std::string& format_hint = "");

// The SHA-256 of the audio `path` names (a clip's bytes; a slice's file and
// range): what caches and resume fingerprints key on.
std::string audio_sha256(const std::filesystem::path& path);

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
