#include "support/python_references.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "support/temp_dir.hpp"

namespace aeval::testing {

bool python_references_available() {
  return std::system("/usr/bin/python3 -c 'import nltk, scipy, sklearn' >/dev/null 2>&1") == 0;
}

nlohmann::json python_references(const std::string& kind, const nlohmann::json& cases) {
  TempDir dir;
  write_bytes(dir / "request.json", nlohmann::json{{"kind", kind}, {"cases", cases}}.dump());
  const std::string command = std::string("/usr/bin/python3 ") + AEVAL_SOURCE_DIR +
                              "/tests/differential/reference_tools.py " + (dir / "request.json").string() + " " +
                              (dir / "answer.json").string();
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return nlohmann::json::parse(read_bytes(dir / "answer.json"));
}

}  // namespace aeval::testing
