#include "support/config_error.hpp"

#include <gtest/gtest.h>

#include "aeval/error.hpp"

namespace aeval::testing {

std::string config_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const aeval::Error& e) {
    EXPECT_EQ(e.category(), aeval::ErrorCategory::config);
    return e.what();
  }
  return "<no error>";
}

}  // namespace aeval::testing
