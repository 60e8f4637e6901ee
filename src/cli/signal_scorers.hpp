#pragma once
// `aeval score` for audio files (STOI, eSTOI, SNR, SI-SNR, SI-SDR) and
// embeddings in .npy files (AudioBERTScore, FAD, cosine).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace aeval::cli {

struct SignalScoreArgs {
  std::vector<std::filesystem::path> references, hypotheses;  // files
  std::filesystem::path reference_dir, hypothesis_dir, pairs;  // directory-pair or list-file modes
  bool trim = false;                                           // trim to the shorter signal
  double p = 106, lambda = -3.5;
  bool float64 = false;
  std::filesystem::path reference_stats, save_reference_stats;
};

// Scores and fills per_sample when given; strict JSON result.
nlohmann::json score_signals(const std::string& metric, const SignalScoreArgs& args, std::vector<nlohmann::json>* per_sample);

}  // namespace aeval::cli
