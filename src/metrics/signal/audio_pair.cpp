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

namespace {

using Signal = std::vector<double>;

AudioPairScore value_of(double value) {
  AudioPairScore s;
  s.value = value;
  return s;
}

template <bool Extended>
AudioPairScore stoi_of(const Signal& x, const Signal& y, int rate) {
  const auto r = stoi(x, y, rate, Extended);
  AudioPairScore s = value_of(r.value);
  if (r.too_few_frames) s.notes.push_back("fewer than 30 frames after silent-frame removal: pystoi's sentinel 1e-5");
  return s;
}

}  // namespace

const std::vector<AudioMetric>& audio_metrics() {
  using I = MetricInput;
  using B = Better;
  static const std::vector<AudioMetric> metrics{
      {{"stoi", {}, "STOI of degraded vs clean audio", "pystoi 0.4.1 stoi", I::audio, B::higher, {}}, false, stoi_of<false>},
      {{"estoi", {}, "extended STOI", "pystoi 0.4.1 stoi(extended=True)", I::audio, B::higher, {}}, false, stoi_of<true>},
      {{"si-sdr", {}, "scale-invariant SDR in dB (zero_mean off)", "torchmetrics scale_invariant_signal_distortion_ratio",
        I::audio, B::higher, {}},
       false,
       [](const Signal& x, const Signal& y, int) { return value_of(si_sdr(y, x)); }},
      {{"si-snr", {}, "scale-invariant SNR in dB (SI-SDR with zero mean)", "torchmetrics scale_invariant_signal_noise_ratio",
        I::audio, B::higher, {}},
       false,
       [](const Signal& x, const Signal& y, int) { return value_of(si_snr(y, x)); }},
      {{"snr", {}, "signal-to-noise ratio in dB", "torchmetrics signal_noise_ratio", I::audio, B::higher, {}},
       false,
       [](const Signal& x, const Signal& y, int) { return value_of(snr(y, x)); }},
      {{"mcd", {}, "mel cepstral distance (fastdtw radius 10 on mel frames); 'penalty' per file",
        "mel_cepstral_distance 0.0.3", I::audio, B::lower, {}},
       true,
       [](const Signal& x, const Signal& y, int rate) {
         const auto r = mel_cepstral_distance(x, y, rate);
         AudioPairScore s = value_of(r.mcd);
         s.penalty = r.penalty;
         return s;
       }},
      {{"mel-l1", {}, "log-mel L1 distance (n_fft 1024, hop 256, 80 mels) at the reference's rate",
        "audiocraft MelSpectrogramL1Loss", I::audio, B::lower, {}},
       false,
       [](const Signal& x, const Signal& y, int rate) {
         MelSpectrogramOptions o;
         o.sample_rate = rate;
         return value_of(mel_l1_distance(y, x, o));
       }},
      {{"msspec", {}, "multi-scale mel distance (n_fft 64..1024, 64 mels, alphas; EnCodec's loss)",
        "audiocraft MultiScaleMelSpectrogramLoss", I::audio, B::lower, {}},
       false,
       [](const Signal& x, const Signal& y, int rate) {
         MultiScaleMelOptions o;
         o.sample_rate = rate;
         return value_of(multiscale_mel_distance(y, x, o));
       }},
  };
  return metrics;
}

const AudioMetric* find_audio_metric(std::string_view name) {
  for (const auto& m : audio_metrics())
    if (m.name == name) return &m;
  return nullptr;
}

const std::vector<std::string>& audio_pair_metrics() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& m : audio_metrics()) out.push_back(m.name);
    return out;
  }();
  return names;
}

bool is_audio_pair_metric(const std::string& metric) { return find_audio_metric(metric) != nullptr; }

AudioPairScore score_audio_pair(const std::string& metric, Audio ref, Audio deg, const AudioPairOptions& options,
                                const std::string& reference_name, const std::string& degraded_name) {
  const AudioMetric* spec = find_audio_metric(metric);
  if (!spec) throw Error(ErrorCategory::config, fmt::format("unknown audio metric '{}'", metric));
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
  if (!spec->aligns_itself && ref.samples.size() != deg.samples.size()) {
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
  const AudioPairScore r = spec->compare(x, y, out.sample_rate);
  out.value = r.value;
  out.penalty = r.penalty;
  out.notes.insert(out.notes.end(), r.notes.begin(), r.notes.end());
  return out;
}

}  // namespace aeval::metrics
