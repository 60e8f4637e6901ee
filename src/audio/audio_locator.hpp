#pragma once
// Where a sample's audio lives. Usually a file; a dataset may also name part
// of one with a fragment after '#':
//   rec.wav#t=1.25,3.5              seconds 1.25 to 3.5 of the file (W3C media
//                                   fragment syntax; Kaldi `segments`)
//   0000.parquet#row=17&column=audio   the bytes a container file stores for
//                                   one clip (Hub datasets), read by the
//                                   container's registered clip reader
// A path naming an existing file is that file, '#' or not.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace aeval::detail {

struct AudioLocator {
  std::filesystem::path file;
  std::string fragment;                    // after '#', empty for a whole file
  std::optional<double> start, end;        // seconds, from `t=`
};

// Throws aeval::Error (audio) for a fragment that is not `t=START,END` and
// whose file has no clip reader.
AudioLocator parse_audio_locator(const std::filesystem::path& locator);

// Encoded audio, shared rather than copied: a view of the bytes, owned by
// whatever holds them (a file's contents read into memory; a Parquet window's
// rows as DuckDB returned them), which lives as long as the view is held.
using AudioBytes = std::shared_ptr<const std::string_view>;

// Bytes that own themselves.
AudioBytes owned_audio_bytes(std::string bytes);

// Reads the bytes of one clip stored inside `file` (named by `fragment`); null for none.
using ClipReader = std::function<AudioBytes(const std::filesystem::path& file, const std::string& fragment)>;

// Registers the reader of container files with this extension (".parquet").
void register_clip_reader(const std::string& extension, ClipReader reader);

// The encoded bytes behind a locator: the file's, or its clip's (for `t=`,
// the whole file's: the slice is taken after decoding).
AudioBytes read_locator_bytes(const AudioLocator& locator);

}  // namespace aeval::detail
