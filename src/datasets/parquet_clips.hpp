#pragma once
// Audio stored inside Parquet files (the Hub's `Audio` feature: a struct of
// `bytes` and `path`), named by locators "FILE#row=N&column=NAME" and read
// back by the audio decoder on demand. Rows are fetched a window at a time
// (a row group, or a 2,048-row block of a large one) off the samples' threads, the next
// one read ahead, and a few windows are kept, so a run that reads its samples
// in order reads each file once, rarely waits for it, and memory stays flat
// however large the dataset is.
#include <cstdint>
#include <filesystem>
#include <string>

namespace aeval::datasets {

// The locator of the audio in `column` (a struct with a `bytes` field, or a
// BLOB) of row `row` (0-based, in file order) of `file`.
std::string parquet_clip_locator(const std::filesystem::path& file, std::uint64_t row, const std::string& column);

// The query that reads a window: rows [first, first + count) of `file`, each its clip (`bytes`, an SQL expression
// giving the audio's bytes) and its row number, in file order (no ORDER BY: sorting would copy every clip once
// more). The benchmark of DuckDB's reading (bench/compare/hub_parquet_read.cpp) asks the same.
std::string parquet_window_query(const std::filesystem::path& file, const std::string& bytes, std::uint64_t first,
                                 std::uint64_t count);

}  // namespace aeval::datasets
