// AudioBERTScore scoring core: lourson1091/audiobertscore ddccd17
// audiobertscore.py bert_score(gen, ref, lam, p); shared/specs/seed-methods.md §1.
#include <cmath>

#include "aeval/error.hpp"
#include "aeval/metrics/embedding.hpp"

namespace aeval::metrics {

namespace {

template <class Real>
AudioBertScore score(const Matrix& generated, const Matrix& reference, const AudioBertScoreOptions& o) {
  using M = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using V = Eigen::Matrix<Real, Eigen::Dynamic, 1>;
  const M gen = generated.cast<Real>(), ref = reference.cast<Real>();
  const V gen_norm = gen.rowwise().norm(), ref_norm = ref.rowwise().norm();
  // Cosine matrix, no eps (as the reference): a zero-norm frame gives NaN.
  M cos = gen * ref.transpose();
  for (Eigen::Index i = 0; i < cos.rows(); ++i)
    for (Eigen::Index j = 0; j < cos.cols(); ++j) cos(i, j) = cos(i, j) / (gen_norm(i) * ref_norm(j));

  // (M⁺)^p once, in the working precision (float32 underflows like torch's).
  const Real p = Real(o.p);
  const M powered = cos.unaryExpr([p](Real x) { return std::pow(std::max(x, Real(0)), p); });
  // Means are accumulated in double and rounded once: closer to exact than
  // torch's reductions, which is within the reference's own rounding spread.
  const auto root = [p](double sum, Eigen::Index count) {
    return double(std::pow(Real(sum / double(count)), Real(1) / p));
  };
  const Eigen::VectorXd row_sums = powered.template cast<double>().rowwise().sum();
  const Eigen::VectorXd col_sums = powered.template cast<double>().colwise().sum().transpose();
  double precision_max = 0, precision_p = 0, recall_max = 0, recall_p = 0;
  for (Eigen::Index i = 0; i < cos.rows(); ++i) {
    precision_max += double(cos.row(i).maxCoeff());
    precision_p += root(row_sums(i), cos.cols());
  }
  for (Eigen::Index j = 0; j < cos.cols(); ++j) {
    recall_max += double(cos.col(j).maxCoeff());
    recall_p += root(col_sums(j), cos.rows());
  }
  AudioBertScore s;
  s.precision_max = double(Real(precision_max / double(cos.rows())));
  s.precision_p = double(Real(precision_p / double(cos.rows())));
  s.recall_max = double(Real(recall_max / double(cos.cols())));
  s.recall_p = double(Real(recall_p / double(cos.cols())));
  const Real lambda = Real(o.lambda);
  const Real P = lambda * Real(s.precision_max) + (Real(1) - lambda) * Real(s.precision_p);
  const Real R = lambda * Real(s.recall_max) + (Real(1) - lambda) * Real(s.recall_p);
  s.precision = double(P);
  s.recall = double(R);
  s.f1 = double(Real(2) * P * R / (P + R + Real(1e-8)));
  return s;
}

}  // namespace

AudioBertScore audio_bert_score(const Matrix& generated, const Matrix& reference, const AudioBertScoreOptions& o) {
  if (generated.rows() == 0 || reference.rows() == 0)
    throw Error(ErrorCategory::data, "AudioBERTScore: an embedding sequence has no frames");
  if (generated.cols() != reference.cols())
    throw Error(ErrorCategory::data, "AudioBERTScore: embedding dimensions differ (" + std::to_string(generated.cols()) +
                                         " vs " + std::to_string(reference.cols()) + ")");
  if (!(o.p > 0)) throw Error(ErrorCategory::config, "AudioBERTScore: p must be positive");
  return o.arithmetic == Arithmetic::float32 ? score<float>(generated, reference, o) : score<double>(generated, reference, o);
}

}  // namespace aeval::metrics
