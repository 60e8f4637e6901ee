#pragma once
// The audio layer: decode any supported file to float32, downmix, resample,
// write WAV. Every failure is an aeval::Error (category audio) naming the file.
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

// Decodes WAV, FLAC, OGG/Vorbis, Opus, MP3 (libsndfile) and raw G.722 or
// anything else libsndfile rejects (FFmpeg). Rejects missing, empty,
// truncated and corrupt files, zero samples, NaN/Inf samples and absurd rates.
Audio decode_audio(const std::filesystem::path& path);

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
