#include <gtest/gtest.h>
#include <sndfile.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "support/temp_dir.hpp"
#include "support/require.hpp"

namespace {

using aeval::Audio;
using aeval::Error;
using aeval::testing::TempDir;

Audio sine(int rate, int channels, double seconds, double frequency) {
  Audio a;
  a.sample_rate = rate;
  a.channels = channels;
  const auto frames = std::size_t(rate * seconds);
  for (std::size_t f = 0; f < frames; ++f)
    for (int c = 0; c < channels; ++c)
      a.samples.push_back(float(0.5 * std::sin(2 * std::numbers::pi * frequency * double(f) / rate + c)));
  return a;
}

// Amplitude of `frequency` in a mono signal (a single-bin DFT).
double amplitude_at(const Audio& a, double frequency) {
  double re = 0, im = 0;
  for (std::size_t i = 0; i < a.samples.size(); ++i) {
    const double phase = 2 * std::numbers::pi * frequency * double(i) / a.sample_rate;
    re += a.samples[i] * std::cos(phase);
    im += a.samples[i] * std::sin(phase);
  }
  return 2 * std::hypot(re, im) / double(a.samples.size());
}

// Writes `audio` with libsndfile in any container/codec it can encode.
void write_with_sndfile(const std::filesystem::path& path, const Audio& audio, int format) {
  SF_INFO info{};
  info.samplerate = audio.sample_rate;
  info.channels = audio.channels;
  info.format = format;
  SNDFILE* f = sf_open(path.c_str(), SFM_WRITE, &info);
  ASSERT_NE(f, nullptr) << sf_strerror(nullptr);
  sf_writef_float(f, audio.samples.data(), sf_count_t(audio.frames()));
  sf_close(f);
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.category(), aeval::ErrorCategory::audio);
    return e.what();
  }
  return "<no error>";
}

TEST(Audio, WavRoundTripFloatIsExact) {
  TempDir dir;
  const Audio original = sine(22050, 2, 0.3, 440);
  aeval::write_wav(dir / "a.wav", original, aeval::WavEncoding::float32);
  const Audio decoded = aeval::decode_audio(dir / "a.wav");
  EXPECT_EQ(decoded.sample_rate, 22050);
  EXPECT_EQ(decoded.channels, 2);
  EXPECT_EQ(decoded.samples, original.samples);
}

TEST(Audio, WavRoundTripPcm16IsWithinOneStep) {
  TempDir dir;
  const Audio original = sine(16000, 1, 0.2, 300);
  aeval::write_wav(dir / "a.wav", original);
  const Audio decoded = aeval::decode_audio(dir / "a.wav");
  ASSERT_EQ(decoded.samples.size(), original.samples.size());
  for (std::size_t i = 0; i < original.samples.size(); ++i)
    ASSERT_NEAR(decoded.samples[i], original.samples[i], 1.0 / 32768);
}

TEST(Audio, DecodesCompressedFormats) {
  const std::pair<const char*, int> formats[] = {
      {"a.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16},
      {"a.ogg", SF_FORMAT_OGG | SF_FORMAT_VORBIS},
      {"a.opus", SF_FORMAT_OGG | SF_FORMAT_OPUS},
      {"a.mp3", SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III},
  };
  for (const auto& [name, format] : formats) {
    TempDir dir;
    const int rate = format == (SF_FORMAT_OGG | SF_FORMAT_OPUS) ? 48000 : 44100;
    write_with_sndfile(dir / name, sine(rate, 2, 0.5, 1000), format);
    const Audio decoded = aeval::decode_audio(dir / name);
    EXPECT_EQ(decoded.sample_rate, rate) << name;
    EXPECT_EQ(decoded.channels, 2) << name;
    // Lossy codecs keep the tone: the 1 kHz component survives near 0.5.
    Audio left = aeval::to_mono(decoded);
    EXPECT_GT(amplitude_at(left, 1000), 0.2) << name;
  }
}

TEST(Audio, DecodesRealG722Prompt) {
  const std::filesystem::path prompt = "/usr/share/asterisk/sounds/en_US_f_Allison/auth-thankyou.g722";
  AEVAL_REQUIRE(std::filesystem::exists(prompt), prompt << " (asterisk-core-sounds-en-g722)");
  const Audio a = aeval::decode_audio(prompt);
  EXPECT_EQ(a.sample_rate, 16000);
  EXPECT_EQ(a.channels, 1);
  EXPECT_GT(a.seconds(), 0.3);
  EXPECT_LT(a.seconds(), 5.0);
  double energy = 0;
  for (float s : a.samples) energy += double(s) * s;
  EXPECT_GT(energy / double(a.samples.size()), 1e-5) << "speech should not decode to silence";
}

TEST(Audio, RejectsMissingEmptyAndGarbageFiles) {
  TempDir dir;
  EXPECT_NE(error_of([&] { aeval::decode_audio(dir / "missing.wav"); }).find("no such file"), std::string::npos);
  aeval::testing::write_bytes(dir / "empty.wav", "");
  EXPECT_NE(error_of([&] { aeval::decode_audio(dir / "empty.wav"); }).find("empty file"), std::string::npos);
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage += char((i * 7919) % 251);
  aeval::testing::write_bytes(dir / "garbage.wav", garbage);
  const std::string message = error_of([&] { aeval::decode_audio(dir / "garbage.wav"); });
  EXPECT_NE(message.find((dir / "garbage.wav").string()), std::string::npos) << message;
}

TEST(Audio, RejectsTruncatedWav) {
  TempDir dir;
  aeval::write_wav(dir / "full.wav", sine(16000, 1, 1.0, 440));
  const std::string bytes = aeval::testing::read_bytes(dir / "full.wav");
  aeval::testing::write_bytes(dir / "cut.wav", bytes.substr(0, bytes.size() / 2));
  EXPECT_NE(error_of([&] { aeval::decode_audio(dir / "cut.wav"); }).find("truncated"), std::string::npos);
}

TEST(Audio, RejectsHeaderOnlyWav) {
  TempDir dir;
  aeval::write_wav(dir / "full.wav", sine(16000, 1, 0.1, 440));
  aeval::testing::write_bytes(dir / "header.wav", aeval::testing::read_bytes(dir / "full.wav").substr(0, 44));
  const std::string message = error_of([&] { aeval::decode_audio(dir / "header.wav"); });
  EXPECT_TRUE(message.find("zero samples") != std::string::npos || message.find("truncated") != std::string::npos)
      << message;
}

TEST(Audio, RejectsNonFiniteSamples) {
  TempDir dir;
  Audio a = sine(16000, 1, 0.1, 440);
  a.samples[100] = std::numeric_limits<float>::quiet_NaN();
  write_with_sndfile(dir / "nan.wav", a, SF_FORMAT_WAV | SF_FORMAT_FLOAT);
  EXPECT_NE(error_of([&] { aeval::decode_audio(dir / "nan.wav"); }).find("NaN"), std::string::npos);
  EXPECT_NE(error_of([&] { aeval::write_wav(dir / "out.wav", a); }).find("frame 100"), std::string::npos);
}

TEST(Audio, RejectsAbsurdSampleRate) {
  TempDir dir;
  aeval::write_wav(dir / "ok.wav", sine(16000, 1, 0.1, 440));
  std::string bytes = aeval::testing::read_bytes(dir / "ok.wav");
  // The sample rate lives at byte 24 of a canonical WAV header: make it 3 Hz.
  bytes[24] = 3, bytes[25] = 0, bytes[26] = 0, bytes[27] = 0;
  aeval::testing::write_bytes(dir / "rate.wav", bytes);
  EXPECT_NE(error_of([&] { aeval::decode_audio(dir / "rate.wav"); }).find("sample rate"), std::string::npos);
}

TEST(Audio, ToMonoAveragesChannels) {
  Audio stereo;
  stereo.sample_rate = 8000;
  stereo.channels = 2;
  stereo.samples = {1.0f, 0.0f, 0.5f, -0.5f, -1.0f, 0.25f};
  const Audio mono = aeval::to_mono(stereo);
  EXPECT_EQ(mono.channels, 1);
  EXPECT_EQ(mono.samples, (std::vector<float>{0.5f, 0.0f, -0.375f}));
}

TEST(Audio, ResampleKeepsDurationAndTone) {
  const Audio original = sine(44100, 1, 1.0, 1000);
  const Audio down = aeval::resample(original, 16000);
  EXPECT_EQ(down.sample_rate, 16000);
  EXPECT_NEAR(double(down.frames()), 16000.0, 1.0);
  EXPECT_NEAR(amplitude_at(down, 1000), 0.5, 0.01);
  EXPECT_LT(amplitude_at(down, 3000), 0.01);
  // A tone above the new Nyquist frequency is filtered out, not aliased.
  EXPECT_LT(amplitude_at(aeval::resample(sine(44100, 1, 1.0, 12000), 16000), 4000), 0.01);
}

TEST(Audio, LoadMonoConvertsForTheModel) {
  TempDir dir;
  aeval::write_wav(dir / "s.wav", sine(44100, 2, 0.5, 500), aeval::WavEncoding::float32);
  const Audio a = aeval::load_mono(dir / "s.wav", 16000);
  EXPECT_EQ(a.sample_rate, 16000);
  EXPECT_EQ(a.channels, 1);
  EXPECT_NEAR(double(a.frames()), 8000.0, 1.0);
}

}  // namespace

namespace {

// fuzz/findings/audio_file: a big-endian float WAV of finite values near
// 1e38 overflowed to infinity when its channels were averaged and resampled.
TEST(Audio, FloatValuesTooLargeToDownmixAreRefused) {
  TempDir dir;
  const std::string finding = aeval::testing::read_bytes(std::filesystem::path(AEVAL_SOURCE_DIR) / "fuzz" / "findings" /
                                                         "audio_file" / "rifx-float-overflows-when-downmixed");
  aeval::testing::write_bytes(dir / "huge.wav", finding.substr(finding.find('\n') + 1));
  try {
    aeval::load_mono(dir / "huge.wav", 16000);
    ADD_FAILURE() << "audio that overflows loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sample values too large to downmix or resample"), std::string::npos) << e.what();
  }
}

}  // namespace
