// torchmetrics 1.9.0 functional/audio/{sdr,snr}.py and asteroid 0.7.1
// losses/sdr.py (SingleSrcNegSDR).
#include "aeval/metrics/sdr.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "aeval/error.hpp"

namespace aeval::metrics {

namespace {

void check(const std::vector<double>& preds, const std::vector<double>& target, const char* metric) {
  if (preds.empty() || target.empty()) throw Error(ErrorCategory::data, std::string(metric) + ": empty signal");
  if (preds.size() != target.size())
    throw Error(ErrorCategory::data, std::string(metric) + ": lengths differ (" + std::to_string(preds.size()) + " vs " +
                                         std::to_string(target.size()) + " samples); align and trim the signals first");
}

std::vector<double> centered(const std::vector<double>& v) {
  double mean = 0;
  for (double x : v) mean += x;
  mean /= double(v.size());
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i] - mean;
  return out;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

using Signal = Eigen::Map<const Eigen::VectorXd>;
Signal view(const std::vector<double>& v) { return Signal(v.data(), Eigen::Index(v.size())); }

// The sums run through Eigen's vectorised reductions; their order differs from
// torch's by rounding only (≈1e-16 relative, far inside the 1e-6 dB tolerance).
double si_sdr_of(Signal preds, Signal target, double eps) {
  const double alpha = (preds.dot(target) + eps) / (target.squaredNorm() + eps);
  const double signal = (alpha * target).squaredNorm();
  const double noise = (alpha * target - preds).squaredNorm();
  return 10 * std::log10((signal + eps) / (noise + eps));
}

double snr_of(Signal preds, Signal target, double eps) {
  return 10 * std::log10((target.squaredNorm() + eps) / ((target - preds).squaredNorm() + eps));
}

}  // namespace

double si_sdr(const std::vector<double>& preds, const std::vector<double>& target, bool zero_mean, double eps) {
  check(preds, target, "SI-SDR");
  if (!zero_mean) return si_sdr_of(view(preds), view(target), eps);
  const auto p = centered(preds), t = centered(target);
  return si_sdr_of(view(p), view(t), eps);
}

double si_snr(const std::vector<double>& preds, const std::vector<double>& target, double eps) {
  return si_sdr(preds, target, true, eps);
}

double snr(const std::vector<double>& preds, const std::vector<double>& target, bool zero_mean, double eps) {
  check(preds, target, "SNR");
  if (!zero_mean) return snr_of(view(preds), view(target), eps);
  const auto p = centered(preds), t = centered(target);
  return snr_of(view(p), view(t), eps);
}

AsteroidSdr asteroid_sdr(const std::vector<double>& preds_in, const std::vector<double>& target_in) {
  check(preds_in, target_in, "asteroid SDR");
  constexpr double kEps = 1e-8;
  const std::vector<double> est = centered(preds_in), target = centered(target_in);
  const double scale = dot(est, target) / (dot(target, target) + kEps);
  double scaled_energy = 0, target_energy = 0, si_noise = 0, plain_noise = 0;
  for (std::size_t i = 0; i < est.size(); ++i) {
    const double s = scale * target[i];
    scaled_energy += s * s;
    target_energy += target[i] * target[i];
    si_noise += (est[i] - s) * (est[i] - s);
    plain_noise += (est[i] - target[i]) * (est[i] - target[i]);
  }
  const auto ratio = [&](double signal, double noise) { return 10 * std::log10(signal / (noise + kEps) + kEps); };
  return {ratio(scaled_energy, si_noise), ratio(scaled_energy, plain_noise), ratio(target_energy, plain_noise)};
}

}  // namespace aeval::metrics
