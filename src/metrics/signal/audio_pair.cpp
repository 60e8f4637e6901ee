#include "aeval/metrics/audio_pair.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "aeval/error.hpp"
#include "aeval/metrics/catalog.hpp"
#include "aeval/metrics/mcd.hpp"
#include "aeval/metrics/mel_distance.hpp"
#include "aeval/metrics/sdr.hpp"
#include "aeval/metrics/stoi.hpp"

namespace aeval::metrics {

const std::vector<std::string>& audio_pair_metrics() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& m : signal_metrics())
      if (m.input == MetricInput::audio) out.push_back(m.name);
    return out;
  }();
  return names;
}

bool is_audio_pair_metric(const std::string& metric) {
  const auto& names = audio_pair_metrics();
  return std::find(names.begin(), names.end(), metric) != names.end();
}

AudioPairScore score_audio_pair(const std::string& metric, Audio ref, Audio deg, const AudioPairOptions& options,
                                const std::string& reference_name, const std::string& degraded_name) {
  if (!is_audio_pair_metric(metric)) throw Error(ErrorCategory::config, fmt::format("unknown audio metric '{}'", metric));
  AudioPairScore out;
  out.sample_rate = options.sample_rate > 0 ? options.sample_rate : ref.sample_rate;
  if (ref.sample_rate != out.sample_rate) {
    out.notes.push_back(fmt::format("reference resampled from {} to {} Hz", ref.sample_rate, out.sample_rate));
    ref = resample(ref, out.sample_rate);
  }
  if (deg.sample_rate != out.sample_rate) {
    out.notes.push_back(fmt::format("degraded audio resampled from {} to {} Hz", deg.sample_rate, out.sample_rate));
    deg = resample(deg, out.sample_rate);
  }
  if (metric != "mcd" && ref.samples.size() != deg.samples.size()) {  // MCD aligns by DTW
    if (!options.trim)
      throw Error(ErrorCategory::data,
                  fmt::format("{} has {} samples, {} has {}; the reference implementation requires equal lengths "
                              "({} cuts both to the shorter)",
                              reference_name, ref.samples.size(), degraded_name, deg.samples.size(), options.how_to_trim));
    const std::size_t n = std::min(ref.samples.size(), deg.samples.size());
    out.notes.push_back(fmt::format("both signals trimmed to {} samples", n));
    ref.samples.resize(n);
    deg.samples.resize(n);
  }
  const std::vector<double> x(ref.samples.begin(), ref.samples.end()), y(deg.samples.begin(), deg.samples.end());
  const int rate = out.sample_rate;
  if (metric == "stoi" || metric == "estoi") {
    const auto r = stoi(x, y, rate, metric == "estoi");
    out.value = r.value;
    if (r.too_few_frames) out.notes.push_back("fewer than 30 frames after silent-frame removal: pystoi's sentinel 1e-5");
  } else if (metric == "mcd") {
    const auto r = mel_cepstral_distance(x, y, rate);
    out.value = r.mcd;
    out.penalty = r.penalty;
  } else if (metric == "mel-l1") {
    MelSpectrogramOptions o;
    o.sample_rate = rate;
    out.value = mel_l1_distance(y, x, o);
  } else if (metric == "msspec") {
    MultiScaleMelOptions o;
    o.sample_rate = rate;
    out.value = multiscale_mel_distance(y, x, o);
  } else if (metric == "si-sdr") {
    out.value = si_sdr(y, x);
  } else if (metric == "si-snr") {
    out.value = si_snr(y, x);
  } else {
    out.value = snr(y, x);
  }
  return out;
}

}  // namespace aeval::metrics
