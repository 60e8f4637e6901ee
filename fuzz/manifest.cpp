// JSONL dataset manifests (read_manifest), as a `jsonl` dataset entry or a
// manifest path given on the command line reads them.
#include "aeval/error.hpp"
#include "input_file.hpp"
#include "datasets/manifest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const auto path = aeval::fuzz::input_file("manifest.jsonl", data, size);
  try {
    // Each row's fields are copied into its record when it runs: a value nested too deep overflows here.
    for (const auto& sample : aeval::datasets::read_manifest(path)) nlohmann::json(sample.fields).dump();
  } catch (const aeval::Error&) {
  }
  return 0;
}
