#pragma once
// Signal-to-noise and scale-invariant distortion ratios in dB, as
// torchmetrics 1.9 (eps = machine epsilon of the dtype, zero_mean optional)
// and asteroid 0.7 (zero mean, EPS = 1e-8) compute them; the reference README
// of shared/reference/signal gives the formulas.
#include <cfloat>
#include <vector>

namespace aeval::metrics {

// preds = the estimate (degraded), target = the reference (clean), same length.
// Throws aeval::Error (data) when the lengths differ or a signal is empty.
double si_sdr(const std::vector<double>& preds, const std::vector<double>& target, bool zero_mean = false,
              double eps = DBL_EPSILON);
// SI-SDR with zero_mean = true.
double si_snr(const std::vector<double>& preds, const std::vector<double>& target, double eps = DBL_EPSILON);
double snr(const std::vector<double>& preds, const std::vector<double>& target, bool zero_mean = false,
           double eps = DBL_EPSILON);

// asteroid.losses.sdr singlesrc_neg_{sisdr,sdsdr,snr}, negated (higher is better).
struct AsteroidSdr {
  double si_sdr = 0, sd_sdr = 0, snr = 0;
};
AsteroidSdr asteroid_sdr(const std::vector<double>& preds, const std::vector<double>& target);

}  // namespace aeval::metrics
