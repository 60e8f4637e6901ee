// DNSMOS/dnsmos_local.py of microsoft/DNS-Challenge @ 591184a9fcb2cbdec02520fed81a32bbbf9d73ff
// (ComputeScore.__call__), step by step; shared/reference/dnsmos/README.md lists the steps and
// the float32/float64 details this file keeps.
#include "dnsmos/dnsmos.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <optional>
#include <string>

#include "aeval/error.hpp"
#include "audio/resampy_resample.hpp"
#include "dnsmos/kernels.hpp"
#include "dnsmos/networks.hpp"
#include "util/numpy_sum.hpp"
#include "dnsmos/onnx_weights.hpp"
#include "dnsmos/p808_features.hpp"

namespace aeval::dnsmos {

namespace {

constexpr double kWindowSeconds = 9.01;
constexpr std::size_t kP808Samples = kWindowSamples - 160;  // audio_seg[:-160]

// get_polyfit_val: np.poly1d(c)(x) on the float32 network output is Horner's rule in float64.
double polyval(const std::vector<double>& coefficients, float x) {
  double y = 0.0;
  for (double c : coefficients) y = y * double(x) + c;
  return y;
}

struct Calibration {
  std::vector<double> sig, bak, ovrl;
};
const Calibration kRegular{{-0.08397278, 1.22083953, 0.0052439},
                           {-0.13166888, 1.60915514, -0.39604546},
                           {-0.06766283, 1.11546468, 0.04602535}};
const Calibration kPersonalized{{-0.01019296, 0.02751166, 1.19576786, -0.24348726},
                                {-0.04976499, 0.44276479, -0.1644611, 0.96883132},
                                {-0.00533021, 0.005101, 1.18058466, -0.11236046}};

// np.mean: the float32 sum divided by the count as float64 (np.intp promotes), then float32.
float mean(const std::vector<float>& values) {
  return float(double(aeval::detail::numpy_pairwise_sum(values.data(), values.size())) / double(values.size()));
}
double mean(const std::vector<double>& values) {
  return aeval::detail::numpy_mean(values.data(), values.size());
}

struct Workspace {
  NetworkBuffers network;
  FeatureBuffers features;
  std::vector<float> window, p808_input;
};

}  // namespace

struct Scorer::Impl {
  Options options;
  const kernels::KernelSet& isa;
  std::optional<P835Network> p835;
  std::optional<P808Network> p808;
  P808FeatureExtractor features;
  std::mutex mutex;
  std::vector<std::unique_ptr<Workspace>> idle;

  Impl(const std::filesystem::path& dir, const Options& o)
      : options(o), isa(kernels::kernel_set(o.simd)), features(o.p808_features) {
    if (o.p835 != P835Model::none) {
      const OfficialModel& official = o.p835 == P835Model::regular ? kP835Official : kP835PersonalizedOfficial;
      p835.emplace(OnnxGraph(dir / official.file_name, official, o.require_official_weights));
    }
    if (o.p808) p808.emplace(OnnxGraph(dir / kP808Official.file_name, kP808Official, o.require_official_weights));
  }

  // A workspace for one call, back to the pool when the call ends: concurrent calls each get one.
  struct Lease {
    Impl& impl;
    std::unique_ptr<Workspace> workspace;
    explicit Lease(Impl& i) : impl(i) {
      std::lock_guard lock(impl.mutex);
      if (impl.idle.empty()) {
        workspace = std::make_unique<Workspace>();
      } else {
        workspace = std::move(impl.idle.back());
        impl.idle.pop_back();
      }
    }
    ~Lease() {
      std::lock_guard lock(impl.mutex);
      impl.idle.push_back(std::move(workspace));
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
  };

  const P835Network& p835_network() const {
    if (!p835) throw Error(ErrorCategory::config, "DNSMOS: this scorer was made without a P.835 model");
    return *p835;
  }
  const P808Network& p808_network() const {
    if (!p808) throw Error(ErrorCategory::config, "DNSMOS: this scorer was made without the P.808 model");
    return *p808;
  }
};

Scorer::Scorer(const std::filesystem::path& model_dir, const Options& options)
    : impl_(std::make_unique<Impl>(model_dir, options)) {}
Scorer::~Scorer() = default;
Scorer::Scorer(Scorer&&) noexcept = default;
Scorer& Scorer::operator=(Scorer&&) noexcept = default;

const Options& Scorer::options() const { return impl_->options; }

std::array<float, 3> Scorer::p835_raw(std::span<const float> window) const {
  if (window.size() != kWindowSamples)
    throw Error(ErrorCategory::audio, "DNSMOS P.835: a window has " + std::to_string(kWindowSamples) + " samples, not " +
                                          std::to_string(window.size()));
  const P835Network& network = impl_->p835_network();
  Impl::Lease lease(*impl_);
  return network.run(window.data(), lease.workspace->network, impl_->isa);
}

std::vector<float> Scorer::p808_input(std::span<const double> samples) const {
  if (samples.size() != kP808Samples)
    throw Error(ErrorCategory::audio, "DNSMOS P.808: features take " + std::to_string(kP808Samples) +
                                          " samples, not " + std::to_string(samples.size()));
  Impl::Lease lease(*impl_);
  std::vector<float> out(kP808Frames * kP808Bands);
  impl_->features.compute(samples.data(), out.data(), lease.workspace->features, impl_->isa);
  return out;
}

float Scorer::p808_raw(std::span<const float> input) const {
  if (input.size() != kP808Frames * kP808Bands)
    throw Error(ErrorCategory::audio, "DNSMOS P.808: the network takes " + std::to_string(kP808Frames * kP808Bands) +
                                          " values, not " + std::to_string(input.size()));
  const P808Network& network = impl_->p808_network();
  Impl::Lease lease(*impl_);
  return network.run(input.data(), lease.workspace->network, impl_->isa);
}

std::vector<double> at_16k(std::span<const double> samples, int sample_rate) {
  if (samples.empty()) throw Error(ErrorCategory::audio, "DNSMOS: the clip has no samples");
  if (sample_rate <= 0) throw Error(ErrorCategory::audio, "DNSMOS: invalid sample rate " + std::to_string(sample_rate));
  for (std::size_t i = 0; i < samples.size(); ++i)
    if (!std::isfinite(samples[i]))
      throw Error(ErrorCategory::audio, "DNSMOS: sample " + std::to_string(i) + " of the clip is not finite");
  if (sample_rate == kSampleRate) return {samples.begin(), samples.end()};
  // librosa.resample(aud, input_fs, 16000): resampy kaiser_best, then fix_length to
  // ceil(n·16000/input_fs) (zeros appended or samples cut).
  std::vector<double> audio = resampy_resample(samples, sample_rate, kSampleRate);
  const double ratio = double(kSampleRate) / sample_rate;
  audio.resize(static_cast<std::size_t>(std::ceil(double(samples.size()) * ratio)), 0.0);
  return audio;
}

ClipScores Scorer::score(std::span<const double> samples, int sample_rate) const {
  const Options& o = impl_->options;
  std::vector<double> audio = at_16k(samples, sample_rate);
  ClipScores clip;
  clip.samples_16k = audio.size();
  if (audio.size() < kWindowSamples && o.short_clips == ShortClips::doubled) {
    while (audio.size() < kWindowSamples) {
      const std::size_t n = audio.size();
      audio.resize(2 * n);
      std::copy_n(audio.begin(), n, audio.begin() + long(n));
    }
  } else if (audio.size() < kWindowSamples && o.short_clips == ShortClips::zero_padded) {
    audio.resize(kWindowSamples, 0.0);
  } else if (audio.size() < kWindowSamples) {
    const std::size_t n = audio.size();
    audio.resize(kWindowSamples);
    for (std::size_t i = n; i < kWindowSamples; ++i) audio[i] = audio[i - n];
  }
  clip.repeated_samples = audio.size();
  clip.hops = o.first_window_only
                  ? 1
                  : std::size_t(static_cast<long>(std::floor(double(audio.size()) / kSampleRate) - kWindowSeconds) + 1);

  Impl::Lease lease(*impl_);
  Workspace& work = *lease.workspace;
  const Calibration& calibration = o.p835 == P835Model::personalized ? kPersonalized : kRegular;
  std::vector<float> sig_raw, bak_raw, ovrl_raw, p808;
  std::vector<double> sig, bak, ovrl;
  for (std::size_t hop = 0; hop < clip.hops; ++hop) {
    const std::size_t start = hop * kSampleRate;
    std::size_t end = o.window_ends == WindowEnds::exact
                          ? start + kWindowSamples
                          : static_cast<std::size_t>((double(hop) + kWindowSeconds) * kSampleRate);
    end = std::min(end, audio.size());
    if (end < start + kWindowSamples) continue;  // the script's `continue` on a short segment
    const double* segment = audio.data() + start;
    WindowScores w;
    w.hop = hop;
    w.start = start;
    w.end = end;
    if (impl_->p835) {
      work.window.assign(segment, segment + kWindowSamples);  // .astype('float32')
      const auto raw = impl_->p835->run(work.window.data(), work.network, impl_->isa);
      w.sig_raw = raw[0];
      w.bak_raw = raw[1];
      w.ovrl_raw = raw[2];
      w.sig = polyval(calibration.sig, w.sig_raw);
      w.bak = polyval(calibration.bak, w.bak_raw);
      w.ovrl = polyval(calibration.ovrl, w.ovrl_raw);
      sig_raw.push_back(w.sig_raw);
      bak_raw.push_back(w.bak_raw);
      ovrl_raw.push_back(w.ovrl_raw);
      sig.push_back(w.sig);
      bak.push_back(w.bak);
      ovrl.push_back(w.ovrl);
    }
    if (impl_->p808) {
      work.p808_input.resize(kP808Frames * kP808Bands);
      impl_->features.compute(segment, work.p808_input.data(), work.features, impl_->isa);
      w.p808_mos = impl_->p808->run(work.p808_input.data(), work.network, impl_->isa);
      p808.push_back(w.p808_mos);
    }
    clip.windows.push_back(w);
  }
  if (!sig_raw.empty()) {
    clip.sig_raw = mean(sig_raw);
    clip.bak_raw = mean(bak_raw);
    clip.ovrl_raw = mean(ovrl_raw);
    clip.sig = mean(sig);
    clip.bak = mean(bak);
    clip.ovrl = mean(ovrl);
  }
  if (!p808.empty()) clip.p808_mos = mean(p808);
  return clip;
}

std::optional<P808Features> p808_features_named(std::string_view name) {
  if (name == "librosa-0.8.1") return P808Features::librosa_0_8;
  if (name == "librosa-0.9") return P808Features::librosa_0_9;
  return std::nullopt;
}

nlohmann::json clip_json(const ClipScores& c) {
  nlohmann::json out = nlohmann::json::object();
  const auto put = [&](const char* key, double v) {
    if (!std::isnan(v)) out[key] = v;
  };
  put("SIG", c.sig);
  put("BAK", c.bak);
  put("OVRL", c.ovrl);
  put("SIG_raw", c.sig_raw);
  put("BAK_raw", c.bak_raw);
  put("OVRL_raw", c.ovrl_raw);
  put("P808_MOS", c.p808_mos);
  out["windows"] = c.windows.size();
  return out;
}

}  // namespace aeval::dnsmos
