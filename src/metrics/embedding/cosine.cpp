// Cosine similarity as torch 1.13's cosine_similarity: x·y / sqrt(max(‖x‖²‖y‖², eps²)).
#include <cmath>

#include "aeval/error.hpp"
#include "aeval/metrics/embedding.hpp"

namespace aeval::metrics {

Matrix to_matrix(const NpyArray& array, const std::string& what) {
  if (array.shape.size() > 2) throw Error(ErrorCategory::data, what + ": expected a 1-D or 2-D array");
  const std::size_t rows = array.shape.size() == 2 ? array.shape[0] : 1;
  const std::size_t cols = array.shape.size() == 2 ? array.shape[1] : array.shape.empty() ? 1 : array.shape[0];
  Matrix m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  for (std::size_t i = 0; i < array.values.size(); ++i) {
    if (!std::isfinite(array.values[i]))
      throw Error(ErrorCategory::data, what + ": non-finite value (NaN or Inf) at row " + std::to_string(i / cols) +
                                           ", column " + std::to_string(i % cols));
    m.data()[i] = array.values[i];
  }
  return m;
}

double cosine_similarity(const Eigen::Ref<const Eigen::VectorXd>& a, const Eigen::Ref<const Eigen::VectorXd>& b,
                         double eps) {
  if (a.size() != b.size())
    throw Error(ErrorCategory::data, "cosine similarity: dimensions differ (" + std::to_string(a.size()) + " vs " +
                                         std::to_string(b.size()) + ")");
  return a.dot(b) / std::sqrt(std::max(a.squaredNorm() * b.squaredNorm(), eps * eps));
}

std::vector<double> cosine_similarity_rows(const Matrix& a, const Matrix& b, double eps) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    throw Error(ErrorCategory::data, "cosine similarity: the two batches have different shapes");
  std::vector<double> out;
  for (Eigen::Index i = 0; i < a.rows(); ++i) out.push_back(cosine_similarity(a.row(i).transpose(), b.row(i).transpose(), eps));
  return out;
}

}  // namespace aeval::metrics
