// Mel-cepstral distance and its penalty against shared/reference/signal/mcd.jsonl
// (mel_cepstral_distance 0.0.3 with fastdtw), all five alignment modes.
#include <gtest/gtest.h>

#include <cmath>

#include "aeval/metrics/mcd.hpp"
#include "support/reference.hpp"

namespace {

TEST(McdConformance, AllModes) {
  AEVAL_REQUIRE_GOLDEN(records, "signal/mcd.jsonl");
  for (std::size_t k = 0; k < records.size(); ++k) {
    if (!aeval::testing::checked_in_this_build(k)) continue;
    const auto& r = records[k];
    const std::string id = r["id"];
    const auto& p = r["params"];
    aeval::metrics::McdOptions o;
    o.n_fft_ms = p["n_fft"];
    o.win_len_ms = p["win_len"];
    o.hop_len_ms = p["hop_len"];
    o.M = p["M"];
    o.s = p["s"];
    o.D = p["D"];
    o.aligning = p["aligning"];
    o.align_target = p["align_target"];
    o.dtw_radius = p["dtw_radius"].is_null() ? std::nullopt : std::optional<int>(p["dtw_radius"].get<int>());
    const auto result = aeval::metrics::mel_cepstral_distance(aeval::testing::reference_audio(r["audio_A"]), aeval::testing::reference_audio(r["audio_B"]), r["fs"], o);
    const double mcd = r["expected"]["mcd"], penalty = r["expected"]["penalty"];
    EXPECT_NEAR(mcd, result.mcd, std::max(1e-12, 1e-7 * std::fabs(mcd))) << id;
    EXPECT_NEAR(penalty, result.penalty, std::max(1e-12, 1e-7 * std::fabs(penalty))) << id;
  }
}

}  // namespace
