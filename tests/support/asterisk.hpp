#pragma once
// Debian's Asterisk voice prompts (asterisk-core-sounds-en-g722): the real
// speech the end-to-end tests run on.
#include <gtest/gtest.h>

#include <filesystem>

namespace aeval::testing {

inline const std::filesystem::path kAsteriskSounds = "/usr/share/asterisk/sounds/en_US_f_Allison";

}  // namespace aeval::testing

// Skips the calling test when the prompts are not installed.
#define AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS()                                           \
  if (!std::filesystem::exists(::aeval::testing::kAsteriskSounds / "vm-goodbye.g722")) \
  GTEST_SKIP() << "asterisk-core-sounds-en-g722 not installed"
