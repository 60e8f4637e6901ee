// Fréchet distance between embedding sets: microsoft/fadtk ec74b1f fad.py
// (calc_embd_statistics, calc_frechet_distance); shared/specs/metric-specs.md §9.
#include <Eigen/Eigenvalues>
#include <cmath>
#include <complex>

#include "aeval/error.hpp"
#include "aeval/metrics/embedding.hpp"

namespace aeval::metrics {

namespace {

// Rounds to float16 (round to nearest even), as numpy stores a float16 mean.
double to_half(double v) {
  if (!std::isfinite(v) || v == 0) return v;
  int exponent;
  std::frexp(v, &exponent);                      // v = m · 2^exponent, 0.5 ≤ |m| < 1
  const int quantum = std::max(exponent - 11, -24);  // 11 significant bits, subnormals below 2^-14
  return std::nearbyint(std::ldexp(v, -quantum)) * std::ldexp(1.0, quantum);
}

// numpy's mean over axis 0 of a C-order array: row by row, then / n.
double column_mean(const Matrix& e, Eigen::Index j) {
  double sum = 0;
  for (Eigen::Index i = 0; i < e.rows(); ++i) sum += e(i, j);
  return sum / double(e.rows());
}

}  // namespace

EmbeddingStatistics embedding_statistics(const NpyArray& embeddings, const std::string& what) {
  const Matrix e = to_matrix(embeddings, what);
  const auto n = static_cast<std::size_t>(e.rows());
  if (embeddings.shape.size() != 2) throw Error(ErrorCategory::data, what + ": expected a 2-D array (frames × dimensions)");
  if (n < 2) throw Error(ErrorCategory::data, what + ": at least 2 embeddings are needed for a covariance");
  EmbeddingStatistics s;
  s.count = n;
  s.mean_dtype = embeddings.dtype;
  s.mean.resize(e.cols());
  for (Eigen::Index j = 0; j < e.cols(); ++j) {
    if (embeddings.dtype == "f4") {
      // numpy reduces axis 0 of a C-order float32 array row by row, in float32.
      float sum = 0;
      for (Eigen::Index i = 0; i < e.rows(); ++i) sum += float(e(i, j));
      s.mean(j) = double(sum / float(n));
    } else if (embeddings.dtype == "f2") {
      // float16 means use float32 intermediates, then round to float16.
      float sum = 0;
      for (Eigen::Index i = 0; i < e.rows(); ++i) sum += float(e(i, j));
      s.mean(j) = to_half(double(sum / float(n)));
    } else {
      s.mean(j) = column_mean(e, j);
    }
  }
  // np.cov(rowvar=False): float64, centered by the float64 mean, · 1/(n−1).
  Eigen::MatrixXd centered = e;
  for (Eigen::Index j = 0; j < e.cols(); ++j) centered.col(j).array() -= column_mean(e, j);
  s.covariance = (centered.transpose() * centered) * (1.0 / double(n - 1));
  return s;
}

FrechetResult frechet_distance(const EmbeddingStatistics& a, const EmbeddingStatistics& b) {
  if (a.mean.size() != b.mean.size())
    throw Error(ErrorCategory::data, "Fréchet distance: embedding dimensions differ (" + std::to_string(a.mean.size()) +
                                         " vs " + std::to_string(b.mean.size()) + ")");
  FrechetResult r;
  // Low-precision means make numpy compute the difference and its dot in
  // that precision (float16 dots accumulate in float32, then round).
  if (a.mean_dtype != "f8" && b.mean_dtype != "f8") {
    const bool half = a.mean_dtype == "f2" && b.mean_dtype == "f2";
    double dot = 0;
    for (Eigen::Index j = 0; j < a.mean.size(); ++j) {
      double d = double(float(a.mean(j)) - float(b.mean(j)));
      if (half) d = to_half(d);
      dot += d * d;
    }
    r.mean_term = half ? to_half(double(float(dot))) : double(float(dot));
  } else {
    r.mean_term = (a.mean - b.mean).squaredNorm();
  }
  r.trace_a = a.covariance.trace();
  r.trace_b = b.covariance.trace();
  // tr √(ΣaΣb) = Σ √λ over the (complex) eigenvalues of ΣaΣb, principal roots.
  const Eigen::MatrixXd product = a.covariance * b.covariance;
  Eigen::EigenSolver<Eigen::MatrixXd> solver(product, /*computeEigenvectors=*/false);
  if (solver.info() != Eigen::Success) throw Error(ErrorCategory::data, "Fréchet distance: eigen decomposition failed");
  for (Eigen::Index i = 0; i < solver.eigenvalues().size(); ++i) r.trace_sqrt += std::sqrt(solver.eigenvalues()(i)).real();
  r.distance = r.mean_term + r.trace_a + r.trace_b - 2 * r.trace_sqrt;
  const auto dims = static_cast<std::size_t>(a.mean.size());
  if (a.count <= dims || b.count <= dims)
    r.warnings.push_back("a covariance is singular (" + std::to_string(std::min(a.count, b.count)) +
                         " embeddings for " + std::to_string(dims) +
                         " dimensions): the reference implementations agree only to ~1e-5 here");
  return r;
}

void save_statistics(const EmbeddingStatistics& s, const std::filesystem::path& prefix) {
  const auto d = static_cast<std::size_t>(s.mean.size());
  NpyArray mu{{d}, "f8", std::vector<double>(s.mean.data(), s.mean.data() + d)};
  NpyArray sigma{{d, d}, "f8", {}};
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) sigma.values.push_back(s.covariance(Eigen::Index(i), Eigen::Index(j)));
  const double dtype_code = s.mean_dtype == "f2" ? 2 : s.mean_dtype == "f4" ? 4 : 8;
  NpyArray n{{2}, "f8", {double(s.count), dtype_code}};
  write_npy(prefix.string() + ".mu.npy", mu);
  write_npy(prefix.string() + ".sigma.npy", sigma);
  write_npy(prefix.string() + ".n.npy", n);
}

EmbeddingStatistics load_statistics(const std::filesystem::path& prefix) {
  const NpyArray mu = read_npy(prefix.string() + ".mu.npy"), sigma = read_npy(prefix.string() + ".sigma.npy"),
                 n = read_npy(prefix.string() + ".n.npy");
  const std::size_t d = mu.values.size();
  if (sigma.values.size() != d * d || n.values.size() != 2)
    throw Error(ErrorCategory::data, prefix.string() + ": statistics files do not belong together");
  EmbeddingStatistics s;
  s.mean = Eigen::Map<const Eigen::VectorXd>(mu.values.data(), Eigen::Index(d));
  s.covariance = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      sigma.values.data(), Eigen::Index(d), Eigen::Index(d));
  s.count = std::size_t(n.values[0]);
  s.mean_dtype = n.values[1] == 2 ? "f2" : n.values[1] == 4 ? "f4" : "f8";
  return s;
}

}  // namespace aeval::metrics
