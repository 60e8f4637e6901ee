// Log-mel L1 and multi-scale mel distances against shared/reference/signal/mel_l1.jsonl (audiocraft).
#include <gtest/gtest.h>

#include <cmath>

#include "aeval/metrics/mel_distance.hpp"
#include "support/reference.hpp"

namespace {

TEST(MelDistanceConformance, SingleAndMultiScale) {
  AEVAL_REQUIRE_GOLDEN(records, "signal/mel_l1.jsonl");
  for (std::size_t k = 0; k < records.size(); ++k) {
    if (!aeval::testing::checked_in_this_build(k)) continue;
    const auto& r = records[k];
    const std::string id = r["id"];
    const auto& p = r["params"];
    const auto estimate = aeval::testing::reference_audio(r["estimate_audio"]), reference = aeval::testing::reference_audio(r["reference_audio"]);
    double ours;
    if (r["class"].get<std::string>().find("MultiScale") != std::string::npos) {
      aeval::metrics::MultiScaleMelOptions o;
      o.sample_rate = p["sample_rate"];
      o.range_start = p["range_start"];
      o.range_end = p["range_end"];
      o.n_mels = p["n_mels"];
      o.f_min = p["f_min"];
      o.normalized = p["normalized"];
      o.alphas = p["alphas"];
      o.floor_level = p["floor_level"];
      ours = aeval::metrics::multiscale_mel_distance(estimate, reference, o);
    } else {
      aeval::metrics::MelSpectrogramOptions o;
      o.sample_rate = p["sample_rate"];
      o.n_fft = p["n_fft"];
      o.hop_length = p["hop_length"];
      o.win_length = p["win_length"];
      o.n_mels = p["n_mels"];
      o.f_min = p["f_min"];
      o.normalized = p["normalized"];
      o.floor_level = p["floor_level"];
      ours = aeval::metrics::mel_l1_distance(estimate, reference, o);
    }
    const double expected = r["expected"]["f64"];
    EXPECT_NEAR(expected, ours, std::max(1e-12, 1e-5 * std::fabs(expected))) << id;
  }
}

}  // namespace
