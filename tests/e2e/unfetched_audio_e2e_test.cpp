// Audio that a dataset's rows name by URL and that cannot be downloaded (404,
// a connection cut every time) fails its own samples, naming the URL and what
// went wrong, while the other rows' downloads finish and their samples are
// scored (docs/datasets.md); a run where every row's audio is missing says so
// in its exit status (3).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>

#include "aeval/audio_io.hpp"
#include "datasets/table_reader.hpp"
#include "support/file_server.hpp"
#include "support/hub_test_server.hpp"
#include "support/openai_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::HubTestRepo;
using aeval::testing::HubTestServer;
using aeval::testing::ScopedEnv;
using aeval::testing::TempDir;
using aeval::testing::test_commit;

// Half a second of a tone: something a model can be sent.
std::string tone_wav() {
  aeval::Audio tone{{}, 16000, 1};
  for (int i = 0; i < 8000; ++i) tone.samples.push_back(0.25f * float(std::sin(i * 0.1)));
  return aeval::encode_wav(tone);
}

// A Hub dataset (huggingface class, entry REPO's name) whose rows (id, text "hello world") name their audio
// by the URLs given, and a transcription server that hears "hello world" in every clip.
struct UrlRows {
  TempDir dir;
  ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  ScopedEnv offline{"HF_HUB_OFFLINE", nullptr};
  aeval::testing::OpenAiTestServer asr{[](const aeval::testing::ReceivedRequest&, int) {
    aeval::testing::ScriptedReply reply;
    reply.text = "hello world";
    return reply;
  }};
  std::map<std::string, HubTestRepo> repos;

  explicit UrlRows(const std::map<std::string, std::map<std::string, std::string>>& datasets) {  // repo → id → URL
    std::string entries;
    for (const auto& [repo, urls] : datasets) {
      std::string rows;
      for (const auto& [id, url] : urls)
        rows += fmt::format("{}('{}', 'hello world', {})", rows.empty() ? "" : ", ", id,
                            aeval::datasets::TableReader::literal(url));
      const auto parquet = dir / (repo.substr(repo.find('/') + 1) + ".parquet");
      aeval::testing::write_parquet(fmt::format("SELECT * FROM (VALUES {}) t(id, text, audio) ORDER BY id", rows), parquet);
      repos[repo].main = {test_commit(repo), {{"data/test.parquet", parquet}}};
      entries += fmt::format("{}:\n  class: huggingface\n  args:\n    repo: {}\n", repo.substr(repo.find('/') + 1), repo);
    }
    std::filesystem::create_directories(dir / "registry" / "datasets");
    std::filesystem::create_directories(dir / "registry" / "models");
    aeval::testing::write_bytes(dir / "registry" / "datasets" / "d.yaml", entries);
    aeval::testing::write_bytes(dir / "registry" / "models" / "m.yaml",
                                fmt::format("test-asr:\n  class: openai_transcription\n  args:\n    base_url: {}\n"
                                            "    model: whisper-1\n    max_retries: 0\n",
                                            asr.base_url()));
  }

  aeval::testing::Outcome run(const std::string& dataset) {
    const HubTestServer hub(repos);
    const ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
    return aeval::testing::run_aeval(fmt::format("--registry {} run --task asr-jsonl --dataset {} --model test-asr "
                                                 "--output {}",
                                                 (dir / "registry").string(), dataset, (dir / dataset).string()));
  }
};

TEST(UnfetchedAudioE2E, A404FailsItsSampleAloneAndTheOthersAreScored) {
  const aeval::testing::FileServer files({{"/a.wav", tone_wav()}, {"/b.wav", tone_wav()}});
  const std::string gone = files.url("/gone.wav");
  UrlRows rows({{"acme/three", {{"a", files.url("/a.wav")}, {"b", files.url("/b.wav")}, {"c", gone}}},
                {"acme/none", {{"x", gone}, {"y", files.url("/also-gone.wav")}}}});

  const auto o = rows.run("three");
  ASSERT_EQ(o.status, 0) << "one failure in three is under --max-fail-rate: " << o.output;
  EXPECT_NE(o.output.find("note: 1 audio URL(s) the rows name could not be downloaded"), std::string::npos) << o.output;
  const auto run = aeval::testing::read_only_run(rows.dir / "three");
  ASSERT_EQ(run.by_id.size(), 3u);
  for (const std::string id : {"a", "b"}) {
    EXPECT_TRUE(run.by_id.at(id)["error"].is_null()) << run.by_id.at(id);
    EXPECT_EQ(run.by_id.at(id)["prediction"], "hello world");
  }
  const std::string failed = run.by_id.at("c")["error"]["message"];
  EXPECT_NE(failed.find(gone + " "), std::string::npos) << failed;
  EXPECT_NE(failed.find("HTTP 404"), std::string::npos) << failed;
  EXPECT_NE(failed.find("Check the URL"), std::string::npos) << failed;
  EXPECT_EQ(failed.find("HF_"), std::string::npos) << "a plain URL is not the Hub's: " << failed;
  EXPECT_EQ(run.summary["counts"]["failed"], 1);
  EXPECT_EQ(run.summary["metrics"]["wer"]["value"], 0.0);
  EXPECT_EQ(rows.asr.requests(), 2);

  const auto none = rows.run("none");
  EXPECT_EQ(none.status, 3) << "every sample failed: " << none.output;
  EXPECT_EQ(aeval::testing::read_only_run(rows.dir / "none").summary["counts"]["failed"], 2);
}

TEST(UnfetchedAudioE2E, AConnectionCutOnEveryAttemptFailsItsSampleAlone) {
  const aeval::testing::FileServer files({{"/a.wav", tone_wav()}, {"/b.wav", tone_wav()}, {"/cut.wav", tone_wav()}},
                                         {"/cut.wav"});
  UrlRows rows({{"acme/three", {{"a", files.url("/a.wav")}, {"b", files.url("/b.wav")}, {"c", files.url("/cut.wav")}}}});

  const auto o = rows.run("three");
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(rows.dir / "three");
  ASSERT_EQ(run.by_id.size(), 3u);
  EXPECT_TRUE(run.by_id.at("a")["error"].is_null()) << run.by_id.at("a");
  EXPECT_TRUE(run.by_id.at("b")["error"].is_null()) << run.by_id.at("b");
  const std::string failed = run.by_id.at("c")["error"]["message"];
  EXPECT_NE(failed.find("cannot download " + files.url("/cut.wav")), std::string::npos) << failed;
  EXPECT_NE(failed.find("after 5 attempt(s)"), std::string::npos) << failed;
  EXPECT_EQ(run.summary["counts"]["failed"], 1);
}

}  // namespace
