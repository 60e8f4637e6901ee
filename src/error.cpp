#include "aeval/error.hpp"

namespace aeval {

const char* to_string(ErrorCategory category) {
  switch (category) {
    case ErrorCategory::config: return "config";
    case ErrorCategory::data: return "data";
    case ErrorCategory::audio: return "audio";
    case ErrorCategory::model: return "model";
    case ErrorCategory::network: return "network";
    case ErrorCategory::internal: return "internal";
  }
  return "internal";
}

}  // namespace aeval
