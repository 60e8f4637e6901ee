#pragma once
// Debian's Asterisk voice prompts (asterisk-core-sounds-en-g722): the real
// speech the end-to-end tests run on.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/require.hpp"

namespace aeval::testing {

inline const std::filesystem::path kAsteriskSounds = "/usr/share/asterisk/sounds/en_US_f_Allison";

}  // namespace aeval::testing

// Skips the calling test when the prompts are not installed (fails under CI).
#define AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS() \
  AEVAL_REQUIRE(std::filesystem::exists(::aeval::testing::kAsteriskSounds / "vm-goodbye.g722"), "asterisk-core-sounds-en-g722")
