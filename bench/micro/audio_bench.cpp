// Decode + downmix + resample throughput of the audio layer: 44.1 kHz stereo
// WAV/FLAC → 16 kHz mono, the conversion every ASR model input goes through.
// The counter `x_realtime` is seconds of audio processed per second of one core.
#include <benchmark/benchmark.h>
#include <sndfile.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <numbers>

#include "aeval/audio_io.hpp"

namespace {

constexpr double kSeconds = 30.0;

std::filesystem::path make_file(const char* name, int format) {
  const auto path = std::filesystem::temp_directory_path() / name;
  aeval::Audio a;
  a.sample_rate = 44100;
  a.channels = 2;
  const auto frames = std::size_t(a.sample_rate * kSeconds);
  std::srand(1);
  for (std::size_t f = 0; f < frames; ++f) {
    const double t = double(f) / a.sample_rate;
    // A chirp plus noise: broadband, like real audio, so the codec works.
    const float s = float(0.3 * std::sin(2 * std::numbers::pi * (200 + 2000 * t / kSeconds) * t) +
                          0.05 * (double(std::rand()) / RAND_MAX - 0.5));
    a.samples.push_back(s);
    a.samples.push_back(-s);
  }
  SF_INFO info{};
  info.samplerate = a.sample_rate;
  info.channels = a.channels;
  info.format = format;
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  sf_writef_float(file, a.samples.data(), sf_count_t(frames));
  sf_close(file);
  return path;
}

void decode_resample(benchmark::State& state, const std::filesystem::path& path) {
  for (auto _ : state) {
    const aeval::Audio out = aeval::load_mono(path, 16000);
    benchmark::DoNotOptimize(out.samples.data());
  }
  state.counters["x_realtime"] = benchmark::Counter(kSeconds * double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_DecodeResampleWav(benchmark::State& state) {
  static const auto path = make_file("aeval-bench-44k-stereo.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16);
  decode_resample(state, path);
}

void BM_DecodeResampleFlac(benchmark::State& state) {
  static const auto path = make_file("aeval-bench-44k-stereo.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16);
  decode_resample(state, path);
}

void BM_ResampleOnly(benchmark::State& state) {
  aeval::Audio a;
  a.sample_rate = 44100;
  a.channels = 1;
  a.samples.resize(std::size_t(a.sample_rate * kSeconds));
  for (std::size_t i = 0; i < a.samples.size(); ++i) a.samples[i] = float(std::sin(0.01 * double(i)));
  for (auto _ : state) benchmark::DoNotOptimize(aeval::resample(a, 16000).samples.data());
  state.counters["x_realtime"] = benchmark::Counter(kSeconds * double(state.iterations()), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_DecodeResampleWav)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeResampleFlac)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ResampleOnly)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
