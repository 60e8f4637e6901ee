#include "models/codecs.hpp"

#include <codec2/codec2.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gsm.h>
#include <lame/lame.h>
#include <opus/opus.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "audio/features.hpp"
#include "models/model_classes.hpp"

namespace aeval::models {

namespace {

std::vector<float> from_pcm16(const std::vector<int16_t>& pcm) {
  std::vector<float> out(pcm.size());
  for (std::size_t i = 0; i < pcm.size(); ++i) out[i] = float(pcm[i]) / 32768.0f;
  return out;
}

// Shifts `output` by the lag (within ±max_lag) that best correlates it with
// `input`, then cuts or zero-pads it to the input's length.
std::vector<float> align(const std::vector<float>& input, const std::vector<float>& output, std::size_t max_lag) {
  // correlation[max_lag + lag]: output delayed by lag against input.
  const std::vector<double> correlation = features::cross_correlation(
      std::vector<double>(input.begin(), input.end()), std::vector<double>(output.begin(), output.end()), max_lag);
  long best = 0;
  double best_value = -INFINITY;
  for (long lag = -long(max_lag); lag <= long(max_lag); ++lag) {
    const double v = correlation[std::size_t(lag + long(max_lag))];
    if (v > best_value) best_value = v, best = lag;
  }
  std::vector<float> aligned(input.size(), 0.0f);
  for (std::size_t i = 0; i < aligned.size(); ++i) {
    const long j = long(i) + best;
    if (j >= 0 && j < long(output.size())) aligned[i] = output[std::size_t(j)];
  }
  return aligned;
}

std::vector<float> opus_roundtrip(const std::vector<float>& x, int rate, int kbps) {
  int error = 0;
  OpusEncoder* enc = opus_encoder_create(rate, 1, OPUS_APPLICATION_AUDIO, &error);
  OpusDecoder* dec = opus_decoder_create(rate, 1, &error);
  if (!enc || !dec) throw Error(ErrorCategory::model, "opus: cannot create the codec");
  opus_encoder_ctl(enc, OPUS_SET_BITRATE(kbps * 1000));
  const int frame = rate / 50;  // 20 ms
  std::vector<float> padded = x;
  padded.resize((x.size() / std::size_t(frame) + 2) * std::size_t(frame), 0.0f);
  std::vector<unsigned char> packet(4000);
  std::vector<float> out(static_cast<std::size_t>(frame));
  std::vector<float> decoded;
  for (std::size_t at = 0; at < padded.size(); at += std::size_t(frame)) {
    const int bytes = opus_encode_float(enc, padded.data() + at, frame, packet.data(), int(packet.size()));
    if (bytes < 0) throw Error(ErrorCategory::model, fmt::format("opus: encoding failed ({})", opus_strerror(bytes)));
    const int samples = opus_decode_float(dec, packet.data(), bytes, out.data(), frame, 0);
    if (samples < 0) throw Error(ErrorCategory::model, fmt::format("opus: decoding failed ({})", opus_strerror(samples)));
    decoded.insert(decoded.end(), out.begin(), out.begin() + samples);
  }
  opus_encoder_destroy(enc);
  opus_decoder_destroy(dec);
  return decoded;
}

// libcodec2 draws the phases of unvoiced harmonics from codec2_rand(), one generator with one static
// state for the whole process: a clip's reconstruction then depends on every clip decoded before it, in
// whatever order threads ran them, which breaks --jobs, --resume and the cache's equality of reruns.
// The library calls it through its PLT, so this definition takes its place: the same generator
// (libcodec2 1.0's LCG, state 1 at load), with a state per thread that each round trip starts afresh.
thread_local std::uint64_t codec2_random_state = 1;

}  // namespace

extern "C" __attribute__((visibility("default"))) int codec2_rand(void) {
  codec2_random_state = codec2_random_state * 1103515245u + 12345u;
  return int((codec2_random_state >> 16) & 0x7fff);
}

namespace {

std::vector<float> codec2_roundtrip(const std::vector<float>& x, int mode_bps) {
  codec2_random_state = 1;
  const std::pair<int, int> modes[] = {{3200, CODEC2_MODE_3200}, {2400, CODEC2_MODE_2400}, {1600, CODEC2_MODE_1600},
                                       {1400, CODEC2_MODE_1400}, {1300, CODEC2_MODE_1300}, {1200, CODEC2_MODE_1200}};
  int mode = -1;
  for (const auto& [bps, m] : modes)
    if (bps == mode_bps) mode = m;
  if (mode < 0) throw Error(ErrorCategory::config, fmt::format("codec2: no mode {} (3200, 2400, 1600, 1400, 1300, 1200)", mode_bps));
  CODEC2* c2 = codec2_create(mode);
  if (!c2) throw Error(ErrorCategory::model, "codec2: cannot create the codec");
  const int frame = codec2_samples_per_frame(c2);
  std::vector<int16_t> pcm = to_pcm16(x);
  pcm.resize((pcm.size() / std::size_t(frame) + 2) * std::size_t(frame), 0);
  std::vector<unsigned char> bits(std::size_t(codec2_bytes_per_frame(c2)));
  std::vector<int16_t> out(static_cast<std::size_t>(frame)), decoded;
  for (std::size_t at = 0; at < pcm.size(); at += std::size_t(frame)) {
    codec2_encode(c2, bits.data(), pcm.data() + at);
    codec2_decode(c2, out.data(), bits.data());
    decoded.insert(decoded.end(), out.begin(), out.end());
  }
  codec2_destroy(c2);
  return from_pcm16(decoded);
}

std::vector<float> gsm_roundtrip(const std::vector<float>& x) {
  gsm g = gsm_create();
  if (!g) throw Error(ErrorCategory::model, "gsm: cannot create the codec");
  std::vector<int16_t> pcm = to_pcm16(x);
  pcm.resize((pcm.size() / 160 + 2) * 160, 0);
  gsm_frame frame;
  std::vector<int16_t> out(160), decoded;
  for (std::size_t at = 0; at < pcm.size(); at += 160) {
    gsm_encode(g, pcm.data() + at, frame);
    if (gsm_decode(g, frame, out.data()) < 0) throw Error(ErrorCategory::model, "gsm: decoding failed");
    decoded.insert(decoded.end(), out.begin(), out.end());
  }
  gsm_destroy(g);
  return from_pcm16(decoded);
}

std::vector<float> mp3_roundtrip(const std::vector<float>& x, int rate, int kbps) {
  lame_t lame = lame_init();
  lame_set_in_samplerate(lame, rate);
  lame_set_out_samplerate(lame, rate);
  lame_set_num_channels(lame, 1);
  lame_set_mode(lame, MONO);
  lame_set_brate(lame, kbps);
  lame_set_bWriteVbrTag(lame, 0);
  if (lame_init_params(lame) < 0) {
    lame_close(lame);
    throw Error(ErrorCategory::config, fmt::format("mp3: LAME does not encode {} kbps at {} Hz", kbps, rate));
  }
  std::vector<unsigned char> mp3(x.size() * 5 / 4 + 7200 + 16384);
  int bytes = lame_encode_buffer_ieee_float(lame, x.data(), nullptr, int(x.size()), mp3.data(), int(mp3.size()));
  if (bytes < 0) {
    lame_close(lame);
    throw Error(ErrorCategory::model, "mp3: LAME encoding failed");
  }
  bytes += lame_encode_flush(lame, mp3.data() + bytes, int(mp3.size()) - bytes);
  lame_close(lame);
  // libsndfile (mpg123) decodes it; a temporary file is its simplest input.
  char name[] = "/tmp/aeval-mp3-XXXXXX";
  const int fd = mkstemp(name);
  if (fd < 0) throw Error(ErrorCategory::model, "mp3: cannot create a temporary file");
  close(fd);
  std::ofstream(name, std::ios::binary).write(reinterpret_cast<const char*>(mp3.data()), bytes);
  Audio decoded;
  try {
    decoded = decode_audio(name);
  } catch (...) {
    std::remove(name);
    throw;
  }
  std::remove(name);
  return decoded.samples;
}

// Each codec once: its sample rate, its round trip (none: the input itself) and what its identity records.
struct Codec {
  const char* name;
  int sample_rate;
  std::vector<float> (*roundtrip)(const std::vector<float>& samples, const CodecConfig& config);
  void (*describe)(nlohmann::json& identity, const CodecConfig& config);
};

const Codec kCodecs[] = {
    {"opus", 16000, [](const std::vector<float>& x, const CodecConfig& c) { return opus_roundtrip(x, 16000, c.bitrate_kbps); },
     [](nlohmann::json& j, const CodecConfig& c) { j["bitrate_kbps"] = c.bitrate_kbps, j["library"] = opus_get_version_string(); }},
    {"codec2", 8000, [](const std::vector<float>& x, const CodecConfig& c) { return codec2_roundtrip(x, c.mode); },
     [](nlohmann::json& j, const CodecConfig& c) { j["mode"] = c.mode, j["bitrate_kbps"] = c.mode / 1000.0, j["library"] = "libcodec2"; }},
    {"mp3", 16000, [](const std::vector<float>& x, const CodecConfig& c) { return mp3_roundtrip(x, 16000, c.bitrate_kbps); },
     [](nlohmann::json& j, const CodecConfig& c) {
       j["bitrate_kbps"] = c.bitrate_kbps, j["library"] = std::string("LAME ") + get_lame_version();
     }},
    {"gsm", 8000, [](const std::vector<float>& x, const CodecConfig&) { return gsm_roundtrip(x); },
     // 33-byte frames, 50 per second
     [](nlohmann::json& j, const CodecConfig&) { j["bitrate_kbps"] = 13.2, j["library"] = "libgsm 06.10"; }},
    {"identity", 16000, nullptr, [](nlohmann::json& j, const CodecConfig&) { j["bitrate_kbps"] = 16000 * 16 / 1000.0; }},  // 16-bit PCM
};

std::vector<std::string> codec_names() {
  std::vector<std::string> names;
  for (const auto& codec : kCodecs) names.emplace_back(codec.name);
  return names;
}

const Codec& codec_of(const CodecConfig& c) {
  for (const auto& codec : kCodecs)
    if (c.codec == codec.name) return codec;
  throw Error(ErrorCategory::config, fmt::format("unknown codec '{}' ({})", c.codec, fmt::join(codec_names(), ", ")));
}

}  // namespace

int codec_sample_rate(const CodecConfig& c) { return codec_of(c).sample_rate; }

Audio encode_decode(const Audio& audio, const CodecConfig& c) {
  const Codec& codec = codec_of(c);
  const int rate = codec.sample_rate;
  if (audio.sample_rate != rate || audio.channels != 1)
    throw Error(ErrorCategory::internal, fmt::format("{} needs {} Hz mono input", c.codec, rate));
  if (!codec.roundtrip) return audio;
  return Audio{align(audio.samples, codec.roundtrip(audio.samples, c), std::size_t(rate / 10)), rate, 1};
}

namespace {

class CodecModel final : public BlockingModel {
 public:
  explicit CodecModel(CodecConfig c) : config_(std::move(c)), rate_(codec_sample_rate(config_)) {}
  Response compute(const Request& request) override {
    if (request.audio.size() != 1)
      throw Error(ErrorCategory::model, fmt::format("{}: a codec takes one audio input, got {}", config_.codec,
                                                    request.audio.size()));
    const auto start = std::chrono::steady_clock::now();
    Response r;
    r.audio = encode_decode(request.audio[0], config_);
    r.compute_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }
  int input_sample_rate() const override { return rate_; }
  int max_concurrency() const override { return config_.max_concurrency; }
  bool cacheable() const override { return false; }
  nlohmann::json identity() const override {
    nlohmann::json j = {{"backend", "codec"}, {"codec", config_.codec}, {"sample_rate", rate_},
                        {"alignment", "max cross-correlation lag within ±100 ms, cut/padded to the input length"}};
    codec_of(config_).describe(j, config_);
    return j;
  }

 private:
  CodecConfig config_;
  int rate_;
};

}  // namespace

std::unique_ptr<Model> make_codec_model(const CodecConfig& config) { return std::make_unique<CodecModel>(config); }

namespace {
namespace arg = registry::arg;
const CodecConfig kCodecDefaults;
const ModelClasses::Registration kCodecClass{
    {registry::Kind::model, "codec",
     "A built-in audio codec: audio in, reconstructed audio out (libopus, libcodec2, LAME, libgsm)",
     {arg::choice("codec", kCodecDefaults.codec, codec_names()),
      arg::integer("bitrate_kbps", kCodecDefaults.bitrate_kbps, "opus and mp3"),
      arg::integer("mode", kCodecDefaults.mode, "codec2 bit rate: 3200, 2400, 1600, 1400, 1300, 1200"),
      arg::integer("max_concurrency", kCodecDefaults.max_concurrency).at_least(1)}},
    [](const registry::Args& args) {
      CodecConfig config;
      config.codec = args.text("codec");
      config.bitrate_kbps = args.integer("bitrate_kbps");
      config.mode = args.integer("mode");
      config.max_concurrency = args.integer("max_concurrency");
      codec_sample_rate(config);  // an unsupported mode fails here, at load
      return make_codec_model(config);
    }};
}  // namespace

}  // namespace aeval::models
