#include "support/reference.hpp"

#include "aeval/audio_io.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>

namespace aeval::testing {

std::filesystem::path reference_dir() {
  if (const char* dir = std::getenv("AEVAL_REFERENCE_DIR"); dir && *dir) return dir;
  return AEVAL_DEFAULT_REFERENCE_DIR;
}

std::filesystem::path shared_uea_dir() { return reference_dir().parent_path() / "uea"; }

std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& path) {
  std::vector<nlohmann::json> records;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) records.push_back(nlohmann::json::parse(line));
  }
  return records;
}

std::vector<nlohmann::json> read_golden(const std::string& file_name) { return read_jsonl(reference_dir() / file_name); }

std::vector<nlohmann::json> read_test_data(const std::string& relative) {
  return read_jsonl(std::filesystem::path(AEVAL_SOURCE_DIR) / "tests" / "data" / relative);
}

std::vector<double> reference_audio(const std::string& relative) {
  const aeval::Audio a = aeval::decode_audio(reference_dir() / "signal" / relative);
  return std::vector<double>(a.samples.begin(), a.samples.end());
}

double as_double(const nlohmann::json& value) {
  if (value.is_string()) {
    const auto s = value.get<std::string>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  return value.get<double>();
}

::testing::AssertionResult close_score(double expected, double actual) {
  if (std::isnan(expected) && std::isnan(actual)) return ::testing::AssertionSuccess();
  const double tolerance = expected == 0.0 ? 1e-15 : 1e-9 * std::fabs(expected);
  if (std::fabs(expected - actual) <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected " << expected << " got " << actual;
}

}  // namespace aeval::testing
