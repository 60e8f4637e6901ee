// Signal and embedding metrics refuse input they cannot score with an error
// that says why, and flag results the references themselves disagree on.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "aeval/error.hpp"
#include "aeval/metrics/embedding.hpp"
#include "aeval/metrics/mcd.hpp"
#include "aeval/metrics/mel_distance.hpp"
#include "aeval/metrics/stoi.hpp"

namespace {

using namespace aeval::metrics;

std::vector<double> tone(std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = 0.5 * std::sin(0.05 * double(i));
  return x;
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const aeval::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SignalErrors, ShorterThanOneAnalysisFrame) {
  EXPECT_NE(error_of([] { stoi(tone(300), tone(300), 16000); }).find("shorter than one"), std::string::npos);
  EXPECT_NE(error_of([] { mel_cepstral_distance(tone(400), tone(400), 16000); }).find("shorter than one"),
            std::string::npos);
  MelSpectrogramOptions mel;
  mel.sample_rate = 16000;
  EXPECT_NE(error_of([&] { mel_l1_distance(tone(100), tone(100), mel); }).find("shorter than"), std::string::npos);
}

TEST(SignalErrors, SilentReferenceSignals) {
  const std::vector<double> silence(16000, 0.0);
  EXPECT_NE(error_of([&] { stoi(silence, tone(16000), 16000); }).find("silent"), std::string::npos);
  EXPECT_NE(error_of([&] { mel_cepstral_distance(silence, tone(16000), 16000); }).find("silent"), std::string::npos);
}

TEST(SignalErrors, SingularCovarianceIsFlagged) {
  // 3 embeddings in 4 dimensions: rank ≤ 2, the square root is ill-conditioned.
  const aeval::NpyArray a{{3, 4}, "f8", {1, 2, 3, 4, 2, 1, 0, 3, 5, 5, 1, 1}};
  const aeval::NpyArray b{{3, 4}, "f8", {0, 2, 3, 1, 2, 2, 1, 3, 4, 1, 1, 0}};
  const auto r = frechet_distance(embedding_statistics(a, "A"), embedding_statistics(b, "B"));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("singular"), std::string::npos);
  EXPECT_TRUE(std::isfinite(r.distance));
}

TEST(SignalErrors, MismatchedEmbeddingDimensions) {
  const aeval::NpyArray a{{2, 2}, "f8", {1, 2, 3, 4}};
  const aeval::NpyArray b{{2, 3}, "f8", {1, 2, 3, 4, 5, 6}};
  EXPECT_NE(error_of([&] { frechet_distance(embedding_statistics(a, "A"), embedding_statistics(b, "B")); })
                .find("dimensions differ"),
            std::string::npos);
  EXPECT_NE(error_of([&] { embedding_statistics(aeval::NpyArray{{1, 3}, "f8", {1, 2, 3}}, "A"); }).find("at least 2"),
            std::string::npos);
}

}  // namespace
