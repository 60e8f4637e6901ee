// STOI and eSTOI against shared/reference/signal/stoi.jsonl (pystoi 0.4.1) on real audio.
#include <gtest/gtest.h>

#include <cmath>

#include "aeval/metrics/stoi.hpp"
#include "support/reference.hpp"

namespace {

TEST(StoiConformance, StoiAndExtended) {
  AEVAL_REQUIRE_GOLDEN(records, "signal/stoi.jsonl");
  for (std::size_t k = 0; k < records.size(); ++k) {
    if (!aeval::testing::checked_in_this_build(k)) continue;
    const auto& r = records[k];
    const std::string id = r["id"];
    const auto result = aeval::metrics::stoi(aeval::testing::reference_audio(r["clean"]), aeval::testing::reference_audio(r["degraded"]), r["fs"], r["extended"]);
    EXPECT_EQ(r["too_few_frames"].get<bool>(), result.too_few_frames) << id;
    EXPECT_NEAR(r["expected"].get<double>(), result.value, 1e-6) << id;
  }
}

}  // namespace
