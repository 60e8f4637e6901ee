#pragma once
// Access to the golden vectors in ../shared/reference (or $AEVAL_REFERENCE_DIR).
// Conformance tests skip with a clear message when they are absent, except
// under CI (the variable CI set), where the vectors are always present and
// their absence is a failure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "support/require.hpp"

namespace aeval::testing {

std::filesystem::path reference_dir();

// UltraEval-Audio's registry and Python at the pinned commit: ../shared/uea (beside the reference folder).
std::filesystem::path shared_uea_dir();

// The records of a JSONL file (none when it is absent).
std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& path);

// All records of one golden file, or an empty vector when it is absent.
std::vector<nlohmann::json> read_golden(const std::string& file_name);

// Vectors the team produced with a reference and keeps in the repository: tests/data/RELATIVE.
std::vector<nlohmann::json> read_test_data(const std::string& relative);

// Python float semantics: the JSON number, or "NaN"/"Infinity" strings.
double as_double(const nlohmann::json& value);

// Samples of a WAV under shared/reference/signal, as the references read them (int16 / 32768).
std::vector<double> reference_audio(const std::string& relative);

// ≤ 1e-9 relative (absolute 1e-15 when the expected value is 0), the
// tolerance the reference README gives for scores.
::testing::AssertionResult close_score(double expected, double actual);

// Under the sanitizers, where the largest conformance files take minutes, one
// record in eight stands for its file: one of each eight in a row, its place
// moving along so that records alternating by kind (single/multi-scale,
// STOI/eSTOI) are all checked. The Release build checks every record.
inline bool checked_in_this_build(std::size_t record) {
#ifdef AEVAL_SANITIZED
  return record % 8 == (record / 8) % 8;
#else
  (void)record;
  return true;
#endif
}

}  // namespace aeval::testing

// Skips the calling test without ../shared/uea (a failure under CI, which always has it).
#define AEVAL_REQUIRE_SHARED_UEA() \
  AEVAL_REQUIRE(std::filesystem::is_directory(::aeval::testing::shared_uea_dir() / "registry"), ::aeval::testing::shared_uea_dir())

// Reads a golden file of ../shared/reference (AEVAL_REFERENCE_DIR) into `records`, or skips the test.
#define AEVAL_REQUIRE_GOLDEN(records, file)                 \
  const auto records = ::aeval::testing::read_golden(file); \
  AEVAL_REQUIRE(!records.empty(), "golden file " << (::aeval::testing::reference_dir() / (file)).string())
