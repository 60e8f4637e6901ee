#pragma once
// One exception family for all of aeval. Every error carries a category and
// names what it is about (a file, a line, a sample id, an endpoint), so the
// CLI can print one clear line and a run can record it for one sample.
#include <stdexcept>
#include <string>

namespace aeval {

enum class ErrorCategory { config, data, audio, model, network, internal };

const char* to_string(ErrorCategory category);

class Error : public std::runtime_error {
 public:
  Error(ErrorCategory category, const std::string& message)
      : std::runtime_error(message), category_(category) {}
  ErrorCategory category() const { return category_; }

 private:
  ErrorCategory category_;
};

}  // namespace aeval
