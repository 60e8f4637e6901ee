// STOI and eSTOI against shared/reference/signal/stoi.jsonl (pystoi 0.4.1) on real audio.
#include <gtest/gtest.h>

#include <cmath>

#include "aeval/audio.hpp"
#include "aeval/metrics/stoi.hpp"
#include "support/reference.hpp"

namespace {

std::vector<double> samples(const std::string& relative) {
  const aeval::Audio a = aeval::decode_audio(aeval::testing::reference_dir() / "signal" / relative);
  return std::vector<double>(a.samples.begin(), a.samples.end());
}

TEST(StoiConformance, StoiAndExtended) {
  AEVAL_REQUIRE_GOLDEN(records, "signal/stoi.jsonl");
  for (const auto& r : records) {
    const std::string id = r["id"];
    const auto result = aeval::metrics::stoi(samples(r["clean"]), samples(r["degraded"]), r["fs"], r["extended"]);
    EXPECT_EQ(r["too_few_frames"].get<bool>(), result.too_few_frames) << id;
    EXPECT_NEAR(r["expected"].get<double>(), result.value, 1e-6) << id;
  }
}

}  // namespace
