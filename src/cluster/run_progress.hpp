#pragma once
// How far a run has got, read from its store alone (no dataset is loaded), so
// that `aeval status` can look at many shards at once and `aeval submit slurm
// --again` can tell which shards of a job array must run again.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aeval::cluster {

struct RunProgress {
  std::filesystem::path run_dir;
  std::string shard = "0/1";      // as the run recorded it: I/N
  std::size_t planned = 0;        // samples the run covers; 0 while it has not recorded them
  std::size_t stored = 0, failed = 0;
  bool summarized = false;        // its summary.json is written: a session ended normally

  // Every planned sample stored, none failed: nothing left for a resume to do.
  bool complete() const { return planned > 0 && stored >= planned && failed == 0; }
  // A word for tables: not started / running or stopped / finished / finished with failures.
  std::string state() const;
};

// The progress of RUN_DIR (a folder holding run.sqlite); throws aeval::Error (data) when it holds none.
RunProgress run_progress(const std::filesystem::path& run_dir);

// The run under `output` (a shard's output folder holds one), or nothing when no run began there.
std::optional<std::filesystem::path> run_under(const std::filesystem::path& output);

// Every run folder under `root`, sorted.
std::vector<std::filesystem::path> runs_under(const std::filesystem::path& root);

}  // namespace aeval::cluster
