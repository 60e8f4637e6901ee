#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include "aeval/audio.hpp"

namespace aeval::detail {

// Decodes encoded bytes with FFmpeg's libavformat/libavcodec (read from
// memory through a custom I/O context). `name` is what errors call them;
// `forced_format` names an input format for headerless streams (e.g.
// "g722"); empty means probe.
Audio ffmpeg_decode(std::string_view bytes, const std::string& name, const std::string& forced_format);

}  // namespace aeval::detail
