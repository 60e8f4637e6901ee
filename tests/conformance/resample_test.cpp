// The audio layer's resamplers against torchaudio's output in
// shared/reference/signal/resample.jsonl: the torchaudio-compatible kernel to
// 2e-5 per sample, libsoxr within what the README measured for a sox-style
// resampler (max 0.1, RMS 5e-3).
#include <gtest/gtest.h>

#include <cmath>

#include "aeval/audio_io.hpp"
#include "aeval/npy.hpp"
#include "support/reference.hpp"

namespace {

TEST(ResampleConformance, TorchaudioKernelAndSoxr) {
  AEVAL_REQUIRE_GOLDEN(records, "signal/resample.jsonl");
  const auto dir = aeval::testing::reference_dir() / "signal";
  for (const auto& r : records) {
    const std::string id = r["id"];
    const aeval::Audio input = aeval::decode_audio(dir / r["input"].get<std::string>());
    const auto expected = aeval::read_npy(dir / r["expected_npy"].get<std::string>());
    const int rate = r["new_freq"];
    const aeval::Audio ours = aeval::resample(input, rate, aeval::Resampler::torchaudio);
    ASSERT_EQ(ours.samples.size(), expected.values.size()) << id;
    double worst = 0;
    for (std::size_t i = 0; i < ours.samples.size(); ++i)
      worst = std::max(worst, std::fabs(double(ours.samples[i]) - expected.values[i]));
    EXPECT_LE(worst, 2e-5) << id;

    const aeval::Audio soxr = aeval::resample(input, rate);
    const std::size_t n = std::min(soxr.samples.size(), expected.values.size());
    EXPECT_LE(std::llabs(static_cast<long long>(soxr.samples.size()) - static_cast<long long>(expected.values.size())), 1) << id;
    double max_abs = 0, energy = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double d = double(soxr.samples[i]) - expected.values[i];
      max_abs = std::max(max_abs, std::fabs(d));
      energy += d * d;
    }
    EXPECT_LE(max_abs, 0.1) << id;
    EXPECT_LE(std::sqrt(energy / double(n)), 5e-3) << id;
  }
}

}  // namespace
