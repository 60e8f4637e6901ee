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

// A model endpoint that cannot answer any request as it is configured:
// nothing listens there, its host name does not resolve, or it refuses the
// key or the path (401, 403, 404). A run stops when a few samples in a row
// fail so, instead of failing every sample one by one.
class EndpointError : public Error {
 public:
  explicit EndpointError(const std::string& message) : Error(ErrorCategory::network, message) {}
};
// How many failures in a row make an endpoint dead: requests, after which a
// model sends no more, and samples, after which a run stops.
inline constexpr int kDeadEndpointRun = 5;

}  // namespace aeval
