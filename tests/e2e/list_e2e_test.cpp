// `aeval list` and `aeval describe` say what each entry is: a benchmark by the metrics it reports (for one defined
// on UltraEval-Audio's registry, what UEA's eval task computes as aeval binds it), a model by what tells it from
// the other entries of its class.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "support/reference.hpp"
#include "support/run_aeval.hpp"
#include "support/scoped_env.hpp"

namespace {

using aeval::testing::run_aeval;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The cells of `list benchmarks`' row for `task`.
std::vector<std::string> benchmark_row(const std::string& table, const std::string& task) {
  const auto at = table.find("| `" + task + "` |");
  if (at == std::string::npos) return {};
  std::vector<std::string> cells;
  std::istringstream row(table.substr(at + 2, table.find('\n', at) - at - 2));
  for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell.substr(1, cell.size() - 2));
  return cells;
}

TEST(ListE2E, BenchmarksOfUltraEvalAudioShowTheMetricsTheirEvalTaskComputes) {
  AEVAL_REQUIRE_SHARED_UEA();
  const aeval::testing::ScopedEnv uea("AEVAL_UEA_DIR", aeval::testing::shared_uea_dir().c_str());
  const auto listed = run_aeval("list benchmarks", false);
  ASSERT_EQ(listed.status, 0) << listed.output;
  EXPECT_FALSE(contains(listed.output, "default task")) << listed.output;
  // task → its metrics cell (the fourth column); the "as UltraEval-Audio" column stays beside it.
  const std::map<std::string, std::string> expected = {
      {"librispeech-test-clean", "WER"},
      {"aishell-1", "CER"},
      {"covost2-en-de", "BLEU"},
      {"audio-mnist", "accuracy"},
      {"mmau-test-mini", "accuracy"},
      {"seed-tts-eval-en", "WER, speaker similarity, utmos, dnsmos"},
      {"audiocaps", "BLEU-1 to 4, METEOR, ROUGE-L, CIDEr, SPICE, SPIDEr, caption-cider-d"},
      {"asterisk-asr-es", "wer"}};
  for (const auto& [task, metrics] : expected) {
    const auto cells = benchmark_row(listed.output, task);
    ASSERT_EQ(cells.size(), 8u) << task << " in\n" << listed.output;
    EXPECT_EQ(cells[3], metrics) << task;
  }
  EXPECT_EQ(benchmark_row(listed.output, "librispeech-test-clean")[4], "exactly");

  const auto described = run_aeval("describe librispeech-test-clean", false);
  ASSERT_EQ(described.status, 0) << described.output;
  EXPECT_TRUE(contains(described.output, "\n  metrics: WER\n")) << described.output;
  EXPECT_TRUE(contains(run_aeval("describe asr-quickstart", false).output, "\n  metrics: wer, cer\n"));
}

// Each endpoint by its model and server (two entries may ask one model differently: their names tell them apart).
TEST(ListE2E, ModelsOfOneClassAreToldApart) {
  const auto listed = run_aeval("list models", false);
  ASSERT_EQ(listed.status, 0) << listed.output;
  std::set<std::string> endpoints;
  std::istringstream lines(listed.output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string name, class_id, description;
    words >> name >> class_id;
    std::getline(words >> std::ws, description);
    if (class_id == "openai_chat") endpoints.insert(description);
  }
  EXPECT_GE(endpoints.size(), 14u) << listed.output;
  EXPECT_TRUE(contains(listed.output, "Qwen/Qwen2.5-Omni-7B at http://localhost:8000/v1")) << listed.output;
  EXPECT_TRUE(contains(listed.output, "Qwen/Qwen2.5-Omni-7B at http://127.0.0.1:8000/v1")) << listed.output;
  EXPECT_TRUE(contains(listed.output, "runs python3 ../../scoring-models/whisper_asr.py --language english"))
      << listed.output;
  EXPECT_TRUE(contains(listed.output, "codec opus, bitrate_kbps 6")) << listed.output;
}

}  // namespace
