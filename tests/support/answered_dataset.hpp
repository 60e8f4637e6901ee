#pragma once
// A dataset answered from a file, for tests of what a run does with its
// samples: DIR/m.jsonl as the jsonl dataset `my-data` and DIR/p.jsonl as the
// predictions_file model `my-answers`, both entries of the registry folder
// DIR/registry. The test writes the two files.
#include <filesystem>
#include <string>

#include "support/run_aeval.hpp"

namespace aeval::testing {

// Writes the registry folder under `dir`.
void write_answered_dataset_registry(const std::filesystem::path& dir);

// `aeval run` of task asr-jsonl (WER and CER) on `my-data` answered by
// `my-answers`, quiet, into DIR/out, with `options` added.
Outcome run_answered_dataset(const std::filesystem::path& dir, const std::string& options = "");

}  // namespace aeval::testing
