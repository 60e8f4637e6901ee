#pragma once
// Embedding-level scores: cosine similarity (speaker similarity, CLAPScore),
// the AudioBERTScore scoring core (seed paper 001) and the Fréchet distance
// between embedding sets (FAD, as fadtk computes it).
#include <Eigen/Dense>
#include <filesystem>
#include <string>
#include <vector>

#include "aeval/npy.hpp"

namespace aeval::metrics {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Rows of a 1-D or 2-D array as a matrix. Throws aeval::Error (data) on NaN/Inf.
Matrix to_matrix(const NpyArray& array, const std::string& what);

// torch.nn.functional.cosine_similarity(a, b, eps=1e-8) of two vectors.
double cosine_similarity(const Eigen::Ref<const Eigen::VectorXd>& a, const Eigen::Ref<const Eigen::VectorXd>& b,
                         double eps = 1e-8);
// Row i of a against row i of b.
std::vector<double> cosine_similarity_rows(const Matrix& a, const Matrix& b, double eps = 1e-8);

enum class Arithmetic { float32, float64 };

struct AudioBertScoreOptions {
  double lambda = -3.5;  // weight of the max-norm term; 1 = max only, 0 = p-norm only
  double p = 106;        // power of the p-norm (a power mean)
  // float32 reproduces the reference (torch float32, where x^106 underflows
  // for x below ~0.38); float64 is the exact-math variant.
  Arithmetic arithmetic = Arithmetic::float32;
};

struct AudioBertScore {
  double precision = 0, recall = 0, f1 = 0;
  double precision_max = 0, recall_max = 0, precision_p = 0, recall_p = 0;  // the two terms
};

// bert_score(gen, ref, lam, p) of lourson1091/audiobertscore ddccd17:
// cosine matrix, max-norm and power-mean terms, λ-interpolation, F1 with +1e-8.
AudioBertScore audio_bert_score(const Matrix& generated, const Matrix& reference, const AudioBertScoreOptions& o = {});

// Mean and covariance (ddof = 1) of an embedding set, as fadtk's
// calc_embd_statistics computes them: numpy keeps the input dtype for the
// mean (float16/float32 means are rounded), the covariance is float64.
struct EmbeddingStatistics {
  Eigen::VectorXd mean;
  Eigen::MatrixXd covariance;
  std::size_t count = 0;
  std::string mean_dtype = "f8";
};
EmbeddingStatistics embedding_statistics(const NpyArray& embeddings, const std::string& what);

// The statistics cache: one reference set's statistics saved once, compared
// with many systems. Two .npy files: <prefix>.mu.npy and <prefix>.sigma.npy
// (+ <prefix>.n.npy holding the count and the mean's dtype code).
void save_statistics(const EmbeddingStatistics& s, const std::filesystem::path& prefix);
EmbeddingStatistics load_statistics(const std::filesystem::path& prefix);

struct FrechetResult {
  double distance = 0;
  double mean_term = 0, trace_a = 0, trace_b = 0, trace_sqrt = 0;
  std::vector<std::string> warnings;  // e.g. singular covariance
};

// ‖μa−μb‖² + tr Σa + tr Σb − 2 tr √(Σa Σb), the trace of the square root from
// the eigenvalues of Σa Σb (fadtk's method). Throws aeval::Error (data) for
// mismatched dimensions or fewer than 2 embeddings in a set.
FrechetResult frechet_distance(const EmbeddingStatistics& a, const EmbeddingStatistics& b);

}  // namespace aeval::metrics
