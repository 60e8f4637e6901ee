#pragma once
// `aeval score dnsmos`: DNSMOS of audio files, no reference needed.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aeval::cli {

struct DnsmosScoreArgs {
  std::vector<std::filesystem::path> files;  // --deg
  std::filesystem::path folder;              // --deg-dir: every audio file in it
  bool personalized = false;
  std::string p808_features = "librosa-0.8.1";
  std::filesystem::path models;              // empty: the cache
};

// Means over the files (and, when per_sample is given, a line per file).
nlohmann::json score_dnsmos(const DnsmosScoreArgs& args, std::vector<nlohmann::json>* per_sample);

}  // namespace aeval::cli
