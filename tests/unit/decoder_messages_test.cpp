// A file that will not decode says what is wrong with it, and what the
// decoding libraries print about a file goes to the run's sink (its run.log),
// not to the terminal (issue 15).
#include <gtest/gtest.h>
#include <sndfile.h>

#include <cmath>
#include <tuple>
#include <vector>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "audio/decoder_messages.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::read_bytes;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

std::string error_of(const std::filesystem::path& path) {
  try {
    aeval::decode_audio(path);
  } catch (const aeval::Error& e) {
    return e.what();
  }
  return "<decoded>";
}

TEST(DecoderMessages, ATextFileUnderAnAudioNameSaysSo) {
  TempDir dir;
  for (const char* name : {"notes.mp3", "notes.flac", "notes.wav"}) {
    write_bytes(dir / name, "404 Not Found\nThe requested URL was not found on this server.\n");
    EXPECT_EQ(error_of(dir / name), (dir / name).string() + ": a text file, not audio (it begins \"404 Not Found\")");
  }
}

TEST(DecoderMessages, AWavHeaderOfAnImpossibleRateSaysWhatItDeclares) {
  TempDir dir;
  aeval::Audio tone;
  tone.sample_rate = 16000;
  tone.channels = 1;
  tone.samples.assign(1600, 0.25f);
  aeval::write_wav(dir / "ok.wav", tone);
  const std::string bytes = read_bytes(dir / "ok.wav");
  for (const auto& [rate, text] : {std::pair{std::string(4, '\0'), "0"}, {std::string(4, '\xff'), "4294967295"}}) {
    std::string changed = bytes;
    changed.replace(24, 4, rate);  // a canonical header's sample rate
    write_bytes(dir / "bad.wav", changed);
    EXPECT_EQ(error_of(dir / "bad.wav"), (dir / "bad.wav").string() + ": its header declares a rate of " + text +
                                             " Hz, 1 channel and 16-bit samples, which make no audio");
  }
}

// audio_file: a WAV of one frame at 73,536 Hz decoded, then resampled to
// 16 kHz into no samples at all, which a model was then handed.
TEST(DecoderMessages, AudioTooShortForTheModelsRateSaysSo) {
  TempDir dir;
  aeval::Audio one_frame;
  one_frame.sample_rate = 73536;
  one_frame.channels = 1;
  one_frame.samples = {0.5f};
  aeval::write_wav(dir / "one.wav", one_frame);
  try {
    aeval::load_mono(dir / "one.wav", 16000);
    ADD_FAILURE() << "loaded";
  } catch (const aeval::Error& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "one.wav").string() + ": too short: 1 frame(s) at 73536 Hz make no "
                                                                  "sample at 16000 Hz");
  }
}

// A real MP3 (libsndfile writes it with LAME) with bytes that are not MPEG in
// its middle: mpg123 decodes around them and says so on stderr.
TEST(DecoderMessages, Mpg123NotesGoToTheSinkNotToStderr) {
  TempDir dir;
  SF_INFO info{};
  info.samplerate = 16000;
  info.channels = 1;
  info.format = SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III;
  SNDFILE* f = sf_open((dir / "tone.mp3").c_str(), SFM_WRITE, &info);
  ASSERT_NE(f, nullptr) << sf_strerror(nullptr);
  std::vector<float> tone(16000);
  for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = float(0.3 * std::sin(0.2 * double(i)));
  sf_write_float(f, tone.data(), sf_count_t(tone.size()));
  sf_close(f);
  const std::string mp3 = read_bytes(dir / "tone.mp3");
  write_bytes(dir / "damaged.mp3", mp3.substr(0, mp3.size() / 2) + std::string(300, 'x') + mp3.substr(mp3.size() / 2));

  std::vector<std::tuple<std::string, std::string, std::string>> messages;
  std::string printed;
  {
    const aeval::detail::ScopedDecoderMessageSink sink(
        [&](const std::filesystem::path& file, const std::string& library, const std::string& message) {
          messages.emplace_back(file.filename().string(), library, message);
        });
    testing::internal::CaptureStderr();
    try {
      aeval::decode_audio(dir / "damaged.mp3");
    } catch (const aeval::Error&) {  // decoded or not, the notes are what this test is about
    }
    printed = testing::internal::GetCapturedStderr();
  }

  EXPECT_EQ(printed, "");
  ASSERT_FALSE(messages.empty());
  bool illegal_header = false;
  for (const auto& [file, library, message] : messages) {
    EXPECT_EQ(file, "damaged.mp3");
    EXPECT_EQ(library, "mpg123");
    illegal_header |= message.find("Illegal Audio-MPEG-Header") != std::string::npos;
  }
  EXPECT_TRUE(illegal_header);
}

}  // namespace
