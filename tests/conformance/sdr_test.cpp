// SNR / SI-SNR / SI-SDR (torchmetrics) and asteroid's variants against
// shared/reference/signal/sdr.jsonl, on the real audio of that folder.
#include <gtest/gtest.h>

#include <cmath>

#include "aeval/metrics/sdr.hpp"
#include "support/reference.hpp"

namespace {

::testing::AssertionResult near_db(double expected, double actual, bool identity) {
  const double tolerance = identity ? 1e-9 * std::fabs(expected) : 1e-6;
  if (std::fabs(expected - actual) <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected " << expected << " dB, got " << actual;
}

TEST(SdrConformance, TorchmetricsAndAsteroid) {
  AEVAL_REQUIRE_GOLDEN(records, "signal/sdr.jsonl");
  for (const auto& r : records) {
    const std::string id = r["id"];
    const bool identity = id.find("identity") != std::string::npos;
    const auto target = aeval::testing::reference_audio(r["target"]), preds = aeval::testing::reference_audio(r["preds"]);
    const auto& e = r["expected"];
    EXPECT_TRUE(near_db(e["si_sdr_f64"], aeval::metrics::si_sdr(preds, target), identity)) << id;
    EXPECT_TRUE(near_db(e["si_snr_f64"], aeval::metrics::si_snr(preds, target), identity)) << id;
    EXPECT_TRUE(near_db(e["snr_f64"], aeval::metrics::snr(preds, target), identity)) << id;
    const auto a = aeval::metrics::asteroid_sdr(preds, target);
    EXPECT_TRUE(near_db(e["asteroid_sisdr_f64"], a.si_sdr, identity)) << id;
    EXPECT_TRUE(near_db(e["asteroid_sdsdr_f64"], a.sd_sdr, identity)) << id;
    EXPECT_TRUE(near_db(e["asteroid_snr_f64"], a.snr, identity)) << id;
  }
}

}  // namespace
