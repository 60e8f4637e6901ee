// Audio named by a locator: bytes in memory decode as their file does, a
// `#t=` fragment takes a slice, a registered container serves its clips.
#include <gtest/gtest.h>

#include <string>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "audio/audio_locator.hpp"
#include "support/temp_dir.hpp"
#include "util/sha256.hpp"

namespace {

using aeval::Audio;
using aeval::decode_audio;
using aeval::decode_audio_bytes;
using aeval::testing::read_bytes;
using aeval::testing::TempDir;

const std::filesystem::path kG722 = "/usr/share/asterisk/sounds/en_US_f_Allison/conf-adminmenu-18.g722";

std::string error_of(const std::filesystem::path& locator) {
  try {
    decode_audio(locator);
  } catch (const aeval::Error& e) {
    return e.what();
  }
  return "";
}

TEST(AudioLocator, BytesInMemoryDecodeExactlyAsTheirFile) {
  TempDir dir;
  // One file per decoder path: libsndfile (WAV, FLAC, MP3) and FFmpeg (headerless G.722).
  const Audio g722 = decode_audio(kG722);
  aeval::write_wav(dir / "a.wav", g722);
  const std::vector<std::pair<std::filesystem::path, std::string>> files = {
      {dir / "a.wav", ""}, {kG722, "prompt.g722"}};
  for (const auto& [file, hint] : files) {
    const Audio from_file = decode_audio(file);
    const Audio from_memory = decode_audio_bytes(read_bytes(file), "clip", hint.empty() ? file.string() : hint);
    EXPECT_EQ(from_memory.sample_rate, from_file.sample_rate) << file;
    EXPECT_EQ(from_memory.samples, from_file.samples) << file;
  }
}

TEST(AudioLocator, TimeFragmentTakesThoseSecondsOfTheFile) {
  TempDir dir;
  const Audio whole = decode_audio(kG722);  // 16 kHz
  ASSERT_EQ(whole.sample_rate, 16000);
  aeval::write_wav(dir / "rec.wav", whole, aeval::WavEncoding::float32);
  const Audio slice = decode_audio((dir / "rec.wav").string() + "#t=0.25,0.75");
  ASSERT_EQ(slice.frames(), 8000u);
  EXPECT_TRUE(std::equal(slice.samples.begin(), slice.samples.end(), whole.samples.begin() + 4000));
  // Open-ended, and an end past the file: up to the file's end.
  EXPECT_EQ(decode_audio((dir / "rec.wav").string() + "#t=0.5").frames(), whole.frames() - 8000);
  EXPECT_EQ(decode_audio((dir / "rec.wav").string() + "#t=0.5,999").frames(), whole.frames() - 8000);
  // The slice has its own digest, the file keeps its bytes' digest.
  EXPECT_EQ(aeval::audio_sha256(dir / "rec.wav"), aeval::sha256_hex(read_bytes(dir / "rec.wav")));
  EXPECT_NE(aeval::audio_sha256((dir / "rec.wav").string() + "#t=0.25,0.75"), aeval::audio_sha256(dir / "rec.wav"));
}

TEST(AudioLocator, BadFragmentsSayWhatTheyShouldBe) {
  TempDir dir;
  aeval::write_wav(dir / "rec.wav", decode_audio(kG722));
  const std::string rec = (dir / "rec.wav").string();
  EXPECT_NE(error_of(rec + "#t=2,1").find("t=START,END in seconds with START < END"), std::string::npos);
  EXPECT_NE(error_of(rec + "#t=abc").find("t=START,END"), std::string::npos);
  EXPECT_NE(error_of(rec + "#t=99").find("starts after the end of the file"), std::string::npos);
  EXPECT_NE(error_of(rec + "#row=3").find("neither a time range"), std::string::npos);
}

TEST(AudioLocator, AFileWhoseNameHasAHashIsThatFile) {
  TempDir dir;
  const Audio audio = decode_audio(kG722);
  aeval::write_wav(dir / "take#t=1,2.wav", audio);
  EXPECT_EQ(decode_audio(dir / "take#t=1,2.wav").frames(), audio.frames());
}

TEST(AudioLocator, RegisteredContainersServeTheirClips) {
  TempDir dir;
  aeval::write_wav(dir / "clip.wav", decode_audio(kG722));
  const std::string clip = read_bytes(dir / "clip.wav");
  aeval::testing::write_bytes(dir / "box.testclips", "container");
  aeval::detail::register_clip_reader(".testclips", [&](const std::filesystem::path& file, const std::string& fragment) {
    EXPECT_EQ(file, dir / "box.testclips");
    return aeval::detail::owned_audio_bytes(fragment == "n=1" ? clip : std::string());
  });
  const std::string box = (dir / "box.testclips").string();
  EXPECT_EQ(decode_audio(box + "#n=1").samples, decode_audio(dir / "clip.wav").samples);
  EXPECT_EQ(aeval::audio_sha256(box + "#n=1"), aeval::sha256_hex(clip));
  EXPECT_NE(error_of(box + "#n=2").find("no audio bytes stored"), std::string::npos);
}

}  // namespace
