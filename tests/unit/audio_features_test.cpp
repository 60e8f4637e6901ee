// The shared feature module: windows, framing, FFT / STFT, mel filterbanks,
// the mel cepstrum and cross-correlation, against values derived by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "audio/features.hpp"

namespace {

namespace f = aeval::features;
using std::numbers::pi;

void expect_all_near(const std::vector<double>& expected, const std::vector<double>& actual, double tolerance) {
  ASSERT_EQ(expected.size(), actual.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(expected[i], actual[i], tolerance) << "index " << i;
}

TEST(AudioFeatures, WindowsMatchTheirClosedForms) {
  expect_all_near({0, 0.5, 1, 0.5, 0}, f::hann_window(5, f::Symmetry::symmetric), 1e-15);
  expect_all_near({0, 0.5, 1, 0.5}, f::hann_window(4, f::Symmetry::periodic), 1e-15);
  expect_all_near({1}, f::hann_window(1, f::Symmetry::symmetric), 0);
  expect_all_near({0.08, 1, 0.08}, f::hamming_window(3), 1e-15);
  expect_all_near({0.5, 1, 0.5}, f::matlab_hanning(3), 1e-15);  // MATLAB: hanning(3)
  // 0.5 − 0.5·cos(2x) = sin²(x).
  const auto w = f::hann_window(8, f::Symmetry::periodic);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_NEAR(std::pow(std::sin(pi * double(i) / 8), 2), w[i], 1e-15);
  expect_all_near({0, 0, 1, 2, 0}, f::padded_window({1, 2}, 5, 2), 0);
}

TEST(AudioFeatures, FrameCountsFollowTheLastFrameRule) {
  // Frames of 4 with hop 2: starts 0, 2, 4, 6 fit in 10 samples; numpy's range(0, 6, 2) stops at 4.
  EXPECT_EQ(4u, f::frame_count(10, 4, 2, f::LastFrame::inside));
  EXPECT_EQ(3u, f::frame_count(10, 4, 2, f::LastFrame::before_end));
  EXPECT_EQ(4u, f::frame_count(11, 4, 2, f::LastFrame::before_end));
  EXPECT_EQ(1u, f::frame_count(4, 4, 2, f::LastFrame::inside));
  EXPECT_EQ(0u, f::frame_count(4, 4, 2, f::LastFrame::before_end));
  EXPECT_EQ(0u, f::frame_count(3, 4, 2, f::LastFrame::inside));
}

TEST(AudioFeatures, PeriodicHannFramesOverlapAddToOne) {
  // sin²(πi/8) + sin²(π(i + 4)/8) = sin² + cos² = 1 wherever two frames overlap.
  const auto frames = f::windowed_frames(std::vector<double>(20, 1.0), f::hann_window(8, f::Symmetry::periodic), 4,
                                         f::LastFrame::inside);
  ASSERT_EQ(4u, frames.size());
  const auto sum = f::overlap_add(frames, 4);
  ASSERT_EQ(20u, sum.size());
  for (std::size_t i = 4; i < 16; ++i) EXPECT_NEAR(1.0, sum[i], 1e-15) << i;
  EXPECT_NEAR(0.5, sum[2], 1e-15);  // only the first frame: sin²(π/4)
}

TEST(AudioFeatures, ReflectPaddingSkipsTheEdgeSample) {
  expect_all_near({3, 2, 1, 2, 3, 4, 3}, f::reflect_padded({1, 2, 3, 4}, 2, 1), 0);
}

TEST(AudioFeatures, RealFftOfACosineHasOneBinAndInvertsBack) {
  std::vector<double> x(16);
  for (std::size_t i = 0; i < 16; ++i) x[i] = std::cos(2 * pi * 3 * double(i) / 16);
  f::RealFft fft(16);
  std::vector<std::complex<double>> spectrum;
  fft.forward(x, spectrum);
  ASSERT_EQ(9u, spectrum.size());
  for (std::size_t k = 0; k < 9; ++k) EXPECT_NEAR(k == 3 ? 8.0 : 0.0, std::abs(spectrum[k]), 1e-12) << k;
  std::vector<double> back;
  fft.inverse(spectrum, back);
  expect_all_near(x, back, 1e-14);
}

TEST(AudioFeatures, StftOfAPureTonePeaksAtItsBin) {
  // 1 kHz at 8 kHz with a 256-point periodic Hann: bin 32. The window's DFT is
  // N/2 at bin 0 and −N/4 at bins ±1, so |X| is N/4 = 64 at bin 32, 32 next to it, 0 two bins away.
  std::vector<double> tone(1024);
  for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = std::cos(2 * pi * 1000 * double(i) / 8000);
  const f::StftLayout layout{f::hann_window(256, f::Symmetry::periodic), 256, 128, f::LastFrame::inside};
  const auto mags = f::magnitude_spectrogram(tone, layout);
  ASSERT_EQ(7u, mags.size());  // (1024 − 256)/128 + 1
  for (const auto& frame : mags) {
    ASSERT_EQ(129u, frame.size());
    EXPECT_NEAR(64.0, frame[32], 1e-9);
    EXPECT_NEAR(32.0, frame[31], 1e-9);
    EXPECT_NEAR(32.0, frame[33], 1e-9);
    EXPECT_NEAR(0.0, frame[30], 1e-9);
    EXPECT_NEAR(0.0, frame[0], 1e-9);
  }
  const auto power = f::power_spectrogram(tone, layout);
  EXPECT_NEAR(64.0 * 64.0, power[3][32], 1e-7);
  std::size_t visited = 0;
  f::stft(tone, layout, [&](std::size_t t, const std::vector<std::complex<double>>& spectrum) {
    EXPECT_EQ(visited++, t);
    EXPECT_NEAR(64.0, std::abs(spectrum[32]), 1e-9);
  });
  EXPECT_EQ(7u, visited);
}

TEST(AudioFeatures, ShortFramesAreZeroPaddedToTheFftSize) {
  // 4 ones in 8 points: X_k = Σ_{i<4} e^{−jπki/4}, so |X0|² = 16, |X1|² = 1² + (1 + √2)²,
  // |X3|² = 1² + (√2 − 1)², X2 = X4 = 0.
  const f::StftLayout layout{f::padded_window({1, 1, 1, 1}, 8, 0), 4, 4, f::LastFrame::inside};
  const auto power = f::power_spectrogram(std::vector<double>(8, 1.0), layout);
  ASSERT_EQ(2u, power.size());
  for (const auto& frame : power) expect_all_near({16, 4 + 2 * std::sqrt(2.0), 0, 4 - 2 * std::sqrt(2.0), 0}, frame, 1e-12);
}

TEST(AudioFeatures, HtkMelScale) {
  EXPECT_EQ(0.0, f::hz_to_mel(0));
  EXPECT_NEAR(2595 * std::log10(2.0), f::hz_to_mel(700), 1e-12);
  EXPECT_NEAR(1234.5, f::mel_to_hz(f::hz_to_mel(1234.5)), 1e-9);
}

// 2 bands over 0–4 kHz at 8 kHz: mel points 0, ⅓, ⅔, 1 of mel(4000) = 2146.06 are
// 0, 620.58, 1791.33, 4000 Hz.
TEST(AudioFeatures, FftBinMelFilterbankHasTrianglesOnIntegerCorners) {
  // Corners floor(17·f/8000): 0, 1 (1.32), 3 (3.81), 8 (8.5).
  const auto bank = f::mel_filterbank_fft_bins(8000, 16, 2, 0, 4000);
  ASSERT_EQ(2u, bank.size());
  EXPECT_EQ(1u, bank[0].first_bin);  // bin 0 is the zero-weight left corner
  expect_all_near({1, 0.5}, bank[0].weights, 1e-15);
  EXPECT_EQ(2u, bank[1].first_bin);
  expect_all_near({0.5, 1, 0.8, 0.6, 0.4, 0.2}, bank[1].weights, 1e-15);
  const auto energies = f::filterbank_energies(bank, std::vector<double>(9, 1.0));
  expect_all_near({1.5, 3.5}, energies, 1e-15);  // row sums
}

TEST(AudioFeatures, TorchaudioMelFilterbankIsContinuousTriangles) {
  // Bins sit at 500·k Hz. Filter 0 rises to 620.58 Hz, filter 1 falls from 1791.33 to 4000 Hz;
  // between the two centres the falling and rising edges add up to 1.
  const auto bank = f::mel_filterbank_torchaudio(8000, 16, 2, 0, 4000);
  ASSERT_EQ(2u, bank.size());
  std::vector<double> dense0(9, 0.0), dense1(9, 0.0);
  for (std::size_t k = 0; k < bank[0].weights.size(); ++k) dense0[bank[0].first_bin + k] = bank[0].weights[k];
  for (std::size_t k = 0; k < bank[1].weights.size(); ++k) dense1[bank[1].first_bin + k] = bank[1].weights[k];
  EXPECT_EQ(0.0, dense0[0]);
  EXPECT_NEAR(500 / 620.5797881531344, dense0[1], 1e-5);
  for (std::size_t k = 2; k <= 3; ++k) EXPECT_NEAR(1.0, dense0[k] + dense1[k], 1e-5) << k;
  EXPECT_EQ(0.0, dense0[4]);
  EXPECT_NEAR((4000 - 3500) / (4000 - 1791.3299669693959), dense1[7], 1e-5);
  EXPECT_EQ(0.0, dense1[8]);
}

TEST(AudioFeatures, FftBinFilterEdgesAlsoAddUpToOneBetweenCentres) {
  const auto bank = f::mel_filterbank_fft_bins(16000, 512, 20, 0, 8000);
  std::vector<std::vector<double>> dense(bank.size(), std::vector<double>(257, 0.0));
  std::vector<std::size_t> peak(bank.size());
  for (std::size_t m = 0; m < bank.size(); ++m) {
    for (std::size_t k = 0; k < bank[m].weights.size(); ++k) dense[m][bank[m].first_bin + k] = bank[m].weights[k];
    for (std::size_t k = 0; k < 257; ++k)
      if (dense[m][k] > dense[m][peak[m]]) peak[m] = k;
    EXPECT_EQ(1.0, dense[m][peak[m]]) << m;
  }
  for (std::size_t m = 0; m + 1 < bank.size(); ++m)
    for (std::size_t k = peak[m]; k < peak[m + 1]; ++k) EXPECT_NEAR(1.0, dense[m][k] + dense[m + 1][k], 1e-12) << k;
}

TEST(AudioFeatures, MelCepstrumIsAnUnscaledDctWithoutC0) {
  const f::MelCepstrum cepstrum(4);
  // A constant has no energy in rows 1..M: Σ_n cos(iπ(n − ½)/M) = 0.
  expect_all_near({0, 0, 0, 0}, cepstrum({1, 1, 1, 1}), 1e-12);
  // Basis vector j gives M/2 in row j and 0 elsewhere (DCT-II rows are orthogonal).
  std::vector<double> basis(4);
  for (std::size_t n = 0; n < 4; ++n) basis[n] = std::cos(2 * pi * (double(n) + 0.5) / 4);
  expect_all_near({0, 2, 0, 0}, cepstrum(basis), 1e-12);
  expect_all_near({std::cos(pi / 8), std::cos(pi / 4), std::cos(3 * pi / 8), 0}, cepstrum({1, 0, 0, 0}), 1e-12);
}

TEST(AudioFeatures, CrossCorrelationMatchesTheDirectSum) {
  // c[lag] = Σ a[i]·b[i + lag] with a = 1 2 3, b = 0 1 0.5, by hand.
  expect_all_near({0, 0, 3, 3.5, 2, 0.5, 0}, f::cross_correlation({1, 2, 3}, {0, 1, 0.5}, 3), 1e-12);
  // Lags beyond both signals (FFT size 8 here) are zero, not wrapped around.
  const auto wide = f::cross_correlation({1, 2, 3}, {0, 1, 0.5}, 12);
  EXPECT_EQ(0.0, wide[12 + 8]);
  EXPECT_EQ(0.0, wide[12 - 10]);
}

TEST(AudioFeatures, CrossCorrelationRecoversAKnownDelay) {
  std::vector<double> a(500);
  unsigned state = 12345;
  for (double& v : a) {
    state = state * 1103515245u + 12345u;
    v = double(state >> 16 & 0x7fff) / 16384.0 - 1.0;
  }
  double energy = 0;
  for (double v : a) energy += v * v;
  for (long delay : {37L, -20L}) {
    std::vector<double> b(a.size(), 0.0);
    for (long i = 0; i < long(a.size()); ++i)
      if (i + delay >= 0 && i + delay < long(b.size())) b[std::size_t(i + delay)] = a[std::size_t(i)];
    const auto c = f::cross_correlation(a, b, 50);
    const long best = long(std::max_element(c.begin(), c.end()) - c.begin()) - 50;
    EXPECT_EQ(delay, best);
    double overlap = 0;  // the samples that stay inside b
    for (long i = 0; i < long(a.size()); ++i)
      if (i + delay >= 0 && i + delay < long(b.size())) overlap += a[std::size_t(i)] * a[std::size_t(i)];
    EXPECT_NEAR(overlap, c[std::size_t(best + 50)], 1e-9 * energy);
  }
}

}  // namespace
