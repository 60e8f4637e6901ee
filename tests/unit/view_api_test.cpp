// aeval view's API on run stores the test writes: pages sorted and filtered
// in the store (100,000 samples never read whole), runs compared by a
// score's difference, ids and audio paths that would leave the results
// folder refused, and nothing written.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "run/run_store.hpp"
#include "support/temp_dir.hpp"
#include "util/file_lock.hpp"
#include "view/results_folder.hpp"
#include "view/view_api.hpp"

namespace {

using aeval::pipeline::RunStore;
using aeval::pipeline::StoredSample;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;
namespace fs = std::filesystem;

// A run folder whose samples have ids s0, s1, …, a wer of `wer(i)` (none where it returns < 0: a failed
// sample), and a field "group".
void write_run(const fs::path& dir, std::size_t n, const std::function<double(std::size_t)>& wer) {
  fs::create_directories(dir);
  RunStore store(dir / "run.sqlite");
  std::vector<std::pair<std::size_t, StoredSample>> samples;
  for (std::size_t i = 0; i < n; ++i) {
    const double w = wer(i);
    json record = {{"id", fmt::format("s{}", i)},
                   {"prediction", fmt::format("answer {}", i)},
                   {"fields", {{"group", i % 2 ? "odd" : "even"}}}};
    if (w >= 0)
      record["scores"] = {{"wer", {{"value", w}}}};
    else
      record["error"] = {{"stage", "infer"}, {"message", "model crashed"}};
    samples.emplace_back(i, StoredSample{fmt::format("s{}", i), record, w < 0, ""});
  }
  store.put_samples(samples);
}

std::vector<std::string> ids(const json& page) {
  std::vector<std::string> out;
  for (const auto& s : page["samples"]) out.push_back(s["id"]);
  return out;
}

TEST(ViewApi, PagesAreSortedAndFilteredInTheStore) {
  TempDir dir;
  // wer: 0.5, 0.1, failed, 0.9, 0.1
  const double wers[] = {0.5, 0.1, -1, 0.9, 0.1};
  write_run(dir / "run", 5, [&](std::size_t i) { return wers[i]; });
  RunStore::Query q;
  q.sort_score = "wer";
  EXPECT_EQ(ids(aeval::view::samples_page(dir / "run", q)), (std::vector<std::string>{"s1", "s4", "s0", "s3", "s2"}))
      << "ascending, ties in dataset order, the failed sample (no score) last";
  q.descending = true;
  EXPECT_EQ(ids(aeval::view::samples_page(dir / "run", q)), (std::vector<std::string>{"s3", "s0", "s1", "s4", "s2"}));
  q.limit = 2;
  q.offset = 1;
  const json page = aeval::view::samples_page(dir / "run", q);
  EXPECT_EQ(ids(page), (std::vector<std::string>{"s0", "s1"}));
  EXPECT_EQ(page["total"], 5);

  RunStore::Query failed;
  failed.failed_only = true;
  const json f = aeval::view::samples_page(dir / "run", failed);
  ASSERT_EQ(ids(f), std::vector<std::string>{"s2"});
  EXPECT_EQ(f["samples"][0]["error"], "model crashed");

  RunStore::Query group;
  group.field = "group";
  group.field_value = "odd";
  EXPECT_EQ(ids(aeval::view::samples_page(dir / "run", group)), (std::vector<std::string>{"s1", "s3"}));
  RunStore::Query text;
  text.contains = "answer 4";
  EXPECT_EQ(ids(aeval::view::samples_page(dir / "run", text)), std::vector<std::string>{"s4"});
  text.contains = "'; DROP TABLE samples; --";  // bound, never spliced into the query
  EXPECT_EQ(aeval::view::samples_page(dir / "run", text)["total"], 0);
}

TEST(ViewApi, AHundredThousandSampleRunIsPagedNotLoaded) {
  TempDir dir;
  constexpr std::size_t n = 100000;
  write_run(dir / "run", n, [](std::size_t i) { return double((i * 7919) % n) / n; });
  RunStore::Query q;
  q.sort_score = "wer";
  q.descending = true;
  q.limit = 50;
  q.offset = 100;
  const json page = aeval::view::samples_page(dir / "run", q);
  EXPECT_EQ(page["total"], n);
  ASSERT_EQ(page["samples"].size(), 50u);
  // (i·7919) mod n is a permutation of 0…n−1 (7919 is prime to 10⁵): rank 100 from the top is n−101.
  EXPECT_DOUBLE_EQ(page["samples"][0]["scores"]["wer"].get<double>(), double(n - 101) / n);
  EXPECT_DOUBLE_EQ(page["samples"][49]["scores"]["wer"].get<double>(), double(n - 150) / n);
  const auto detail = aeval::view::sample_detail(dir / "run", n - 1);
  ASSERT_TRUE(detail);
  EXPECT_EQ((*detail)["id"], fmt::format("s{}", n - 1));
  EXPECT_FALSE(aeval::view::sample_detail(dir / "run", n));
}

TEST(ViewApi, ComparePairsSamplesByIdAndOrdersByTheDifference) {
  TempDir dir;
  write_run(dir / "a", 4, [](std::size_t i) { return 0.1 * double(i); });  // 0, .1, .2, .3
  const double b[] = {0.5, 0.1, -1, 0.0, 0.7};                                 // s2 failed in b; s4 only in b
  write_run(dir / "b", 5, [&](std::size_t i) { return b[i]; });
  const json c = aeval::view::compare_runs(dir / "a", dir / "b", "wer", false, 0, 50);
  EXPECT_EQ(c["total"], 3);
  EXPECT_EQ(c["only_a"], 1);
  EXPECT_EQ(c["only_b"], 1);
  std::vector<std::string> order;
  for (const auto& r : c["rows"]) order.push_back(r["id"]);
  EXPECT_EQ(order, (std::vector<std::string>{"s0", "s1", "s3"}));  // +0.5, 0, −0.3
  EXPECT_DOUBLE_EQ(c["rows"][2]["difference"].get<double>(), 0.0 - 0.3);
  EXPECT_EQ(c["rows"][2]["position_a"], 3);
  const json asc = aeval::view::compare_runs(dir / "a", dir / "b", "wer", true, 1, 1);
  ASSERT_EQ(asc["rows"].size(), 1u);
  EXPECT_EQ(asc["rows"][0]["id"], "s1");
}

TEST(ViewApi, RunIdsResolveOnlyToRunFoldersInsideTheResults) {
  TempDir dir;
  write_run(dir / "results" / "task" / "model" / "20260101T000000Z", 1, [](std::size_t) { return 0.0; });
  write_run(dir / "elsewhere", 1, [](std::size_t) { return 0.0; });
  fs::create_directory_symlink(dir / "elsewhere", dir / "results" / "link");
  const aeval::view::ResultsFolder results(dir / "results");
  EXPECT_TRUE(results.run_dir("task/model/20260101T000000Z"));
  for (const std::string& id : std::vector<std::string>{"../elsewhere", "task/../../elsewhere", (dir / "elsewhere").string(), "link", "task",
                               "", "task/model"})
    EXPECT_FALSE(results.run_dir(id)) << id;
  const json runs = results.runs();
  ASSERT_EQ(runs.size(), 1u) << runs;  // not the link out of the folder
  EXPECT_EQ(runs[0]["id"], "task/model/20260101T000000Z");
  // No summary, and no session holding its store's lock: stopped before its summary, listed from its store.
  EXPECT_EQ(runs[0]["state"], "interrupted");
  EXPECT_EQ(runs[0]["in_progress"], false);
  {  // while a session holds the lock (aeval run takes it for the session), it is running
    const aeval::FileLock session(aeval::pipeline::session_lock_file(dir / "results" / "task" / "model" / "20260101T000000Z"));
    const json now = results.runs();
    EXPECT_EQ(now[0]["state"], "running");
    EXPECT_EQ(now[0]["in_progress"], true);
  }
  EXPECT_EQ(runs[0]["samples"], 1);
  EXPECT_EQ(runs[0]["date"], "20260101T000000Z");
  EXPECT_THROW(aeval::view::ResultsFolder(dir / "missing"), aeval::Error);
}

TEST(ViewApi, OutputAudioOutsideItsRunFolderIsRefusedAndInputAudioIsServedAsWav) {
  TempDir dir;
  fs::create_directories(dir / "run" / "outputs");
  aeval::Audio tone{std::vector<float>(800, 0.25f), 8000, 1};
  aeval::write_wav(dir / "run" / "outputs" / "000000.wav", tone);
  aeval::write_wav(dir / "secret.wav", tone);
  {
    RunStore store(dir / "run" / "run.sqlite");
    store.put_samples({{0, StoredSample{"a", {{"audio", (dir / "secret.wav").string()}, {"output_audio", "outputs/000000.wav"}}, false, ""}},
                       {1, StoredSample{"b", {{"output_audio", "../secret.wav"}}, false, ""}}});
  }
  const auto input = aeval::view::sample_audio_wav(dir / "run", 0, "input");
  ASSERT_TRUE(input);
  const aeval::Audio back = aeval::decode_audio_bytes(*input, "served");
  EXPECT_EQ(back.sample_rate, 8000);
  EXPECT_EQ(back.frames(), 800u);
  EXPECT_TRUE(aeval::view::sample_audio_wav(dir / "run", 0, "output"));
  EXPECT_FALSE(aeval::view::sample_audio_wav(dir / "run", 0, "field.x"));
  EXPECT_THROW(aeval::view::sample_audio_wav(dir / "run", 1, "output"), aeval::Error);
}

TEST(ViewApi, ReadingARunChangesNoFile) {
  TempDir dir;
  write_run(dir / "run", 3, [](std::size_t i) { return double(i); });
  write_bytes(dir / "run" / "summary.json", R"({"task": "t", "model": "m", "dataset": "d", "counts": {"samples": 3, "failed": 0}})");
  const auto listing = [&] {
    std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> out;
    for (const auto& e : fs::recursive_directory_iterator(dir.path()))
      out[e.path().string()] = {e.is_regular_file() ? e.file_size() : 0, e.last_write_time()};
    return out;
  };
  const auto before = listing();
  const aeval::view::ResultsFolder results(dir.path());
  EXPECT_EQ(results.runs().size(), 1u);
  RunStore::Query q;
  q.sort_score = "wer";
  aeval::view::samples_page(dir / "run", q);
  aeval::view::sample_detail(dir / "run", 1);
  aeval::view::compare_runs(dir / "run", dir / "run", "wer", false, 0, 10);
  EXPECT_EQ(listing(), before);
}

}  // namespace
