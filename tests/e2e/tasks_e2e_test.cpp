// The built-in registry tasks on small data each test writes: a user's
// registry folder supplies the dataset and the model's answers, the task
// supplies prompt, post-processing, evaluators and aggregators.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <regex>
#include <nlohmann/json.hpp>

#include "aeval/metrics/catalog.hpp"
#include "support/asterisk.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::read_bytes;
using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;

// A registry folder with one jsonl dataset and one predictions_file model.
void write_registry(const TempDir& dir, const std::string& manifest, const std::string& answers) {
  std::filesystem::create_directories(dir / "registry" / "datasets");
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "datasets" / "d.yaml",
              fmt::format("my-data:\n  class: jsonl\n  args:\n    path: {}\n", (dir / manifest).string()));
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("my-answers:\n  class: predictions_file\n  args:\n    path: {}\n", (dir / answers).string()));
}

json run_task(const TempDir& dir, const std::string& task, std::string* samples = nullptr) {
  const auto o = run_aeval(fmt::format("--registry {} run --task {} --dataset my-data --model my-answers -q --output {}",
                                       (dir / "registry").string(), task, (dir / "out").string()),
                           false);
  EXPECT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir / "out");
  if (samples) *samples = run.samples_text;
  return run.summary;
}

TEST(TasksE2E, SpokenMultipleChoiceAccuracyPerCategory) {
  TempDir dir;
  write_bytes(dir / "q.jsonl",
              R"({"id": "1", "audio": "a.wav", "question": "Who?", "options": ["a cat", "a dog"], "answer": "B", "category": "x"})"
              "\n"
              R"({"id": "2", "audio": "b.wav", "question": "What?", "options": ["rain", "wind", "fire"], "answer": "C", "category": "x"})"
              "\n"
              R"({"id": "3", "audio": "c.wav", "question": "Where?", "options": ["inside", "outside"], "answer": "A", "category": "y"})"
              "\n"
              R"({"id": "4", "audio": "d.wav", "question": "When?", "options": ["day", "night"], "answer": "B", "category": "y"})"
              "\n");
  // 1: letter announced; 2: option text only; 3: wrong letter; 4: parenthesised letter.
  write_bytes(dir / "p.jsonl", R"({"id": "1", "prediction": "The answer is (B)."})" "\n"
                               R"({"id": "2", "prediction": "It sounds like fire to me."})" "\n"
                               R"({"id": "3", "prediction": "B"})" "\n"
                               R"({"id": "4", "prediction": "(B) night"})" "\n");
  write_registry(dir, "q.jsonl", "p.jsonl");
  const json s = run_task(dir, "spoken-mcq");
  EXPECT_DOUBLE_EQ(s["metrics"]["accuracy"]["value"].get<double>(), 0.75);
  const json& groups = s["aggregations"]["by-category"]["accuracy"]["groups"]["category"];
  EXPECT_DOUBLE_EQ(groups["x"]["value"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(groups["y"]["value"].get<double>(), 0.5);
  EXPECT_TRUE(s["aggregations"]["by-category"]["accuracy"].contains("interval"));
  EXPECT_EQ(s["provenance"]["prompt"]["name"], "mcq");
}

TEST(TasksE2E, APromptFieldMissingFailsThatSampleNamingPromptAndField) {
  TempDir dir;
  write_bytes(dir / "q.jsonl",
              R"({"id": "1", "audio": "a.wav", "question": "Who?", "options": ["a cat", "a dog"], "answer": "B"})" "\n"
              R"({"id": "2", "audio": "b.wav", "question": "What?", "answer": "A"})" "\n");
  write_bytes(dir / "p.jsonl", R"({"id": "1", "prediction": "B"})" "\n" R"({"id": "2", "prediction": "A"})" "\n");
  write_registry(dir, "q.jsonl", "p.jsonl");
  std::string samples;
  const json s = run_task(dir, "spoken-mcq", &samples);
  EXPECT_EQ(s["counts"]["failed"], 1);
  const json second = json::parse(samples.substr(samples.find('\n') + 1));
  const std::string message = second["error"]["message"];
  EXPECT_EQ(second["error"]["stage"], "prompt");
  EXPECT_NE(message.find("prompt 'mcq' ("), std::string::npos) << message;
  EXPECT_NE(message.find("chat.yaml:"), std::string::npos) << message;
  EXPECT_NE(message.find("'options' is not defined"), std::string::npos) << message;
}

TEST(TasksE2E, CaptioningMetricsAgreeWithAevalScore) {
  TempDir dir;
  write_bytes(dir / "c.jsonl",
              R"({"id": "1", "audio": "a.wav", "captions": ["a dog barks twice", "a dog is barking"], "category": "animal"})" "\n"
              R"({"id": "2", "audio": "b.wav", "captions": ["rain falls on a roof", "heavy rain on a tin roof"], "category": "weather"})" "\n"
              R"({"id": "3", "audio": "c.wav", "captions": ["a car engine starts", "an engine revs up"], "category": "vehicle"})" "\n");
  write_bytes(dir / "p.jsonl", R"({"id": "1", "prediction": "a dog barks twice"})" "\n"
                               R"({"id": "2", "prediction": "  rain on a roof "})" "\n"
                               R"({"id": "3", "prediction": "a person speaks"})" "\n");
  write_registry(dir, "c.jsonl", "p.jsonl");
  const json s = run_task(dir, "captioning");
  const json& animal = s["aggregations"]["by-category"]["rouge-l"]["groups"]["category"]["animal"];
  EXPECT_DOUBLE_EQ(animal["value"].get<double>(), 1.0);  // identical to a reference

  // The task's corpus BLEU and METEOR are what `aeval score` gives on the same (stripped) texts.
  write_bytes(dir / "hyp.txt", "a dog barks twice\nrain on a roof\na person speaks\n");
  write_bytes(dir / "refs.jsonl", R"({"captions": ["a dog barks twice", "a dog is barking"]})" "\n"
                                  R"({"captions": ["rain falls on a roof", "heavy rain on a tin roof"]})" "\n"
                                  R"({"captions": ["a car engine starts", "an engine revs up"]})" "\n");
  for (const auto& [metric, field, evaluator] :
       {std::tuple{"bleu", "score", "bleu-4"}, std::tuple{"meteor", "meteor", "meteor"}}) {
    const auto o = run_aeval(fmt::format("score {} --hyp {} --ref {} --ref-field captions", metric,
                                         (dir / "hyp.txt").string(), (dir / "refs.jsonl").string()),
                             false);
    ASSERT_EQ(o.status, 0) << o.output;
    EXPECT_DOUBLE_EQ(json::parse(o.output)[field].get<double>(), s["metrics"][evaluator]["value"].get<double>())
        << metric;
  }
}

// One metric layer: every metric of the text catalog `aeval score` computes is an evaluator class of
// the same name (WER and CER: error_rate's), giving the same corpus number and parameters. The texts'
// sample 3 has one caption, the others two: sacreBLEU takes a varying number of references, so BLEU and
// chrF must too, in both places; WER and CER take the row's one reference. The statistics read numbers.
TEST(TasksE2E, EveryTextMetricOfScoreIsAnEvaluatorWithTheSameValue) {
  TempDir dir;
  write_bytes(dir / "c.jsonl",
              R"({"id": "1", "audio": "a.wav", "text": "a dog barks", "captions": ["a dog barks twice", "a dog is barking"]})" "\n"
              R"({"id": "2", "audio": "b.wav", "text": "rain on the roof", "captions": ["rain falls on a roof", "heavy rain on a tin roof"]})" "\n"
              R"({"id": "3", "audio": "c.wav", "text": "an engine revs up", "captions": ["an engine revs up"]})" "\n");
  write_bytes(dir / "p.jsonl", R"({"id": "1", "prediction": "a dog barks twice"})" "\n"
                               R"({"id": "2", "prediction": "rain on a tin roof"})" "\n"
                               R"({"id": "3", "prediction": "the engine revs"})" "\n");
  write_bytes(dir / "n.jsonl", R"({"id": "1", "audio": "a.wav", "text": "0"})" "\n" R"({"id": "2", "audio": "b.wav", "text": "1"})" "\n"
                               R"({"id": "3", "audio": "c.wav", "text": "0"})" "\n" R"({"id": "4", "audio": "d.wav", "text": "1"})" "\n"
                               R"({"id": "5", "audio": "e.wav", "text": "1"})" "\n");
  write_bytes(dir / "q.jsonl", R"({"id": "1", "prediction": "0.2"})" "\n" R"({"id": "2", "prediction": "0.7"})" "\n"
                               R"({"id": "3", "prediction": "0.4"})" "\n" R"({"id": "4", "prediction": "0.9"})" "\n"
                               R"({"id": "5", "prediction": "0.1"})" "\n");
  write_registry(dir, "c.jsonl", "p.jsonl");
  std::filesystem::create_directories(dir / "registry" / "evaluators");
  std::filesystem::create_directories(dir / "registry" / "tasks");
  std::filesystem::create_directories(dir / "registry" / "datasets");
  write_bytes(dir / "registry" / "datasets" / "n.yaml",
              fmt::format("my-numbers:\n  class: jsonl\n  args:\n    path: {}\n", (dir / "n.jsonl").string()));
  write_bytes(dir / "registry" / "models" / "n.yaml",
              fmt::format("my-numbers-answers:\n  class: predictions_file\n  args:\n    path: {}\n", (dir / "q.jsonl").string()));

  // Score flags and the same as evaluator arguments, for metrics whose parameters are worth checking too.
  const std::map<std::string, std::pair<std::string, std::string>> parameters = {
      {"bleu", {"--tokenize intl --lowercase", ", tokenize: intl, lowercase: true"}},
      {"chrf", {"--word-order 2", ", word_order: 2"}},
      {"rouge-l", {"--stem", ", stem: true"}}};
  struct Case {
    std::string metric, key, flags, input;
    bool numbers;
  };
  std::vector<Case> cases;
  std::string evaluators, texts, numbers;
  for (const auto& m : aeval::metrics::text_metrics()) {
    const bool is_numbers = m.input == aeval::metrics::MetricInput::numbers;
    const bool error_rate = m.name == "wer" || m.name == "cer";
    const auto extra = parameters.count(m.name) ? parameters.at(m.name) : std::pair<std::string, std::string>{};
    if (error_rate) evaluators += fmt::format("my-{}:\n  class: error_rate\n  args: {{unit: {}}}\n", m.name, m.name == "wer" ? "words" : "chars");
    else if (is_numbers) evaluators += fmt::format("my-{}:\n  class: {}\n", m.name, m.name);
    else evaluators += fmt::format("my-{}:\n  class: {}\n  args: {{references_field: captions{}}}\n", m.name, m.name, extra.second);
    std::string& list = is_numbers ? numbers : texts;
    list += fmt::format("{}my-{}", list.empty() ? "" : ", ", m.name);
    cases.push_back({m.name, m.key, extra.first + (is_numbers || error_rate ? " --ref-field text" : " --ref-field captions"),
                     is_numbers ? "n.jsonl" : "c.jsonl", is_numbers});
  }
  EXPECT_GE(cases.size(), 20u);
  write_bytes(dir / "registry" / "evaluators" / "e.yaml", evaluators);
  write_bytes(dir / "registry" / "tasks" / "t.yaml",
              fmt::format("every-metric:\n  class: task\n  args:\n    dataset: my-data\n    prompt: caption\n"
                          "    model: my-answers\n    evaluators: [{}]\n"
                          "every-statistic:\n  class: task\n  args:\n    dataset: my-numbers\n    prompt: caption\n"
                          "    model: my-numbers-answers\n    evaluators: [{}]\n",
                          texts, numbers));
  const json s = run_task(dir, "every-metric");
  const auto o = run_aeval(fmt::format("--registry {} run --task every-statistic -q --output {}",
                                       (dir / "registry").string(), (dir / "out-numbers").string()),
                           false);
  ASSERT_EQ(o.status, 0) << o.output;
  const json statistics = aeval::testing::read_only_run(dir / "out-numbers").summary;

  write_bytes(dir / "hyp.txt", "a dog barks twice\nrain on a tin roof\nthe engine revs\n");
  write_bytes(dir / "scores.txt", "0.2\n0.7\n0.4\n0.9\n0.1\n");
  for (const auto& c : cases) {
    const auto scored_run = run_aeval(fmt::format("score {} {} --hyp {} --ref {}", c.metric, c.flags,
                                                  (dir / (c.numbers ? "scores.txt" : "hyp.txt")).string(),
                                                  (dir / c.input).string()),
                                      false);
    ASSERT_EQ(scored_run.status, 0) << c.metric << ": " << scored_run.output;
    const json scored = json::parse(scored_run.output);
    const json& evaluated = (c.numbers ? statistics : s)["metrics"][fmt::format("my-{}", c.metric)];
    ASSERT_TRUE(evaluated.contains("value")) << c.metric << ": " << evaluated;
    EXPECT_DOUBLE_EQ(scored[c.key].get<double>(), evaluated["value"].get<double>()) << c.metric;
    if (scored.contains("signature")) {
      EXPECT_EQ(scored["signature"], evaluated["signature"]) << c.metric;
    }
  }
  EXPECT_NE(s["metrics"]["my-bleu"]["signature"].get<std::string>().find("nrefs:var"), std::string::npos);
}

TEST(TasksE2E, AsrOverAUserManifestWithGroupsAndIntervals) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  const std::filesystem::path& sounds = aeval::testing::kAsteriskSounds;
  TempDir dir;
  std::ofstream m(dir / "m.jsonl");
  const std::tuple<const char*, const char*, const char*> rows[] = {
      {"vm-goodbye", "Goodbye", "word"}, {"auth-thankyou", "Thank you.", "phrase"}, {"conf-locked", "This conference is locked!", "sentence"}};
  for (const auto& [id, text, kind] : rows)
    m << json{{"id", id}, {"audio", (sounds / (std::string(id) + ".g722")).string()}, {"text", text}, {"kind", kind}}.dump()
      << "\n";
  m.close();
  const auto o = run_aeval(fmt::format("run --task asr-jsonl --dataset {} -q --no-cache --output {}",
                                       (dir / "m.jsonl").string(), (dir / "out").string()),
                           false);
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir / "out");
  const json& s = run.summary;
  const std::string& samples = run.samples_text;
  ASSERT_FALSE(s.is_null());
  // Corpus WER from the per-sample counts, recomputed here.
  long edits = 0, words = 0;
  std::size_t start = 0;
  for (std::size_t end; (end = samples.find('\n', start)) != std::string::npos; start = end + 1) {
    const json w = json::parse(samples.substr(start, end - start))["scores"]["wer"];
    edits += w["substitutions"].get<long>() + w["deletions"].get<long>() + w["insertions"].get<long>();
    words += w["reference_tokens"].get<long>();
  }
  EXPECT_DOUBLE_EQ(s["metrics"]["wer"]["value"].get<double>(), double(edits) / double(words));
  EXPECT_EQ(s["aggregations"]["by-kind"]["wer"]["groups"]["kind"].size(), 3u);
  const json& interval = s["aggregations"]["bootstrap-95"]["wer"]["interval"];
  EXPECT_LE(interval["low"].get<double>(), s["metrics"]["wer"]["value"].get<double>());
  EXPECT_GE(interval["high"].get<double>(), s["metrics"]["wer"]["value"].get<double>());
}

}  // namespace

namespace {

TEST(ReportE2E, LeaderboardRanksModelsInMarkdownAndHtml) {
  TempDir dir;
  write_bytes(dir / "q.jsonl", R"({"id": "1", "question": "?", "options": ["x", "y"], "answer": "A"})" "\n"
                               R"({"id": "2", "question": "?", "options": ["x", "y"], "answer": "B"})" "\n");
  write_bytes(dir / "good.jsonl", R"({"id": "1", "prediction": "A"})" "\n" R"({"id": "2", "prediction": "B"})" "\n");
  write_bytes(dir / "poor.jsonl", R"({"id": "1", "prediction": "B"})" "\n" R"({"id": "2", "prediction": "B"})" "\n");
  std::filesystem::create_directories(dir / "registry" / "datasets");
  std::filesystem::create_directories(dir / "registry" / "models");
  write_bytes(dir / "registry" / "datasets" / "d.yaml",
              fmt::format("my-data:\n  class: jsonl\n  args:\n    path: {}\n", (dir / "q.jsonl").string()));
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("good <b>model</b>:\n  class: predictions_file\n  args:\n    path: {}\n"
                          "poor-model:\n  class: predictions_file\n  args:\n    path: {}\n",
                          (dir / "good.jsonl").string(), (dir / "poor.jsonl").string()));
  for (const char* model : {"poor-model", "'good <b>model</b>'"})
    ASSERT_EQ(run_aeval(fmt::format("--registry {} run --task spoken-mcq --dataset my-data --model {} -q --output {}",
                                    (dir / "registry").string(), model, (dir / "out").string()),
                        false)
                  .status,
              0);
  const auto md = run_aeval(fmt::format("report {}", (dir / "out").string()), false);
  ASSERT_EQ(md.status, 0) << md.output;
  const auto good = md.output.find("| good <b>model</b> | 1 | 100.00 |"), poor = md.output.find("| poor-model | 0.5 | 50.00 |");
  ASSERT_NE(good, std::string::npos) << md.output;
  ASSERT_NE(poor, std::string::npos) << md.output;
  EXPECT_LT(good, poor) << "rows are ranked by the normalized average";
  EXPECT_EQ(md.output.find("Scored by"), std::string::npos) << "no column here was scored by a model";

  // Runs whose column was scored by different models (judges, ASR, ...) say so under the table.
  std::vector<std::filesystem::path> summaries;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir / "out"))
    if (e.path().filename() == "summary.json") summaries.push_back(e.path());
  ASSERT_EQ(summaries.size(), 2u);
  for (std::size_t k = 0; k < summaries.size(); ++k) {
    auto summary = nlohmann::json::parse(read_bytes(summaries[k]));
    summary["provenance"]["evaluators"][0]["model"] = {{"name", k == 0 ? "judge-a" : "judge-b"}};
    write_bytes(summaries[k], summary.dump());
  }
  const auto mixed = run_aeval(fmt::format("report {}", (dir / "out").string()), false);
  EXPECT_NE(mixed.output.find("Scored by: "), std::string::npos) << mixed.output;
  EXPECT_NE(mixed.output.find(": mixed: judge-"), std::string::npos) << mixed.output;

  ASSERT_EQ(run_aeval(fmt::format("report {} --format html --out {}", (dir / "out").string(), (dir / "lb.html").string()))
                .status,
            0);
  const std::string html = read_bytes(dir / "lb.html");
  EXPECT_NE(html.find("<table>"), std::string::npos);
  EXPECT_NE(html.find("<svg class=\"chart\""), std::string::npos);
  EXPECT_NE(html.find("good &lt;b&gt;model&lt;/b&gt;"), std::string::npos) << "model names are escaped";
  EXPECT_EQ(html.find("<b>model"), std::string::npos);

  write_bytes(dir / "out" / "summary.json", "{\"task\": 3}");
  const auto bad = run_aeval(fmt::format("report {}", (dir / "out").string()));
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.output.find("summary.json: not an aeval summary"), std::string::npos) << bad.output;
}

// An HTML page on a terminal is a screenful of markup: refused as a usage error naming --out; a pipe still gets it.
TEST(ReportE2E, HtmlToATerminalIsRefusedNamingOut) {
  if (aeval::testing::run_shell("command -v script >/dev/null").status != 0)
    GTEST_SKIP() << "needs util-linux's script for a terminal";
  TempDir dir;
  const auto terminal = aeval::testing::run_shell(
      fmt::format("script -qec '{} report {} --format html' /dev/null", AEVAL_BINARY, dir.path().string()));
  EXPECT_EQ(terminal.status, 2) << terminal.output;
  EXPECT_NE(terminal.output.find("give --out FILE"), std::string::npos) << terminal.output;
  EXPECT_EQ(terminal.output.find("<html"), std::string::npos) << terminal.output;
  const auto piped = run_aeval(fmt::format("report {} --format html", dir.path().string()), false);
  EXPECT_NE(piped.status, 2) << piped.output;
}

}  // namespace

namespace {

// A suite: `aeval run --suite` runs each of its tasks with the model given, and
// `aeval report --suite` puts them side by side with the paper's normalization.
TEST(TasksE2E, ASuiteRunsEachTaskAndReportsThemSideBySide) {
  TempDir dir;
  write_bytes(dir / "d.jsonl", R"({"id": "1", "audio": "a.wav", "text": "the cat sat on the mat"})" "\n"
                               R"({"id": "2", "audio": "b.wav", "text": "rain"})" "\n");
  write_bytes(dir / "p.jsonl", R"({"id": "1", "prediction": "the dog sat on the mat"})" "\n"
                               R"({"id": "2", "prediction": "rain"})" "\n");
  write_registry(dir, "d.jsonl", "p.jsonl");
  std::filesystem::create_directories(dir / "registry" / "tasks");
  std::filesystem::create_directories(dir / "registry" / "evaluators");
  write_bytes(dir / "registry" / "evaluators" / "e.yaml", "my-exact:\n  class: exact-match\n");
  write_bytes(dir / "registry" / "tasks" / "t.yaml",
              "mini-wer:\n  class: task\n  args:\n    dataset: my-data\n    evaluators: [wer]\n    suites: [mini]\n"
              "    aggregators: [bootstrap-95]\n"
              "mini-exact:\n  class: task\n  args:\n    dataset: my-data\n    evaluators: [my-exact]\n    suites: [mini]\n");
  const std::string registry = (dir / "registry").string(), out = (dir / "out").string();
  const auto ran = run_aeval(fmt::format("--registry {} run --suite mini --model my-answers -q --output {}", registry, out));
  ASSERT_EQ(ran.status, 0) << ran.output;
  EXPECT_NE(ran.output.find("suite mini:\n  mini-exact"), std::string::npos) << ran.output;
  // Side by side, the same runs: the same samples, byte for byte.
  const std::string side_by_side = (dir / "side-by-side").string();
  const auto ran2 = run_aeval(
      fmt::format("--registry {} run --suite mini --model my-answers --tasks-at-once 2 -q --output {}", registry, side_by_side));
  ASSERT_EQ(ran2.status, 0) << ran2.output;
  EXPECT_NE(ran2.output.find("== mini-wer: finished"), std::string::npos) << ran2.output;
  for (const char* task : {"mini-wer", "mini-exact"})
    EXPECT_EQ(aeval::testing::read_only_run(dir / "side-by-side" / task).samples_text,
              aeval::testing::read_only_run(dir / "out" / task).samples_text)
        << task;
  const auto typo = run_aeval(fmt::format("--registry {} run --suite mni --model my-answers", registry));
  EXPECT_EQ(typo.status, 1);
  EXPECT_NE(typo.output.find("no suite named 'mni' (did you mean: mini?)"), std::string::npos) << typo.output;

  // WER 1/7 (one substitution in seven words), exact match 1/2.
  const auto report = run_aeval(fmt::format("--registry {} report {} --suite mini", registry, out), false);
  ASSERT_EQ(report.status, 0) << report.output;
  const double wer_score = 100 - 100.0 / 7, exact_score = 50;
  EXPECT_NE(report.output.find("| model | mini-exact | mini-wer | average | tasks |"), std::string::npos) << report.output;
  // The WER task ran with a bootstrap: its cell carries the interval on the 100 − WER scale.
  std::smatch row;
  ASSERT_TRUE(std::regex_search(report.output, row,
                                std::regex(R"(\| my-answers \| ([0-9.]+) \| ([0-9.]+) \[([0-9.]+), ([0-9.]+)\] \| ([0-9.]+) \| 2 of 2 \|)")))
      << report.output;
  EXPECT_EQ(row[1].str(), fmt::format("{:.2f}", exact_score));
  EXPECT_EQ(row[2].str(), fmt::format("{:.2f}", wer_score));
  EXPECT_LE(std::stod(row[3].str()), wer_score);
  EXPECT_GE(std::stod(row[4].str()), wer_score);
  EXPECT_LE(std::stod(row[4].str()), 100.0);
  EXPECT_EQ(row[5].str(), fmt::format("{:.2f}", (exact_score + wer_score) / 2));
  const auto html = run_aeval(fmt::format("--registry {} report {} --suite mini --format html", registry, out), false);
  ASSERT_EQ(html.status, 0) << html.output;
  EXPECT_NE(html.output.find("<table class=\"suite\">"), std::string::npos) << html.output;
  EXPECT_NE(html.output.find(fmt::format("<tr><td>my-answers</td><td>{:.2f}</td><td>{:.2f}<br><span class=\"ci\">[",
                                         exact_score, wer_score)),
            std::string::npos)
      << html.output;
}

}  // namespace
