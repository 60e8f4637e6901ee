// torchaudio 0.13.1 functional.resample with its defaults
// (_get_sinc_resample_kernel: sinc_interpolation, Hann window,
// lowpass_filter_width 6, rolloff 0.99; _apply_sinc_resample_kernel: pad,
// strided convolution, truncate to ceil(new·n/orig)). Kernel built in double,
// applied in float32 as torchaudio does for float32 audio.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

#include "aeval/audio.hpp"

namespace aeval::detail {

namespace {

constexpr double kWidth = 6, kRolloff = 0.99;

struct SincKernel {
  long orig = 0, fresh = 0, width = 0, taps = 0;
  std::vector<float> weights;  // [phase p][tap j], row-major: phase p of the output, tap j over the padded input
};

SincKernel make_kernel(long orig, long fresh) {
  SincKernel k{orig, fresh, 0, 0, {}};
  const double base = double(std::min(orig, fresh)) * kRolloff;
  k.width = static_cast<long>(std::ceil(kWidth * double(orig) / base));
  k.taps = 2 * k.width + orig;
  k.weights.resize(std::size_t(fresh * k.taps));
  for (long p = 0; p < fresh; ++p) {
    for (long j = 0; j < k.taps; ++j) {
      double t = (-double(p) / double(fresh) + double(j - k.width) / double(orig)) * base;
      t = std::clamp(t, -kWidth, kWidth);
      const double window = std::pow(std::cos(t * std::numbers::pi / kWidth / 2), 2);
      t *= std::numbers::pi;
      const double sinc = t == 0 ? 1.0 : std::sin(t) / t;
      k.weights[std::size_t(p * k.taps + j)] = float(sinc * (window * (base / double(orig))));
    }
  }
  return k;
}

// Building the kernel costs more than applying it to a few seconds of audio,
// and a run resamples many files between the same two rates.
const SincKernel& cached_kernel(long orig, long fresh) {
  thread_local SincKernel last;
  if (last.orig != orig || last.fresh != fresh) last = make_kernel(orig, fresh);
  return last;
}

}  // namespace

Audio torchaudio_resample(const Audio& audio, int target_rate) {
  const long g = std::gcd(long(audio.sample_rate), long(target_rate));
  const SincKernel& kernel = cached_kernel(audio.sample_rate / g, target_rate / g);
  const long orig = kernel.orig, fresh = kernel.fresh, width = kernel.width, taps = kernel.taps;

  const long frames = long(audio.frames());
  const long out_frames = static_cast<long>(std::ceil(double(fresh) * double(frames) / double(orig)));
  const long blocks = (out_frames + fresh - 1) / fresh;
  Audio out;
  out.sample_rate = target_rate;
  out.channels = audio.channels;
  out.samples.assign(std::size_t(out_frames) * std::size_t(audio.channels), 0.0f);
  // The strided convolution as one matrix product: column b of the input view
  // is the `taps` samples starting at b·orig (columns overlap), and output
  // sample b·fresh + p is row p of column b.
  const Eigen::Map<const Eigen::MatrixXf> weights(kernel.weights.data(), taps, fresh);
  std::vector<float> padded(std::size_t((blocks - 1) * orig + taps), 0.0);  // `width` zeros lead
  for (int c = 0; c < audio.channels; ++c) {
    for (long k = 0; k < frames && k + width < long(padded.size()); ++k)
      padded[std::size_t(k + width)] = audio.samples[std::size_t(k * audio.channels + c)];
    const Eigen::Map<const Eigen::MatrixXf, 0, Eigen::OuterStride<>> view(padded.data(), taps, blocks,
                                                                         Eigen::OuterStride<>(orig));
    const Eigen::MatrixXf result = weights.transpose() * view;
    for (long o = 0; o < out_frames; ++o) out.samples[std::size_t(o * audio.channels + c)] = result.data()[o];
  }
  return out;
}

}  // namespace aeval::detail
