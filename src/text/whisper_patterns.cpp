#include "text/whisper_patterns.hpp"

namespace aeval::text {

const WhisperPatterns& whisper_patterns() {
  static const WhisperPatterns patterns;
  return patterns;
}

}  // namespace aeval::text
