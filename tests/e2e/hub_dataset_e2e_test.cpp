// The quickstart's prompts published the way a Hub dataset is (a Parquet
// split with the audio inside, served by a local Hub) score exactly what the
// `asterisk_prompts` class scores: the source changes nothing of the numbers.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>

#include "aeval/audio_io.hpp"
#include "datasets/dataset.hpp"
#include "datasets/table_reader.hpp"
#include "registry/registry.hpp"
#include "support/asterisk.hpp"
#include "support/hub_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::run_aeval;
using aeval::testing::TempDir;

constexpr std::size_t kSamples = 12;

TEST(HubDatasetE2E, TheAsteriskPromptsAsAHubParquetSplitGiveTheSameWer) {
#ifdef AEVAL_SANITIZED
  GTEST_SKIP() << "two PocketSphinx runs: the Release build runs this; the sanitized one tests the same code in unit tests";
#endif
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  // A cache of its own: a split cached by an earlier version of this test has the same made-up commit.
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  const auto asterisk = aeval::datasets::load_dataset(aeval::registry::Registry({aeval::registry::builtin_registry_dir()}),
                                                      "asterisk-en");
  ASSERT_GE(asterisk.samples.size(), kSamples);
  // Float WAV keeps the decoded G.722 samples exactly; the split keeps the manifest's order.
  std::filesystem::create_directories(dir / "wav");
  std::ofstream rows(dir / "rows.jsonl");
  for (std::size_t i = 0; i < kSamples; ++i) {
    const auto& s = asterisk.samples[i];
    aeval::write_wav(dir / "wav" / (s.id + ".wav"), aeval::decode_audio(s.audio), aeval::WavEncoding::float32);
    rows << nlohmann::json{{"n", i}, {"id", s.id}, {"text", *s.reference}, {"wav", (dir / "wav" / (s.id + ".wav")).string()}}
         << "\n";
  }
  rows.close();
  const auto literal = aeval::datasets::TableReader::literal;
  aeval::testing::write_parquet(
      fmt::format("SELECT r.id, r.text, {{'bytes': b.content, 'path': r.id || '.wav'}} AS audio "
                  "FROM read_json({}) r JOIN read_blob({}) b ON b.filename = r.wav ORDER BY r.n",
                  literal((dir / "rows.jsonl").string()), literal((dir / "wav" / "*.wav").string())),
      dir / "test.parquet", 8);
  aeval::testing::HubTestRepo repo;
  repo.main = {aeval::testing::test_commit("asterisk"), {{"data/test-00000-of-00001.parquet", dir / "test.parquet"}}};
  aeval::testing::HubTestServer hub({{"acme/asterisk-prompts", repo}});
  setenv("HF_ENDPOINT", hub.endpoint().c_str(), 1);
  std::filesystem::create_directories(dir / "registry" / "datasets");
  std::ofstream(dir / "registry" / "datasets" / "hub.yaml")
      << "asterisk-hub:\n  class: huggingface\n  args:\n    repo: acme/asterisk-prompts\n    split: test\n";

  const auto from_debian = run_aeval(fmt::format("run --task asr-quickstart --limit {} --no-cache -q --output {}",
                                                 kSamples, (dir / "debian").string()));
  ASSERT_EQ(from_debian.status, 0) << from_debian.output;
  const auto from_hub = run_aeval(fmt::format("--registry {} run --task asr-quickstart --dataset asterisk-hub --no-cache -q "
                                              "--output {}",
                                              (dir / "registry").string(), (dir / "hub").string()));
  ASSERT_EQ(from_hub.status, 0) << from_hub.output;
  const auto debian = aeval::testing::read_only_run(dir / "debian");
  const auto hub_run = aeval::testing::read_only_run(dir / "hub");
  EXPECT_EQ(hub_run.summary["metrics"], debian.summary["metrics"]);
  EXPECT_GT(hub_run.summary["metrics"]["wer"]["value"].get<double>(), 0.0);
  ASSERT_EQ(hub_run.by_id.size(), kSamples);
  for (const auto& [id, record] : debian.by_id) EXPECT_EQ(hub_run.by_id.at(id)["prediction"], record["prediction"]) << id;
  // The summary records where the data came from, down to the commit.
  const std::string provenance = hub_run.summary.dump();
  EXPECT_NE(provenance.find(aeval::testing::test_commit("asterisk")), std::string::npos);
}

}  // namespace
