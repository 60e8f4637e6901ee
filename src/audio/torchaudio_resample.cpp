// torchaudio 0.13.1 functional.resample with its defaults
// (_get_sinc_resample_kernel: sinc_interpolation, Hann window,
// lowpass_filter_width 6, rolloff 0.99; _apply_sinc_resample_kernel: pad,
// strided convolution, truncate to ceil(new·n/orig)). Kernel in double.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

#include "aeval/audio.hpp"

namespace aeval::detail {

Audio torchaudio_resample(const Audio& audio, int target_rate) {
  constexpr double kWidth = 6, kRolloff = 0.99;
  const long g = std::gcd(long(audio.sample_rate), long(target_rate));
  const long orig = audio.sample_rate / g, fresh = target_rate / g;
  const double base = double(std::min(orig, fresh)) * kRolloff;
  const auto width = static_cast<long>(std::ceil(kWidth * double(orig) / base));
  const long taps = 2 * width + orig;

  // kernel[p][j]: phase p of the output, tap j over the padded input.
  std::vector<double> kernel(std::size_t(fresh * taps));
  for (long p = 0; p < fresh; ++p) {
    for (long j = 0; j < taps; ++j) {
      double t = (-double(p) / double(fresh) + double(j - width) / double(orig)) * base;
      t = std::clamp(t, -kWidth, kWidth);
      const double window = std::pow(std::cos(t * std::numbers::pi / kWidth / 2), 2);
      t *= std::numbers::pi;
      const double sinc = t == 0 ? 1.0 : std::sin(t) / t;
      kernel[std::size_t(p * taps + j)] = sinc * (window * (base / double(orig)));
    }
  }

  const long frames = long(audio.frames());
  const long out_frames = static_cast<long>(std::ceil(double(fresh) * double(frames) / double(orig)));
  Audio out;
  out.sample_rate = target_rate;
  out.channels = audio.channels;
  out.samples.assign(std::size_t(out_frames) * std::size_t(audio.channels), 0.0f);
  for (int c = 0; c < audio.channels; ++c) {
    // zero padding of `width` before and `width + orig` after, as torch's pad
    auto sample = [&](long i) -> double {
      const long k = i - width;
      return k >= 0 && k < frames ? double(audio.samples[std::size_t(k * audio.channels + c)]) : 0.0;
    };
    for (long o = 0; o < out_frames; ++o) {
      const long frame = o / fresh, phase = o % fresh;
      const double* h = &kernel[std::size_t(phase * taps)];
      double acc = 0;
      for (long j = 0; j < taps; ++j) acc += h[j] * sample(frame * orig + j);
      out.samples[std::size_t(o * audio.channels + c)] = float(acc);
    }
  }
  return out;
}

}  // namespace aeval::detail
