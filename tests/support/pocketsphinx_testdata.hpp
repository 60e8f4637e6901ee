#pragma once
// Debian's pocketsphinx-testdata: real recordings with transcripts (LibriVox
// readings, card names) the dataset-source tests build folders and archives from.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/require.hpp"

namespace aeval::testing {

inline const std::filesystem::path kPocketsphinxTestData = "/usr/share/pocketsphinx/test/data";

}  // namespace aeval::testing

// Skips the calling test when the recordings are not installed (fails under CI).
#define AEVAL_SKIP_WITHOUT_POCKETSPHINX_TESTDATA()                                                        \
  AEVAL_REQUIRE(std::filesystem::exists(::aeval::testing::kPocketsphinxTestData / "librivox" / "transcription") && \
                    std::filesystem::exists(::aeval::testing::kPocketsphinxTestData / "cards" / "001.wav"),        \
                "pocketsphinx-testdata")
