// A leaderboard reads what each column is from the evaluator identities runs write: the catalog
// metric and the scoring model, as the evaluator's class declares them where its identity does
// not name them (an error rate's unit, a summary written before asr_error_rate named its metric).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "aeval/metrics/catalog.hpp"
#include "aeval/report/leaderboard.hpp"
#include "evaluators/evaluator.hpp"
#include "registry/registry.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::TempDir;
using nlohmann::json;

// One run's summary.json whose only evaluator has `identity`, with value 0.25.
void write_run(const TempDir& dir, const std::string& model, const json& identity) {
  const std::string name = identity.at("name");
  const json summary = {{"task", "t"}, {"dataset", "d"}, {"model", model},
                        {"counts", {{"samples", 4}, {"failed", 0}}}, {"metrics", {{name, {{"value", 0.25}}}}},
                        {"provenance", {{"task", {{"prompt", ""}}}, {"evaluators", {identity}}, {"model", json::object()}}}};
  const auto folder = dir / "t" / model / "20261128T000000Z";
  std::filesystem::create_directories(folder);
  aeval::testing::write_bytes(folder / "summary.json", summary.dump());
}

TEST(LeaderboardIdentity, AnErrorRateReadsAsWerOrCerByItsUnit) {
  TempDir registry_dir;
  std::filesystem::create_directories(registry_dir / "evaluators");
  aeval::testing::write_bytes(registry_dir / "evaluators" / "e.yaml", "char-rate:\n  class: error_rate\n  args:\n    unit: chars\n");
  const aeval::registry::Registry registry({aeval::registry::builtin_registry_dir(), registry_dir.path()});
  const json identity = aeval::pipeline::load_evaluator(registry, "char-rate")->identity();
  ASSERT_FALSE(identity.contains("metric")) << "runs have always written error_rate's identity without one";
  // An ASR error rate as summaries had it before its identity named the metric.
  const json asr_identity = {{"name", "asr-cer"}, {"class", "asr_error_rate"}, {"unit", "chars"},
                             {"asr_model", {{"name", "pocketsphinx-en"}}}};
  TempDir runs;
  write_run(runs, "a", identity);
  write_run(runs, "b", asr_identity);
  const auto boards = aeval::report::collect_leaderboards(runs.path());
  ASSERT_EQ(boards.size(), 1u);
  const auto& cer = *aeval::metrics::find_metric("cer");
  ASSERT_EQ(boards[0].columns.size(), 2u);
  for (const auto& column : boards[0].columns) {
    EXPECT_EQ(column.rule, cer.scale.rule) << column.metric;
    EXPECT_EQ(column.higher_is_better, false) << column.metric;
  }
  EXPECT_EQ(boards[0].columns[0].scorer, "");
  EXPECT_EQ(boards[0].columns[1].scorer, "pocketsphinx-en");
}

}  // namespace
