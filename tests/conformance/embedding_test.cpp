// Cosine, AudioBERTScore and Fréchet distance against
// shared/reference/embedding/*.jsonl and shared/reference/frechet_gaussian.jsonl.
#include <gtest/gtest.h>

#include <cmath>

#include "aeval/metrics/embedding.hpp"
#include "support/reference.hpp"

namespace {

using aeval::read_npy;
using aeval::metrics::to_matrix;

std::filesystem::path in_reference(const std::string& relative) { return aeval::testing::reference_dir() / relative; }

::testing::AssertionResult near(double expected, double actual, double abs_tol, double rel_tol) {
  const double tolerance = std::max(abs_tol, rel_tol * std::fabs(expected));
  if (std::fabs(expected - actual) <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected " << expected << " got " << actual << " (tolerance " << tolerance
                                       << ")";
}

TEST(EmbeddingConformance, Cosine) {
  AEVAL_REQUIRE_GOLDEN(records, "embedding/cosine.jsonl");
  for (const auto& r : records) {
    const auto pair = to_matrix(read_npy(in_reference("embedding/" + r["pair_npy"].get<std::string>())), "pair");
    const double ours = aeval::metrics::cosine_similarity(pair.row(0).transpose(), pair.row(1).transpose());
    EXPECT_TRUE(near(r["expected"]["torch_f64"].get<double>(), ours, 1e-12, 0)) << r["id"];
    EXPECT_TRUE(near(r["expected"]["torch_f32"].get<double>(), ours, 1e-6, 0)) << r["id"];
  }
}

TEST(EmbeddingConformance, AudioBertScore) {
  AEVAL_REQUIRE_GOLDEN(records, "embedding/audiobertscore.jsonl");
  for (std::size_t k = 0; k < records.size(); ++k) {
    if (!aeval::testing::checked_in_this_build(k)) continue;
    const auto& r = records[k];
    const std::string id = r["id"];
    const auto gen = to_matrix(read_npy(in_reference("embedding/" + r["gen_npy"].get<std::string>())), "gen");
    const auto ref = to_matrix(read_npy(in_reference("embedding/" + r["ref_npy"].get<std::string>())), "ref");
    aeval::metrics::AudioBertScoreOptions o;
    o.lambda = r["lam"];
    o.p = r["p"];
    const auto f32 = aeval::metrics::audio_bert_score(gen, ref, o);
    const auto& e = r["expected"];
    EXPECT_TRUE(near(e["precision"].get<double>(), f32.precision, 2e-6, 0)) << id << " P";
    EXPECT_TRUE(near(e["recall"].get<double>(), f32.recall, 2e-6, 0)) << id << " R";
    const double P = e["precision"], R = e["recall"];
    const double f1_tolerance = 2e-6 * std::max(1.0, std::fabs(e["f1"].get<double>()) * (std::fabs(P) + std::fabs(R)) /
                                                          std::fabs(P + R));
    EXPECT_TRUE(near(e["f1"].get<double>(), f32.f1, f1_tolerance, 0)) << id << " F1";

    o.arithmetic = aeval::metrics::Arithmetic::float64;
    const auto f64 = aeval::metrics::audio_bert_score(gen, ref, o);
    const auto& e64 = r["expected_f64"];
    EXPECT_TRUE(near(e64["precision"].get<double>(), f64.precision, 1e-9, 0)) << id << " P64";
    EXPECT_TRUE(near(e64["recall"].get<double>(), f64.recall, 1e-9, 0)) << id << " R64";
    EXPECT_TRUE(near(e64["f1"].get<double>(), f64.f1, 1e-9, 0)) << id << " F1_64";
  }
}

aeval::NpyArray as_float64(aeval::NpyArray a) {
  a.dtype = "f8";
  return a;
}

TEST(EmbeddingConformance, FrechetOnAudioAndGaussianSets) {
  AEVAL_REQUIRE_GOLDEN(records, "embedding/frechet.jsonl");
  for (const auto& r : records) {
    const std::string id = r["id"];
    const auto a = read_npy(in_reference("embedding/" + r["set_A_npy"].get<std::string>()));
    const auto b = read_npy(in_reference("embedding/" + r["set_B_npy"].get<std::string>()));
    const bool singular = a.shape[0] <= a.shape[1] || b.shape[0] <= b.shape[1];
    const bool identical = id.find("identical") != std::string::npos;
    const auto& e = r["expected"];
    const auto f32 = aeval::metrics::frechet_distance(aeval::metrics::embedding_statistics(a, "A"),
                                                      aeval::metrics::embedding_statistics(b, "B"));
    const auto f64 = aeval::metrics::frechet_distance(aeval::metrics::embedding_statistics(as_float64(a), "A"),
                                                      aeval::metrics::embedding_statistics(as_float64(b), "B"));
    const double abs_tol = identical ? 1e-9 : 0;
    EXPECT_TRUE(near(e["fadtk_f32_input"]["value"].get<double>(), f32.distance, abs_tol, singular ? 1e-5 : 1e-6)) << id;
    EXPECT_TRUE(near(e["fadtk_f64_input"]["value"].get<double>(), f64.distance, abs_tol, singular ? 1e-5 : 1e-9)) << id;
    EXPECT_EQ(!f64.warnings.empty(), singular) << id;
  }
}

TEST(EmbeddingConformance, FrechetGaussianDtypes) {
  AEVAL_REQUIRE_GOLDEN(records, "frechet_gaussian.jsonl");
  for (const auto& r : records) {
    const std::string id = r["id"];
    const auto a = read_npy(in_reference(r["input"]["A_npy"].get<std::string>()));
    const auto b = read_npy(in_reference(r["input"]["B_npy"].get<std::string>()));
    const auto sa = aeval::metrics::embedding_statistics(a, "A"), sb = aeval::metrics::embedding_statistics(b, "B");
    const auto result = aeval::metrics::frechet_distance(sa, sb);
    const auto& e = r["expected"];
    const bool low_precision = a.dtype != "f8";
    const bool singular = a.shape[0] < a.shape[1] || b.shape[0] < b.shape[1];
    const double rel = low_precision || singular ? 1e-6 : 1e-9;
    EXPECT_TRUE(near(e["fd_fadtk"].get<double>(), result.distance, 0, rel)) << id;
    EXPECT_TRUE(near(e["mu_diff_sq"].get<double>(), result.mean_term, 0, rel)) << id;
    EXPECT_TRUE(near(e["trace_cov1"].get<double>(), result.trace_a, 0, 1e-12)) << id;
    EXPECT_TRUE(near(e["tr_covmean_eig"].get<double>(), result.trace_sqrt, 0, singular ? 1e-6 : 1e-9)) << id;
    if (e.contains("mu1")) {
      for (std::size_t j = 0; j < e["mu1"].size(); ++j) EXPECT_EQ(e["mu1"][j].get<double>(), sa.mean(Eigen::Index(j))) << id;
    }
  }
}

}  // namespace
