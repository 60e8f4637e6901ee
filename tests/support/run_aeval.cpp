#include "support/run_aeval.hpp"

#include <sys/wait.h>

#include <array>
#include <cstdio>

namespace aeval::testing {

Outcome run_shell(const std::string& command) {
  Outcome outcome{-1, ""};
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return outcome;
  std::array<char, 4096> buffer;
  while (std::fgets(buffer.data(), buffer.size(), pipe)) outcome.output += buffer.data();
  const int status = pclose(pipe);
  outcome.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

Outcome run_aeval(const std::string& arguments, bool with_stderr) {
  return run_shell(std::string(AEVAL_BINARY) + " " + arguments + (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

}  // namespace aeval::testing
