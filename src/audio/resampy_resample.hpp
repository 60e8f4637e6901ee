#pragma once
// resampy 0.4.2's resample(x, sr_orig, sr_new, filter='kaiser_best') in float64: what
// librosa < 0.10 resamples with by default (DNSMOS's dnsmos_local.py, for one).
#include <span>
#include <vector>

namespace aeval {

// int(n·sr_new/sr_orig) samples. aeval::Error (audio) for a rate ≤ 0 or an output of no samples.
std::vector<double> resampy_resample(std::span<const double> x, int sr_orig, int sr_new);

}  // namespace aeval
