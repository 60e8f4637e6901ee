// Clips stored in a Parquet column, read back through their locators: every
// row's bytes in any order and from many threads at once, across windows
// (row groups) that are read ahead of the samples, clear errors for a row
// that stores none or does not exist, and a failed read that is not kept.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "aeval/error.hpp"
#include "audio/audio_locator.hpp"
#include "datasets/parquet_clips.hpp"
#include "support/parquet_writer.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::TempDir;

// 5,000 rows in row groups of 2,048 (DuckDB's smallest): three windows. Row 4,321 stores NULL.
constexpr std::uint64_t kRows = 5000;
constexpr std::uint64_t kNullRow = 4321;

// `row_group_rows` 5,000: one row group, read as three blocks of DuckDB's vector size.
std::filesystem::path write_clips(const TempDir& dir, int row_group_rows = 2048) {
  const auto file = dir / "clips.parquet";
  aeval::testing::write_parquet(
      "SELECT i AS n, CASE WHEN i = 4321 THEN NULL ELSE {'bytes': ('clip ' || i)::BLOB, 'path': i || '.wav'} END "
      "AS audio FROM range(5000) t(i)",
      file, row_group_rows);
  return file;
}

std::string clip(const std::filesystem::path& file, std::uint64_t row) {
  const auto locator = aeval::detail::parse_audio_locator(aeval::datasets::parquet_clip_locator(file, row, "audio"));
  return std::string(*aeval::detail::read_locator_bytes(locator));
}

void expect_rows(const std::filesystem::path& file, const std::vector<std::uint64_t>& rows) {
  for (const auto row : rows) {
    if (row == kNullRow) continue;
    ASSERT_EQ(clip(file, row), "clip " + std::to_string(row)) << row;
  }
}

TEST(ParquetClips, EveryRowInOrderBackwardsAndShuffled) {
  for (const int row_group_rows : {2048, 5000}) {
    TempDir dir;
    const auto file = write_clips(dir, row_group_rows);
    std::vector<std::uint64_t> rows(kRows);
    std::iota(rows.begin(), rows.end(), 0);
    expect_rows(file, rows);
    std::reverse(rows.begin(), rows.end());
    expect_rows(file, rows);
    std::shuffle(rows.begin(), rows.end(), std::mt19937(7));
    rows.resize(500);
    expect_rows(file, rows);
  }
}

TEST(ParquetClips, ManyThreadsReadingAcrossWindowsAtOnce) {
  TempDir dir;
  const auto file = write_clips(dir);
  // Each thread reads every fourth row, in order: the threads move through the windows together, as a run's
  // workers do, while the next window is read ahead.
  std::vector<std::thread> threads;
  std::vector<std::string> failures(4);
  for (std::uint64_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (std::uint64_t row = t; row < kRows; row += 4) {
        if (row == kNullRow) continue;
        try {
          if (clip(file, row) != "clip " + std::to_string(row)) failures[t] += " wrong bytes at " + std::to_string(row);
        } catch (const std::exception& e) {
          failures[t] += std::string(" ") + e.what();
        }
      }
    });
  for (auto& thread : threads) thread.join();
  for (const auto& failure : failures) EXPECT_EQ(failure, "");
}

TEST(ParquetClips, ARowWithoutBytesAndARowPastTheEndFailAlone) {
  TempDir dir;
  const auto file = write_clips(dir);
  const auto message = [&](std::uint64_t row) {
    try {
      clip(file, row);
    } catch (const aeval::Error& e) {
      EXPECT_EQ(e.category(), aeval::ErrorCategory::audio) << e.what();
      return std::string(e.what());
    }
    return std::string("<read>");
  };
  EXPECT_NE(message(kNullRow).find("stores no audio bytes"), std::string::npos) << message(kNullRow);
  EXPECT_NE(message(kRows).find("no row 5000 (the file has 5000 rows)"), std::string::npos) << message(kRows);
  EXPECT_EQ(clip(file, kNullRow - 1), "clip 4320");  // its neighbours still read
  EXPECT_EQ(clip(file, kNullRow + 1), "clip 4322");
}

TEST(ParquetClips, AWindowWhoseReadFailedIsReadAgainLater) {
  TempDir dir;
  const auto file = write_clips(dir);
  EXPECT_EQ(clip(file, 0), "clip 0");  // the first window, and the second read ahead
  const std::string stored = aeval::testing::read_bytes(file);
  aeval::testing::write_bytes(file, "not Parquet any more");
  EXPECT_THROW(clip(file, 4500), aeval::Error);  // the third window, read from the broken file
  aeval::testing::write_bytes(file, stored);
  EXPECT_EQ(clip(file, 4500), "clip 4500");
}

}  // namespace
