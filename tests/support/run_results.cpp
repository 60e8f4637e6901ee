#include "support/run_results.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "support/temp_dir.hpp"

namespace aeval::testing {

RunResults read_only_run(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> found;
  if (std::filesystem::exists(root))
    for (const auto& e : std::filesystem::recursive_directory_iterator(root))
      if (e.path().filename() == "summary.json") found.push_back(e.path().parent_path());
  EXPECT_EQ(found.size(), 1u) << "runs under " << root;
  RunResults r;
  if (found.empty()) return r;
  r.dir = found.front();
  r.summary = nlohmann::json::parse(read_bytes(r.dir / "summary.json"));
  r.samples_text = read_bytes(r.dir / "samples.jsonl");
  std::istringstream lines(r.samples_text);
  for (std::string line; std::getline(lines, line);) {
    const auto record = nlohmann::json::parse(line);
    r.by_id[record["id"].get<std::string>()] = record;
  }
  if (std::filesystem::exists(r.dir / "run.log")) r.log = read_bytes(r.dir / "run.log");
  return r;
}

}  // namespace aeval::testing
