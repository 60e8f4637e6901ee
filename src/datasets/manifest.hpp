#pragma once
// JSONL dataset manifests: one JSON object per line with an id, an audio path
// (relative to the manifest, or to a given folder, unless absolute; so is every
// other field whose name contains "audio"), a reference text, and any other fields. Audio and
// text may be absent (text-to-speech inputs, multi-reference captions).
#include <filesystem>
#include <string>
#include <vector>

#include "datasets/sample_list.hpp"

namespace aeval::datasets {

struct ManifestFields {
  std::string id = "id";
  std::string audio = "audio";
  std::string text = "text";
  std::filesystem::path audio_dir;  // what relative audio paths are relative to ("": the manifest's folder)
};

// Throws aeval::Error (data) naming the file and line for malformed rows,
// missing fields and duplicate ids. A missing audio file is not an error
// here: it fails its own sample when the audio is decoded. Nor is a row nested
// deeper than kMaxJsonDepth (util/untrusted_json.hpp): its sample is `unreadable`,
// without the fields that nest so deep.
SampleList read_manifest(const std::filesystem::path& path, const ManifestFields& fields = {});

}  // namespace aeval::datasets
