#pragma once
// What a test needs that a machine may lack (a Debian package, ../shared, a daemon): where it is missing
// the test is skipped, saying what to install, except under CI (the variable CI set: .ci/run sets it),
// where scripts/setup.sh --tests has installed everything, so a missing part fails the test.
#include <gtest/gtest.h>

#include <cstdlib>

// `what` may be a stream expression: AEVAL_REQUIRE(ok, "the file " << path).
#define AEVAL_REQUIRE(condition, what)                                                      \
  if (!(condition)) {                                                                       \
    if (std::getenv("CI")) FAIL() << what << " is missing under CI (scripts/setup.sh --tests)"; \
    GTEST_SKIP() << what << " is missing (scripts/setup.sh --tests installs it)";           \
  }
