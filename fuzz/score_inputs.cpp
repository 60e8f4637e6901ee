// The files `aeval score` compares: line-aligned text, or JSONL rows whose
// field is a string, a number or a list of strings.
#include "aeval/error.hpp"
#include "cli/score_inputs.hpp"
#include "input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  for (const char* name : {"segments.txt", "segments.jsonl"}) {
    try {
      aeval::cli::read_segments(aeval::fuzz::input_file(name, data, size), "text");
    } catch (const aeval::Error&) {
    }
  }
  return 0;
}
