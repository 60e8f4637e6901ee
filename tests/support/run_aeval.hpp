#pragma once
#include <string>

namespace aeval::testing {

struct Outcome {
  int status;
  std::string output;
};

// Runs the aeval binary with `arguments` through the shell; stderr joins
// stdout unless `with_stderr` is false.
Outcome run_aeval(const std::string& arguments, bool with_stderr = true);

}  // namespace aeval::testing
