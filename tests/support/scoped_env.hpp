#pragma once
// An environment variable set (or, with nullptr, unset) for a test's
// lifetime, and put back as it was afterwards.
#include <optional>
#include <string>

namespace aeval::testing {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

}  // namespace aeval::testing
