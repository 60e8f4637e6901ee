#include "support/answered_dataset.hpp"

#include <fmt/format.h>

#include "support/temp_dir.hpp"

namespace aeval::testing {

void write_answered_dataset_registry(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir / "registry" / "datasets");
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "datasets" / "d.yaml",
              fmt::format("my-data:\n  class: jsonl\n  args:\n    path: {}\n", (dir / "m.jsonl").string()));
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("my-answers:\n  class: predictions_file\n  args:\n    path: {}\n", (dir / "p.jsonl").string()));
}

Outcome run_answered_dataset(const std::filesystem::path& dir, const std::string& options) {
  return run_aeval(fmt::format("--registry {} run --task asr-jsonl --dataset my-data --model my-answers -q --output {} {}",
                               (dir / "registry").string(), (dir / "out").string(), options));
}

}  // namespace aeval::testing
