#pragma once
#include <filesystem>
#include <string>

#include "aeval/audio.hpp"

namespace aeval::detail {

// Decodes with FFmpeg's libavformat/libavcodec. `forced_format` names an
// input format for headerless streams (e.g. "g722"); empty means probe.
Audio ffmpeg_decode(const std::filesystem::path& path, const std::string& forced_format);

}  // namespace aeval::detail
