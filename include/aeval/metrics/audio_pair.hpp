#pragma once
// One reference-based signal metric on a (reference, degraded) pair of
// decoded signals: what `aeval score stoi …` computes per file pair and what
// the `signal` evaluator computes per sample of a codec run.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aeval/audio.hpp"
#include "aeval/metrics/catalog.hpp"

namespace aeval::metrics {

struct AudioPairOptions {
  bool trim = false;                  // cut both to the shorter signal instead of failing
  std::string how_to_trim = "trim";  // named in the error when lengths differ (a flag, an argument)
  int sample_rate = 0;               // compare at this rate; 0: the reference's own rate
};

struct AudioPairScore {
  double value = 0;
  int sample_rate = 0;
  std::optional<double> penalty;   // MCD: the DTW path penalty
  std::vector<std::string> notes;  // resampling, trimming, pystoi's sentinel
};

// One audio metric, declared once with its computation: what it is (the catalog's view) and how it compares
// two mono signals at one rate, which score_audio_pair has resampled (and trimmed, unless the metric aligns
// signals of different lengths itself).
struct AudioMetric : MetricInfo {
  bool aligns_itself = false;  // MCD aligns frames by DTW
  // value, and penalty or notes where the metric has them; sample_rate is the caller's
  AudioPairScore (*compare)(const std::vector<double>& reference, const std::vector<double>& degraded,
                            int sample_rate) = nullptr;
};

// stoi, estoi, si-sdr, si-snr, snr, mcd, mel-l1, msspec.
const std::vector<AudioMetric>& audio_metrics();
const AudioMetric* find_audio_metric(std::string_view name);
bool is_audio_pair_metric(const std::string& metric);
const std::vector<std::string>& audio_pair_metrics();

// Both mono. `reference_name`/`degraded_name` only word the errors.
AudioPairScore score_audio_pair(const std::string& metric, Audio reference, Audio degraded, const AudioPairOptions& options,
                                const std::string& reference_name, const std::string& degraded_name);

}  // namespace aeval::metrics
