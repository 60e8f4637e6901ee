#pragma once
#include <filesystem>
#include <string>

namespace aeval {

// Writes to a temporary file of its own beside `path` ("<path>.partial.PID.N")
// then renames it into place, so readers (and a run killed mid-write) never
// see a half-written file, and writers racing on one path each put a whole
// file there. Creates missing parent folders. Throws aeval::Error (data).
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace aeval
