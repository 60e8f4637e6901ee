#pragma once
#include <filesystem>
#include <string>

namespace aeval {

// Writes to "<path>.partial" then renames, so readers (and a run killed
// mid-write) never see a half-written file. Creates missing parent folders.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace aeval
