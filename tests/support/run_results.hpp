#pragma once
// What a finished `aeval run` left in its output folder, read back for tests.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace aeval::testing {

struct RunResults {
  std::filesystem::path dir;               // the run folder
  nlohmann::json summary;                  // summary.json
  std::string samples_text;                // samples.jsonl as written
  std::map<std::string, nlohmann::json> by_id;  // its records by sample id
  std::string log;                         // run.log
};

// The single run under `root` (a test failure when there is not exactly one).
RunResults read_only_run(const std::filesystem::path& root);

}  // namespace aeval::testing
