#pragma once
// Run folders are named after the UTC time they began.
#include <filesystem>
#include <string>

namespace aeval::pipeline {

// The current UTC time in a strftime format.
std::string utc_now(const char* format = "%Y-%m-%dT%H:%M:%SZ");

// A new folder under `parent`, created (atomically, so no two runs share it), and its name: the time,
// `suffix`, and "-2", "-3", ... when a run of the same second is there.
std::string new_run_id(const std::filesystem::path& parent, const std::string& suffix = "");

}  // namespace aeval::pipeline
