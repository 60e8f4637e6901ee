// Times native DNSMOS on one thread: each network per 9.01 s window (to compare with ONNX Runtime's
// figures in shared/reference/dnsmos/README.md: P.835 188 ms, P.808 5.3 ms, one intra-op thread),
// the P.808 features, resampy-compatible resampling, and whole clips (the 41 golden inputs, as
// 16 kHz signals). Prints "name<TAB>milliseconds" (median of repeated calls) and clips per second.
// Pin it to one core: taskset -c 0 aeval_bench_dnsmos ../shared/models/dnsmos ../shared/reference [simd]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "aeval/npy.hpp"
#include "audio/resampy_resample.hpp"
#include "dnsmos/dnsmos.hpp"
#include "dnsmos/kernels.hpp"
#include "median_time.hpp"

using aeval::bench::median_ms;

namespace {

std::vector<double> tone(std::size_t n, int rate) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = 0.3 * std::sin(2 * 3.141592653589793 * 440.0 * double(i) / rate);
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: aeval_bench_dnsmos MODEL_DIR REFERENCE_DIR [best|avx512|avx2|portable]\n");
    return 2;
  }
  using aeval::dnsmos::Simd;
  const std::string simd = argc > 3 ? argv[3] : "best";
  aeval::dnsmos::Options options;
  options.simd = simd == "avx512" ? Simd::avx512 : simd == "avx2" ? Simd::avx2 : simd == "portable" ? Simd::portable : Simd::best;
  const aeval::dnsmos::Scorer regular(argv[1], options);
  options.p835 = aeval::dnsmos::P835Model::personalized;
  const aeval::dnsmos::Scorer personalized(argv[1], options);

  const std::vector<double> window = tone(aeval::dnsmos::kWindowSamples, 16000);
  const std::vector<float> window32(window.begin(), window.end());
  const std::span<const double> p808_samples(window.data(), aeval::dnsmos::kWindowSamples - 160);
  const std::vector<float> p808_input = regular.p808_input(p808_samples);
  double sink = 0;
  const auto row = [](const char* name, double ms) { std::printf("%s\t%.2f\n", name, ms); };
  row("p835_network_per_window", median_ms([&] { sink += regular.p835_raw(window32)[0]; }, 15));
  row("p835_personalized_network_per_window", median_ms([&] { sink += personalized.p835_raw(window32)[0]; }, 15));
  row("p808_network_per_window", median_ms([&] { sink += regular.p808_raw(p808_input); }, 101));
  row("p808_features_per_window", median_ms([&] { sink += regular.p808_input(p808_samples)[0]; }, 31));
  const auto at8k = tone(80000, 8000), at44k = tone(441000, 44100);
  row("resampy_8k_to_16k_10s", median_ms([&] { sink += aeval::resampy_resample(at8k, 8000, 16000)[0]; }, 5));
  row("resampy_44k1_to_16k_10s", median_ms([&] { sink += aeval::resampy_resample(at44k, 44100, 16000)[0]; }, 5));

  // Whole clips: the golden set's 16 kHz inputs (98 windows over 41 clips).
  const std::filesystem::path reference = std::filesystem::path(argv[2]) / "dnsmos";
  std::ifstream manifest(reference / "dnsmos.jsonl");
  std::vector<std::vector<double>> clips;
  for (std::string line; std::getline(manifest, line);)
    clips.push_back(aeval::read_npy(reference / nlohmann::json::parse(line)["input16k_npy"].get<std::string>()).values);
  std::size_t windows = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& clip : clips) {
    const auto scores = regular.score(clip, 16000);
    windows += scores.windows.size();
    sink += scores.ovrl;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("clips\t%zu clips, %zu windows in %.2f s: %.2f clips/s, %.1f ms per window (P.835 + P.808 + features)\n",
              clips.size(), windows, seconds, double(clips.size()) / seconds, 1000 * seconds / double(windows));
  std::printf("kernels\t%s\n", aeval::dnsmos::kernels::kernel_set(options.simd).name);
  return sink == 12345.0;  // keeps the work from being optimised away
}
