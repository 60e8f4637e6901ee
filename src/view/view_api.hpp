#pragma once
// What aeval view's JSON API answers, as plain functions over run folders
// (the server only routes to them): pages of a run's samples read from its
// store, one sample with its audio and alignment, two runs compared sample
// by sample, and the leaderboards of `aeval report`.
#include <filesystem>
#include <set>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "run/run_store.hpp"

namespace aeval::view {

// {"total", "offset", "samples": [{"position", "id", "failed", "prediction", "error", "scores": {name: value}}]}
nlohmann::json samples_page(const std::filesystem::path& run_dir, const pipeline::RunStore::Query& query);

// The whole record, the audio it names ({"role", "label"}: input, output, and fields naming audio) and,
// for each error-rate score, the alignment it counted: chunks of reference and prediction tokens marked
// equal, substitute, delete or insert, with their counts. None for a position the store lacks.
std::optional<nlohmann::json> sample_detail(const std::filesystem::path& run_dir, std::size_t position);

// The audio a sample's record names for `role` (see sample_detail), decoded and served as 16-bit WAV
// at its own rate, so a browser plays whatever the dataset stored (G.722, a Parquet clip, a slice).
// None when the record names no such audio; throws aeval::Error (audio, data) when it cannot be read, or
// when an output file lies outside the run folder.
std::optional<std::string> sample_audio_wav(const std::filesystem::path& run_dir, std::size_t position,
                                            const std::string& role);

// Runs a and b sample by sample (joined by id) on one score: {"metric", "total", "only_a", "only_b", "rows":
// [{"id", "position_a", "position_b", "a", "b", "difference"}]}, rows ordered by difference b − a, largest
// first (or smallest with ascending), a page of them.
nlohmann::json compare_runs(const std::filesystem::path& a, const std::filesystem::path& b, const std::string& score,
                            bool ascending, std::size_t offset, std::size_t limit);

// aeval report's leaderboards of every task under `root`, as JSON ([] when there is no run), without the run
// folders in `broken` (paths relative to the root) and runs whose summary cannot be read.
nlohmann::json leaderboards(const std::filesystem::path& root, const std::set<std::string>& broken);

}  // namespace aeval::view
