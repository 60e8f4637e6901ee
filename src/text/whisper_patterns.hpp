#pragma once
// Regular expressions shared by whisper's normalizers, compiled once.
#include "aeval/text/regex.hpp"

namespace aeval::text {

struct WhisperPatterns {
  Regex bracketed{R"([<\[][^>\]]*[>\]])"};
  Regex parenthesised{R"(\(([^)]+?)\))"};
  Regex whitespace_run{R"(\s+)"};
};

const WhisperPatterns& whisper_patterns();

}  // namespace aeval::text
