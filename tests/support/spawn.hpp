#pragma once
// The aeval binary as a child process a test can kill, and what its runs
// leave behind.
#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace aeval::testing {

// Starts aeval with `args` directly (no shell, so a signal reaches it), its
// output discarded, or its stderr appended to `stderr_file` when one is given
// (what a test shows when the process did not behave).
pid_t spawn(const std::vector<std::string>& args, const std::filesystem::path& stderr_file = {});

// The waitpid status of `pid`, once it ends.
int wait_for(pid_t pid);

// The run folders (holding run.sqlite) under `root`, sorted.
std::vector<std::filesystem::path> run_dirs(const std::filesystem::path& root);

// Samples stored so far by the run under `root`: 0 while there is none yet.
std::size_t stored_samples(const std::filesystem::path& root);

}  // namespace aeval::testing
