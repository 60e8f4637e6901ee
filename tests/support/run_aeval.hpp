#pragma once
#include <string>

namespace aeval::testing {

struct Outcome {
  int status;
  std::string output;
};

// Runs `command` through the shell, collecting what it prints to stdout.
Outcome run_shell(const std::string& command);

// Runs the aeval binary with `arguments` through the shell; stderr joins
// stdout unless `with_stderr` is false.
Outcome run_aeval(const std::string& arguments, bool with_stderr = true);

}  // namespace aeval::testing
