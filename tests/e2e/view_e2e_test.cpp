// aeval view end to end: two real runs on the Asterisk prompts (PocketSphinx,
// and scripted answers sent with a prompt), served by `aeval view` and loaded
// by headless Chromium: the runs, a sample's players decoding their audio, the
// alignment marking the words WER counted, compare ordered by the difference,
// the leaderboard chart; and the API's ranges and refusals over HTTP.
#include <gtest/gtest.h>
#include <httplib.h>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/asterisk.hpp"
#include "support/browser.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::dump_dom;
using aeval::testing::read_only_run;
using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

constexpr int kSamples = 6;

// A run's records in dataset order (samples.jsonl's lines).
std::vector<json> records(const aeval::testing::RunResults& run) {
  std::vector<json> out;
  std::istringstream lines(run.samples_text);
  for (std::string line; std::getline(lines, line);) out.push_back(json::parse(line));
  return out;
}

std::string words_after_first(const std::string& text) {
  const auto space = text.find(' ');
  return space == std::string::npos ? "" : text.substr(space + 1) + " ";
}

TEST(ViewE2E, RunsSamplesAudioAlignmentAndCompareInAHeadlessBrowser) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  AEVAL_REQUIRE(!aeval::testing::chromium().empty(), "chromium");
  TempDir dir;
  const fs::path results = dir / "results";
  ASSERT_EQ(run_aeval(fmt::format("run --task asr-quickstart --limit {} -q --output {}", kSamples,
                                  (results / "a").string()))
                .status,
            0);
  const auto a = read_only_run(results / "a");
  const auto a_records = records(a);

  // Run b answers with scripted text, sent with the `transcribe` prompt: odd samples get their first
  // word replaced by "zebra" and "quietly" appended (a substitution and an insertion), even ones the
  // reference itself.
  {
    std::ofstream answers(dir / "answers.jsonl");
    for (std::size_t i = 0; i < a_records.size(); ++i) {
      const std::string reference = a_records[i]["references_processed"][0];
      answers << json{{"id", a_records[i]["id"]},
                      {"prediction", i % 2 ? "zebra " + words_after_first(reference) + "quietly" : reference}}
                     .dump()
              << "\n";
    }
    fs::create_directories(dir / "registry" / "models");
    std::ofstream(dir / "registry" / "models" / "scripted.yaml")
        << "scripted:\n  class: predictions_file\n  args:\n    path: " << (dir / "answers.jsonl").string() << "\n";
  }
  ASSERT_EQ(run_aeval(fmt::format("--registry {} run --task asr-quickstart --model scripted --prompt transcribe "
                                  "--limit {} -q --output {}",
                                  (dir / "registry").string(), kSamples, (results / "b").string()))
                .status,
            0);
  const auto b = read_only_run(results / "b");
  const auto b_records = records(b);
  ASSERT_TRUE(b_records[1].contains("prompt")) << "a prompted run keeps what it sent";
  const std::string id_a = fs::relative(a.dir, results).generic_string(), id_b = fs::relative(b.dir, results).generic_string();

  const aeval::testing::ViewServer view(results);
  const fs::path profile = dir / "profile";

  // The API over HTTP: audio in ranges, as WAV; ids that leave the folder refused.
  httplib::Client http("127.0.0.1", view.port());
  const auto range = http.Get(fmt::format("/api/runs/{}/samples/1/audio/input", id_a), {{"Range", "bytes=0-11"}});
  ASSERT_TRUE(range);
  EXPECT_EQ(range->status, 206);
  EXPECT_EQ(range->get_header_value("Content-Type"), "audio/wav");
  EXPECT_EQ(range->body.substr(0, 4), "RIFF");
  EXPECT_EQ(range->body.size(), 12u);
  for (const std::string path : {"/api/runs/..%2F..%2Fetc/samples", "/api/runs/%2Fetc/samples",
                                 "/api/runs/a/../../x/samples", "/api/runs/a/samples/0/audio/..%2F..%2Fpasswd"}) {
    const auto refused = http.Get(path);
    ASSERT_TRUE(refused) << path;
    EXPECT_EQ(refused->status, 404) << path << " " << refused->body;
  }

  // Runs: both, with their models and sample counts.
  const std::string runs = dump_dom(view.url() + "#/runs", profile);
  EXPECT_NE(runs.find("pocketsphinx-en"), std::string::npos) << runs.substr(0, 2000);
  EXPECT_NE(runs.find("<td>scripted</td>"), std::string::npos);
  EXPECT_NE(runs.find(fmt::format("data-id=\"{}\"", id_a)), std::string::npos);

  // A sample of run b with several words: its player decodes the audio, the prompt it sent is shown,
  // and the alignment marks exactly the substituted and inserted words.
  std::size_t k = 1;
  while (k < b_records.size() && b_records[k]["references_processed"][0].get<std::string>().find(' ') == std::string::npos)
    k += 2;
  ASSERT_LT(k, b_records.size()) << "an odd sample with two words or more";
  const std::string reference = b_records[k]["references_processed"][0];
  const std::string first = reference.substr(0, reference.find(' '));
  const std::string sample = dump_dom(fmt::format("{}#/run/{}/sample/{}", view.url(), id_b, k), profile);
  EXPECT_NE(sample.find("data-ready=\"sample\""), std::string::npos) << sample.substr(0, 3000);
  EXPECT_NE(sample.find("data-role=\"input\""), std::string::npos);
  EXPECT_NE(sample.find("data-decoded=\"yes\""), std::string::npos) << "the player's audio decodes in the browser";
  EXPECT_EQ(sample.find("data-decoded=\"no\""), std::string::npos);
  EXPECT_NE(sample.find("Write down exactly what is said in this recording."), std::string::npos)
      << "the prompt sent";
  EXPECT_NE(sample.find(fmt::format("<span class=\"substitute\" title=\"substitution\"><s>{}</s> → zebra</span>", first)),
            std::string::npos)
      << sample.substr(sample.find("data-score=\"wer\""), 800);
  EXPECT_NE(sample.find("<span class=\"insert\" title=\"insertion\">quietly</span>"), std::string::npos);
  EXPECT_NE(sample.find("1 substitutions, 0 deletions, 1 insertions"), std::string::npos);

  // A sample of run a (PocketSphinx): the alignment shows the counts its WER stored.
  for (std::size_t i = 0; i < a_records.size(); ++i) {
    const json& wer = a_records[i]["scores"]["wer"];
    const std::string page = dump_dom(fmt::format("{}#/run/{}/sample/{}", view.url(), id_a, i), profile);
    EXPECT_NE(page.find(fmt::format("wer, words: {} hits, {} substitutions, {} deletions, {} insertions",
                                    wer["hits"].get<int>(), wer["substitutions"].get<int>(),
                                    wer["deletions"].get<int>(), wer["insertions"].get<int>())),
              std::string::npos)
        << "sample " << i;
    EXPECT_NE(page.find("data-decoded=\"yes\""), std::string::npos) << "sample " << i;
  }

  // The samples of run a sorted by WER, worst first, as the store sorts them.
  std::vector<std::pair<double, std::size_t>> by_wer;
  for (std::size_t i = 0; i < a_records.size(); ++i)
    by_wer.emplace_back(-a_records[i]["scores"]["wer"]["value"].get<double>(), i);
  std::stable_sort(by_wer.begin(), by_wer.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  const std::string sorted = dump_dom(fmt::format("{}#/run/{}?sort=wer&order=desc", view.url(), id_a), profile);
  std::vector<std::size_t> shown;
  for (std::size_t at = sorted.find("<table id=\"samples\">");
       at != std::string::npos && (at = sorted.find("data-position=\"", at)) != std::string::npos;) {
    at += 15;
    shown.push_back(std::stoul(sorted.substr(at)));
  }
  std::vector<std::size_t> expected;
  for (const auto& [w, i] : by_wer) expected.push_back(i);
  EXPECT_EQ(shown, expected);
  EXPECT_NE(sorted.find(fmt::format("1–{} of {}", kSamples, kSamples)), std::string::npos);

  // Compare: every sample in both runs, ordered by WER(b) − WER(a), largest first.
  std::vector<std::pair<double, std::string>> differences;
  for (std::size_t i = 0; i < a_records.size(); ++i)
    differences.emplace_back(
        -(b_records[i]["scores"]["wer"]["value"].get<double>() - a_records[i]["scores"]["wer"]["value"].get<double>()),
        a_records[i]["id"]);
  std::stable_sort(differences.begin(), differences.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  const std::string compare =
      dump_dom(fmt::format("{}#/compare?a={}&b={}&metric=wer", view.url(), id_a, id_b), profile);
  std::size_t at = compare.find("<table id=\"compare\">");
  ASSERT_NE(at, std::string::npos) << compare.substr(0, 3000);
  for (const auto& [d, id] : differences) {
    const std::size_t next = compare.find(fmt::format("<tr><td>{}</td>", id), at);
    EXPECT_NE(next, std::string::npos) << id << " out of order";
    if (next != std::string::npos) at = next;
  }

  // Leaderboards: the task's board charted, a bar per model.
  const std::string boards = dump_dom(view.url() + "#/boards", profile);
  EXPECT_NE(boards.find("<svg class=\"chart\""), std::string::npos) << boards.substr(0, 2000);
  std::size_t bars = 0;
  for (std::size_t p = 0; (p = boards.find("<rect class=\"bar\"", p)) != std::string::npos; ++p) ++bars;
  EXPECT_EQ(bars, 2u);
}

// Two viewers on one port would both listen (cpp-httplib's SO_REUSEPORT) and answer requests at random: the
// second is refused at once, naming the address and the option that picks another.
TEST(ViewE2E, APortAnotherViewerHoldsIsRefused) {
  TempDir dir;
  fs::create_directories(dir / "results");
  const aeval::testing::ViewServer first(dir / "results");
  const auto second = aeval::testing::run_shell(
      fmt::format("timeout 20 {} view {} --port {} 2>&1", AEVAL_BINARY, (dir / "results").string(), first.port()));
  EXPECT_EQ(second.status, 1) << "124: it listened until the timeout; " << second.output;
  EXPECT_NE(second.output.find(fmt::format("127.0.0.1:{}", first.port())), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("--port"), std::string::npos) << second.output;
}

// One broken run costs only itself: beside a good run, one whose summary.json was cut and one whose run.sqlite is
// not a database are listed as broken with the file and why, the good run's board is still there, a run stopped
// before its summary is "interrupted" (a running one holds its store's lock), and positions that are not a count
// or past the end get JSON 400/404, never 500.
TEST(ViewE2E, ABrokenRunIsListedWithItsReasonAndCostsOnlyItself) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  const fs::path results = dir / "results";
  ASSERT_EQ(run_aeval(fmt::format("run --task asr-quickstart --limit 2 -q --output {}", (results / "good").string())).status, 0);
  ASSERT_EQ(run_aeval(fmt::format("run --task asr-quickstart --limit 2 -q --output {}", (results / "cut").string())).status, 0);
  ASSERT_EQ(run_aeval(fmt::format("run --task asr-quickstart --limit 2 -q --output {}", (results / "bad-store").string())).status, 0);
  ASSERT_EQ(run_aeval(fmt::format("run --task asr-quickstart --limit 2 -q --output {}", (results / "stopped").string())).status, 0);
  const auto run_of = [&](const std::string& top) { return read_only_run(results / top).dir; };
  const fs::path cut = run_of("cut"), bad_store = run_of("bad-store"), stopped = run_of("stopped");
  const std::string summary = aeval::testing::read_bytes(cut / "summary.json");
  aeval::testing::write_bytes(cut / "summary.json", summary.substr(0, 300));
  aeval::testing::write_bytes(bad_store / "run.sqlite", "not a database, 32 bytes or more of it");
  fs::remove(stopped / "summary.json");

  const aeval::testing::ViewServer view(results);
  httplib::Client http("127.0.0.1", view.port());
  const auto listed = http.Get("/api/runs");
  ASSERT_TRUE(listed && listed->status == 200);
  const json runs = json::parse(listed->body)["runs"];
  std::map<std::string, json> by_top;  // by the folder each was written under
  for (const auto& r : runs) by_top[r["id"].get<std::string>().substr(0, r["id"].get<std::string>().find('/'))] = r;
  ASSERT_EQ(by_top.size(), 4u) << listed->body;
  EXPECT_EQ(by_top["good"]["state"], "finished");
  EXPECT_EQ(by_top["cut"]["state"], "broken");
  EXPECT_EQ(by_top["cut"]["error"].get<std::string>().rfind("summary.json: ", 0), 0u) << by_top["cut"];
  EXPECT_EQ(by_top["bad-store"]["state"], "broken");
  EXPECT_EQ(by_top["bad-store"]["error"].get<std::string>().rfind("run.sqlite: ", 0), 0u) << by_top["bad-store"];
  EXPECT_EQ(by_top["stopped"]["state"], "interrupted");
  EXPECT_EQ(by_top["stopped"]["samples"], 2);

  // The board: the broken runs left out (the one whose store alone is damaged too, as the list calls it broken), so
  // the row is the good run's, saying so; no older run of it is usable.
  const auto boards = http.Get("/api/boards");
  ASSERT_TRUE(boards && boards->status == 200);
  const json board_list = json::parse(boards->body);
  ASSERT_EQ(board_list.size(), 1u) << boards->body;
  ASSERT_EQ(board_list[0]["rows"].size(), 1u) << boards->body;
  EXPECT_EQ(board_list[0]["rows"][0]["runs"], json::array({by_top["good"]["id"]})) << boards->body;
  EXPECT_EQ(board_list[0]["rows"][0]["older_runs"], 0) << boards->body;

  const std::string good = by_top["good"]["id"];
  for (const auto& [path, status] : std::vector<std::pair<std::string, int>>{
           {"/samples/1", 200}, {"/samples/2", 404}, {"/samples/99999999999999999999", 404}, {"/samples/-1", 400},
           {"/samples/x", 400}, {"/samples/99999999999999999999/audio/input", 404}}) {
    const auto answer = http.Get("/api/runs/" + good + path);
    ASSERT_TRUE(answer) << path;
    EXPECT_EQ(answer->status, status) << path << ": " << answer->body;
    if (status != 200) {
      EXPECT_TRUE(json::parse(answer->body, nullptr, false).contains("error")) << path << ": " << answer->body;
    }
  }
  const auto unknown = http.Get("/api/nothing");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->status, 404);
  EXPECT_TRUE(json::parse(unknown->body, nullptr, false).contains("error")) << unknown->body;
}

}  // namespace
