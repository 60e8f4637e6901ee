#pragma once
#include <cstddef>
#include <optional>
#include <string_view>

namespace aeval::text {

// The byte offset of the first invalid UTF-8 sequence, or nothing when the
// text is valid (overlongs, surrogates and code points past U+10FFFF are invalid).
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

}  // namespace aeval::text
