#pragma once
// Why a file that a dataset names as a sample's audio is not there: its download failed (the URL and the
// HTTP status or cause). The dataset records it as it loads; reading the file then fails with that reason
// instead of "no such file", so the sample fails alone and says why while the others run.
#include <filesystem>
#include <optional>
#include <string>

namespace aeval::detail {

void record_absent_audio(const std::filesystem::path& file, const std::string& reason);

// The reason recorded for `file` in this process, if any.
std::optional<std::string> absent_audio_reason(const std::filesystem::path& file);

}  // namespace aeval::detail
