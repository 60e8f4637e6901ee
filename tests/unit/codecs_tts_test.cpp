// Built-in codecs and espeak-ng TTS on real speech: lengths and alignment
// are kept, the identity codec is lossless, and quality orders as physics
// demands (more bits, closer reconstruction).
#include <gtest/gtest.h>

#include "support/require.hpp"

#include <thread>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "aeval/metrics/mel_distance.hpp"
#include "aeval/metrics/sdr.hpp"
#include "aeval/metrics/stoi.hpp"
#include "models/codecs.hpp"
#include "models/espeak_tts.hpp"

namespace {

using aeval::models::CodecConfig;

const std::filesystem::path kSpeech = "/usr/share/asterisk/sounds/en_US_f_Allison/conf-onlyperson.g722";

std::vector<double> doubles(const aeval::Audio& a) { return {a.samples.begin(), a.samples.end()}; }

struct Scores {
  double si_sdr, stoi;
};

Scores roundtrip(const CodecConfig& c) {
  const aeval::Audio in = aeval::load_mono(kSpeech, aeval::models::codec_sample_rate(c));
  const aeval::Audio out = aeval::models::encode_decode(in, c);
  EXPECT_EQ(out.samples.size(), in.samples.size()) << c.codec;
  EXPECT_EQ(out.sample_rate, in.sample_rate) << c.codec;
  const Scores s{aeval::metrics::si_sdr(doubles(out), doubles(in)),
                 aeval::metrics::stoi(doubles(in), doubles(out), in.sample_rate).value};
  ::testing::Test::RecordProperty(c.codec + std::to_string(c.bitrate_kbps + c.mode), std::to_string(s.si_sdr) + " dB, STOI " + std::to_string(s.stoi));
  return s;
}

TEST(Codecs, IdentityIsLosslessAndBitsBuyQuality) {
  AEVAL_REQUIRE(std::filesystem::exists(kSpeech), "asterisk-core-sounds-en-g722");
  const aeval::Audio in = aeval::load_mono(kSpeech, 16000);
  EXPECT_EQ(aeval::models::encode_decode(in, CodecConfig{"identity", 0, 0, 1}).samples, in.samples);

  const Scores opus6 = roundtrip({"opus", 6, 0, 1}), opus24 = roundtrip({"opus", 24, 0, 1});
  EXPECT_GT(opus24.si_sdr, opus6.si_sdr + 3);
  EXPECT_GT(opus24.stoi, opus6.stoi);
  EXPECT_GT(opus24.stoi, 0.9);
  const Scores c2_1200 = roundtrip({"codec2", 0, 1200, 1}), c2_3200 = roundtrip({"codec2", 0, 3200, 1});
  EXPECT_GT(c2_3200.stoi, c2_1200.stoi);
  EXPECT_GT(c2_1200.stoi, 0.3) << "codec2 output is aligned speech, not noise";
  const Scores mp3 = roundtrip({"mp3", 32, 0, 1}), gsm = roundtrip({"gsm", 0, 0, 1});
  EXPECT_GT(mp3.si_sdr, 5) << "LAME at 32 kbps keeps the waveform";
  EXPECT_GT(gsm.stoi, 0.8) << "GSM 06.10 keeps speech intelligible";
}

// Codec2 decodes unvoiced sound with random phases; each clip's reconstruction must depend on that clip
// alone (not on what was decoded before it, nor on which thread ran it), or reruns, --jobs and --resume
// would change the numbers.
TEST(Codecs, ACodec2ReconstructionDependsOnItsClipAlone) {
  AEVAL_REQUIRE(std::filesystem::exists(kSpeech), "asterisk-core-sounds-en-g722");
  const CodecConfig c2{"codec2", 0, 3200, 1};
  const aeval::Audio in = aeval::load_mono(kSpeech, aeval::models::codec_sample_rate(c2));
  const auto first = aeval::models::encode_decode(in, c2).samples;
  const aeval::Audio other{std::vector<float>(in.samples.rbegin(), in.samples.rend()), in.sample_rate, 1};
  aeval::models::encode_decode(other, c2);
  EXPECT_EQ(aeval::models::encode_decode(in, c2).samples, first) << "after another clip";
  std::vector<float> from_thread;
  std::thread([&] { from_thread = aeval::models::encode_decode(in, c2).samples; }).join();
  EXPECT_EQ(from_thread, first) << "on another thread";
}

TEST(Codecs, UnknownCodecsAndModesAreConfigErrors) {
  EXPECT_THROW(aeval::models::codec_sample_rate(CodecConfig{"flac", 0, 0, 1}), aeval::Error);
  const aeval::Audio in{std::vector<float>(8000, 0.1f), 8000, 1};
  EXPECT_THROW(aeval::models::encode_decode(in, CodecConfig{"codec2", 0, 999, 1}), aeval::Error);
}

TEST(EspeakTts, SpeaksTheTextAndVoicesDiffer) {
  AEVAL_REQUIRE(std::filesystem::exists("/usr/bin/espeak-ng"), "espeak-ng");
  aeval::models::Request request;
  request.sample_id = "t";
  request.fields = {{"text", "The quick brown fox jumps over the lazy dog."}};
  const auto us = aeval::models::make_espeak_tts({"en-us", 175, 50, 1, "espeak-ng"})->infer_and_wait(request);
  const auto gb = aeval::models::make_espeak_tts({"en-gb", 175, 50, 1, "espeak-ng"})->infer_and_wait(request);
  ASSERT_TRUE(us.audio && gb.audio);
  EXPECT_GT(us.audio->seconds(), 1.5);
  EXPECT_LT(us.audio->seconds(), 5.0);
  EXPECT_NE(us.audio->samples, gb.audio->samples);
  request.fields = {{"text", "  "}};
  EXPECT_THROW(aeval::models::make_espeak_tts({})->infer_and_wait(request), aeval::Error);
  aeval::models::EspeakConfig missing;
  missing.program = "no-such-espeak-aeval";
  request.fields = {{"text", "hello"}};
  try {
    aeval::models::make_espeak_tts(missing)->infer_and_wait(request);
    ADD_FAILURE() << "no error";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot run no-such-espeak-aeval"), std::string::npos) << e.what();
  }
}

}  // namespace
