#pragma once
// Where DNSMOS's official ONNX files live for aeval: a folder the user names,
// or the cache folder `aeval fetch model dnsmos` fills from their public
// source (microsoft/DNS-Challenge at a pinned commit), each file checked
// against its SHA-256.
#include <filesystem>

namespace aeval::models {

// cache_dir()/models/dnsmos.
std::filesystem::path dnsmos_cache_dir();

// `given` when not empty, else $DNSMOS_MODELS when set, else the cache
// folder. Throws aeval::Error (model) when the folder lacks an official file,
// naming where the folder came from, every way to name another, and how to
// fetch the files.
std::filesystem::path dnsmos_models_dir(const std::filesystem::path& given = {});

// Downloads the three files into the cache folder (nothing fetched twice);
// returns it. Throws aeval::Error (network) offline, naming the URL.
std::filesystem::path fetch_dnsmos_models();

}  // namespace aeval::models
