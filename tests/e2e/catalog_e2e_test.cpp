// Every Hub dataset of aeval's own in the built-in catalog (the tasks on UltraEval-Audio's
// registry are run by uea_every_dataset_e2e_test.cpp) loads through its class from a local Hub
// serving a few rows in that dataset's schema (column names and types as the Hub stores them: the
// `hub_schema` of its benchmark file, registry/benchmarks/NAME.yaml), and its task scores them end to
// end, a scripted model (predictions files) answering. A catalog dataset without a benchmark file and
// its schema fails here, so no benchmark can be added untested. Plumbing, not numbers: each task gets
// one exact answer (score 0 errors, BLEU 100) and one wrong one.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "aeval/audio_io.hpp"
#include "datasets/table_reader.hpp"
#include "registry/args.hpp"
#include "registry/classes.hpp"
#include "registry/registry.hpp"
#include "support/asterisk.hpp"
#include "support/hub_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/reference.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::datasets::TableReader;
using aeval::registry::Kind;

// A column as the Hub's Parquet files store it: the `datasets` feature types in DuckDB's terms.
// `audio` is the Audio feature, a struct of bytes and path.
struct Column {
  std::string name, type;  // audio, string, int64, int32, double, float, bool, strings, int64s, class_label
};

// A reference in the language a task scores, and a wrong answer to it.
struct Texts {
  std::string reference, wrong;
};

// The Hub schema of the benchmark file that defines a dataset entry; empty when the entry is
// defined elsewhere or its file declares none.
std::vector<Column> hub_schema(const aeval::registry::Entry& dataset) {
  if (dataset.file.parent_path().filename() != aeval::registry::kBenchmarksFolder) return {};
  std::vector<Column> columns;
  static const std::set<std::string> known = {"audio", "string", "int64", "int32", "double", "float",
                                              "bool",  "strings", "int64s", "class_label"};
  for (const auto& column : YAML::LoadFile(dataset.file.string())["hub_schema"]) {
    columns.push_back({column.first.as<std::string>(), column.second.as<std::string>()});
    EXPECT_TRUE(known.count(columns.back().type))
        << dataset.file << ": hub_schema: column '" << columns.back().name << "' has a type this test cannot serve";
  }
  return columns;
}

Texts texts_for(const std::string& task, const std::string& language, int row, bool letters) {
  if (letters) return row == 0 ? Texts{"A", ""} : Texts{"B", "C"};  // multiple choice: option letters
  // What the reference is written in: the language, or a translation's target.
  const std::string written = language.substr(language.find('>') == std::string::npos ? 0 : language.find('>') + 1);
  if (written == "zh" || written == "yue") return row == 0 ? Texts{"今天的天气很好", ""} : Texts{"我们明天去北京", "我们后天去上海"};
  if (written == "ja") return row == 0 ? Texts{"今日は良い天気です", ""} : Texts{"明日は東京へ行きます", "明日は大阪へ行きます"};
  (void)task;
  return row == 0 ? Texts{"the quick brown fox jumps over the lazy dog", ""}
                  : Texts{"please leave a message after the tone", "please leave the message after the beep"};
}

std::string sql_value(const Column& c, int row, const std::string& text) {
  if (c.type == "audio") return "{'bytes': content, 'path': regexp_extract(filename, '[^/]+$')}";
  if (c.type == "string") return TableReader::literal(text.empty() ? fmt::format("{}-{}", c.name, row) : text);
  if (c.type == "strings")  // a list of references holds the reference; four of anything else (options)
    return text.empty() ? fmt::format("['{0}-{1}-a', '{0}-{1}-b', '{0}-{1}-c', '{0}-{1}-d']", c.name, row)
                        : fmt::format("['other answer', {}]", TableReader::literal(text));
  if (c.type == "int64s") return fmt::format("[{}::BIGINT]", row);
  if (c.type == "class_label") return fmt::format("{}::BIGINT", row);  // label `row`: its name is in the metadata
  if (c.type == "bool") return "true";
  if (c.type == "int32") return fmt::format("{}::INTEGER", row);
  if (c.type == "float") return fmt::format("{}.5::FLOAT", row);
  if (c.type == "double") return fmt::format("{}.5::DOUBLE", row);
  return fmt::format("{}::BIGINT", row);
}

struct CatalogEntry {
  std::string dataset, repo, config, split, text_column, id_column, revision, language;
  std::vector<Column> columns;  // its hub_schema
  bool letters = false;  // the task picks an option letter
  // The commit the local Hub serves: the pinned one, or one made up for a branch.
  std::string commit() const {
    return revision.size() == 40 ? revision : aeval::testing::test_commit(repo);
  }
};

TEST(CatalogE2E, EveryHubDatasetLoadsFromItsSchemaAndItsTaskScoresIt) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
#ifdef AEVAL_SANITIZED
  GTEST_SKIP() << "one run per catalog task: the Release build runs this; the sanitized one tests the parts";
#endif
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  aeval::testing::ScopedEnv offline("HF_HUB_OFFLINE", nullptr);
  const aeval::registry::Registry registry({aeval::registry::builtin_registry_dir()});

  // A judge benchmark's tasks need a judge's log-probabilities or stated answers: seed_methods_e2e_test.cpp runs them.
  // Its repositories: those of the datasets whose default task is in the seed-methods suite.
  std::set<std::string> judge_benchmarks;
  for (const auto& name : registry.names(Kind::dataset)) {
    const auto& e = registry.get(Kind::dataset, name);
    if (e.class_id != "huggingface") continue;
    const aeval::registry::Args args(e, aeval::registry::class_spec(e, Kind::dataset));
    if (!registry.contains(Kind::task, args.text("default_task"))) continue;
    const auto& judged = registry.get(Kind::task, args.text("default_task"));
    const auto suites = aeval::registry::Args(judged, aeval::registry::class_spec(judged, Kind::task)).strings("suites");
    if (std::find(suites.begin(), suites.end(), "seed-methods") != suites.end()) judge_benchmarks.insert(args.text("repo"));
  }
  // The catalog: every other Hub dataset whose default task the registry defines.
  std::vector<CatalogEntry> catalog;
  for (const auto& name : registry.names(Kind::dataset)) {
    const auto& e = registry.get(Kind::dataset, name);
    if (e.class_id != "huggingface") continue;
    const aeval::registry::Args args(e, aeval::registry::class_spec(e, Kind::dataset));
    if (judge_benchmarks.count(args.text("repo"))) continue;
    const std::vector<Column> columns = hub_schema(e);
    ASSERT_FALSE(columns.empty()) << name << " (" << e.where() << "): a catalog dataset is defined in "
                                  << "registry/benchmarks/" << name << ".yaml, with the hub_schema the Hub has";
    ASSERT_TRUE(registry.contains(Kind::task, args.text("default_task"))) << name << ": its default task is missing";
    const auto& task = registry.get(Kind::task, args.text("default_task"));
    const std::string language =
        aeval::registry::Args(task, aeval::registry::class_spec(task, Kind::task)).text("language");
    // Without an id_column the class takes `id` when the split has one.
    std::string id_column = args.text("id_column");
    if (id_column.empty() && std::any_of(columns.begin(), columns.end(), [](const Column& c) { return c.name == "id"; }))
      id_column = "id";
    // The reference: the text column, or the field the task's first evaluator reads it from.
    const aeval::registry::Args task_args(task, aeval::registry::class_spec(task, Kind::task));
    std::string reference_column = args.text("text_column");
    const auto evaluators = task_args.strings("evaluators");
    ASSERT_FALSE(evaluators.empty()) << name;
    const auto& evaluator = registry.get(Kind::evaluator, evaluators.front());
    const auto& evaluator_spec = aeval::registry::class_spec(evaluator, Kind::evaluator);
    if (evaluator_spec.find("references_field")) {
      const aeval::registry::Args evaluator_args(evaluator, evaluator_spec);
      // A field the entry computes from its columns (MMAU's answer and choices) keeps the reference in text_column.
      const std::string field = evaluator_args.text("references_field");
      if (!field.empty() && std::any_of(columns.begin(), columns.end(), [&](const Column& c) { return c.name == field; }))
        reference_column = field;
    }
    bool letters = false;
    for (const auto& p : task_args.strings("post_process"))
      letters = letters || registry.get(Kind::post_process, p).class_id == "choice";
    catalog.push_back({name, args.text("repo"), args.text("config"), args.text("split"), reference_column,
                       id_column, args.text("revision"), language, columns, letters});
  }
  // Clotho and Seed-TTS-eval hard at least (the other catalog tasks run UEA's definitions: uea_every_dataset_e2e_test.cpp).
  ASSERT_GE(catalog.size(), 2u);

  fs::create_directories(dir / "wav");
  for (const char* prompt : {"vm-goodbye", "conf-adminmenu-18"})
    aeval::write_wav(dir / "wav" / (std::string(prompt) + ".wav"),
                     aeval::decode_audio(aeval::testing::kAsteriskSounds / (std::string(prompt) + ".g722")));

  // One Parquet file per split, laid out as the Hub does: data/SPLIT-00000-of-00001.parquet
  // (CONFIG/ first for a named config).
  std::map<std::string, aeval::testing::HubTestRepo> repos;
  std::map<std::string, std::vector<Texts>> expected;  // dataset -> rows
  // Entries sharing a split (MELD's emotion and sentiment) read one file: each finds its reference there.
  const auto split_key = [](const CatalogEntry& c) { return c.repo + "|" + c.config + "|" + c.split; };
  std::map<std::string, std::set<std::string>> reference_columns;
  for (const auto& c : catalog) reference_columns[split_key(c)].insert(c.text_column);
  for (const auto& c : catalog) {
    std::vector<std::string> rows;
    for (int row = 0; row < 2; ++row) {
      const Texts t = texts_for(c.dataset, c.language, row, c.letters);
      expected[c.dataset].push_back(t);
      std::string select;
      for (const auto& col : c.columns) {
        std::string value = reference_columns[split_key(c)].count(col.name) ? t.reference : "";
        std::string sql = sql_value(col, row, value);
        if (col.name == c.id_column) sql = TableReader::literal(fmt::format("row-{}", row));
        select += (select.empty() ? "" : ", ") + sql + " AS " + TableReader::quoted(col.name);
      }
      rows.push_back(fmt::format("SELECT {}, {} AS row_order FROM read_blob({})", select, row,
                                 TableReader::literal((dir / "wav" / (row == 0 ? "vm-goodbye.wav" : "conf-adminmenu-18.wav")).string())));
    }
    std::string columns;
    for (const auto& col : c.columns) columns += (columns.empty() ? "" : ", ") + TableReader::quoted(col.name);
    const std::string config = c.config == "default" ? "" : c.config;
    const fs::path file = dir / "hub" / c.dataset / "split.parquet";
    fs::create_directories(file.parent_path());
    // A class label is stored as its number; `datasets` names the labels in the file's metadata:
    // label `row` is the row's reference here (or a made-up name).
    nlohmann::json features = nlohmann::json::object();
    for (const auto& col : c.columns)
      if (col.type == "class_label")
        for (int row = 0; row < 2; ++row)
          features[col.name]["names"].push_back(reference_columns[split_key(c)].count(col.name)
                                                     ? expected[c.dataset][std::size_t(row)].reference
                                                     : fmt::format("{}-{}", col.name, row));
    for (auto& [column, feature] : features.items()) feature["_type"] = "ClassLabel";
    std::map<std::string, std::string> metadata;
    if (!features.empty()) metadata["huggingface"] = nlohmann::json{{"info", {{"features", features}}}}.dump();
    aeval::testing::write_parquet(fmt::format("SELECT {} FROM ({} UNION ALL {}) ORDER BY row_order", columns, rows[0], rows[1]),
                                  file, 122880, metadata);
    auto& repo = repos[c.repo];
    repo.main.commit = c.commit();
    repo.main.files[fmt::format("{}data/{}-00000-of-00001.parquet", config.empty() ? "" : config + "/", c.split)] = file;
  }
  aeval::testing::HubTestServer hub(repos);
  aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  aeval::testing::ScopedEnv token("HF_TOKEN", nullptr);

  // Speech generation tasks answer with audio and are scored by scoring models, which stand-ins
  // replace here (a later registry folder overrides the built-in entries): the speaking model says
  // the text the test chose as a tone whose length encodes it, and the ASR stand-in reads the length
  // back; speaker similarity asks the signal-features vector.
  const fs::path spoken = dir / "spoken";
  fs::create_directories(spoken);
  aeval::testing::write_bytes(dir / "speaker.py", R"(import json, math, os, struct, sys, wave
answers = json.load(open(sys.argv[1]))
print(json.dumps({'type': 'ready'}), flush=True)
for line in sys.stdin:
    r = json.loads(line)
    frames = 16000 + 160 * len(os.listdir(sys.argv[2]))
    open(os.path.join(sys.argv[2], str(frames)), 'w').write(answers[r['sample_id']])
    with wave.open(r['output_audio'], 'wb') as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000)
        w.writeframes(b''.join(struct.pack('<h', int(3000 * math.sin(i / 8))) for i in range(frames)))
    print(json.dumps({'type': 'response', 'id': r['id'], 'audio': r['output_audio']}), flush=True)
)");
  aeval::testing::write_bytes(dir / "listener.py", R"(import json, os, sys, wave
print(json.dumps({'type': 'ready'}), flush=True)
for line in sys.stdin:
    r = json.loads(line)
    with wave.open(r['audio'][0]) as w:
        said = open(os.path.join(sys.argv[1], str(w.getnframes()))).read()
    print(json.dumps({'type': 'response', 'id': r['id'], 'text': said}), flush=True)
)");
  std::string stand_ins;
  for (const char* asr :
       {"whisper-large-v3", "whisper-large-v3-en", "paraformer-zh", "whisper-large-v3-en-28s", "paraformer-zh-28s"})
    stand_ins += fmt::format("{}:\n  class: process\n  args:\n    command: [python3, {}, {}]\n", asr,
                             (dir / "listener.py").string(), spoken.string());
  stand_ins += fmt::format("wavlm-ecapa-sim:\n  class: process\n  args:\n    command: [python3, {}, --answer, vector]\n",
                           (fs::path(AEVAL_SOURCE_DIR) / "examples/process-models/signal_features.py").string());

  std::set<std::string> ran;
  for (const auto& c : catalog) {
    SCOPED_TRACE(c.dataset);
    // The scripted models: the first row answered exactly, the second wrongly; in text, or aloud.
    const fs::path answers = dir / "answers" / (c.dataset + ".jsonl"), said = dir / "answers" / (c.dataset + ".json");
    fs::create_directories(answers.parent_path());
    std::ofstream out(answers);
    nlohmann::json to_say = nlohmann::json::object();
    std::vector<std::string> ids;
    for (int row = 0; row < 2; ++row) {
      const std::string id = c.id_column.empty() ? std::to_string(row) : fmt::format("row-{}", row);
      ids.push_back(id);
      const Texts& t = expected[c.dataset][std::size_t(row)];
      out << nlohmann::json{{"id", id}, {"prediction", row == 0 ? t.reference : t.wrong}}.dump() << "\n";
      to_say[id] = row == 0 ? t.reference : t.wrong;
    }
    out.close();
    std::ofstream(said) << to_say.dump();
    fs::create_directories(dir / "models" / "models");
    std::ofstream(dir / "models" / "models" / "scripted.yaml")
        << "scripted:\n  class: predictions_file\n  args:\n    path: " << answers.string() << "\n"
        << "scripted-speech:\n  class: process\n  args:\n    command: [python3, " << (dir / "speaker.py").string() << ", "
        << said.string() << ", " << spoken.string() << "]\n    input_sample_rate: 16000\n"
        << stand_ins;

    // Every task of the catalog on this dataset: its default one and the others (spoken answers).
    for (const auto& task_name : registry.names(Kind::task)) {
      const auto& task = registry.get(Kind::task, task_name);
      const aeval::registry::Args task_args(task, aeval::registry::class_spec(task, Kind::task));
      if (task_args.text("dataset") != c.dataset) continue;
      SCOPED_TRACE(task_name);
      ran.insert(task_name);
      const std::string metric = task_args.strings("evaluators").front();
      const auto& evaluator = registry.get(Kind::evaluator, metric);
      const bool aloud = evaluator.class_id == "asr_error_rate";
      const fs::path results = dir / "results" / task_name;
      const auto run = aeval::testing::run_aeval(fmt::format(
          "--registry {} run --task {} --model {} --no-cache -q --output {}", (dir / "models").string(), task_name,
          !aloud ? "scripted" : "scripted-speech", results.string()));
      const auto r = aeval::testing::read_only_run(results);
      ASSERT_EQ(run.status, 0) << run.output << r.samples_text;
      ASSERT_EQ(r.by_id.size(), 2u);
      EXPECT_EQ(r.summary["counts"]["failed"], 0) << r.samples_text;
      const auto& exact = r.by_id.at(ids[0])["scores"];
      const auto& wrong = r.by_id.at(ids[1])["scores"];
      ASSERT_EQ(exact.size(), task_args.strings("evaluators").size()) << exact;
      // Error rates are best at 0, BLEU at 100, matches at 1; CIDEr-D has no value per sample.
      const bool error_rate = evaluator.class_id == "error_rate" || evaluator.class_id == "asr_error_rate";
      const double best = metric.rfind("bleu", 0) == 0 ? 100.0 : error_rate ? 0.0 : 1.0;
      if (!exact[metric]["value"].is_null()) {
        EXPECT_DOUBLE_EQ(exact[metric]["value"].get<double>(), best) << exact;
        EXPECT_NE(wrong[metric]["value"].get<double>(), best) << wrong;
      } else {
        EXPECT_EQ(evaluator.class_id, "cider-d") << exact;
      }
      // The summary says where the data came from, down to the commit.
      EXPECT_NE(r.summary.dump().find(c.commit()), std::string::npos);
    }
  }
  // Every task of a suite on a Hub dataset (the catalog's) ran here, but the judges' (seed-methods).
  for (const auto& name : registry.names(Kind::task)) {
    const auto& task = registry.get(Kind::task, name);
    const aeval::registry::Args args(task, aeval::registry::class_spec(task, Kind::task));
    const bool on_the_hub = registry.contains(Kind::dataset, args.text("dataset")) &&
                            registry.get(Kind::dataset, args.text("dataset")).class_id == "huggingface";
    const auto suites = args.strings("suites");
    const bool judged = std::find(suites.begin(), suites.end(), "seed-methods") != suites.end();
    EXPECT_TRUE(suites.empty() || !on_the_hub || judged || ran.count(name))
        << name << " is a catalog task this test does not run";
  }
  // (The spoken-answer, captioning, Seed-TTS-Eval en/zh, CV3-Eval and Long-TTS-Eval tasks run
  // UltraEval-Audio's definitions: uea_every_dataset_e2e_test.cpp runs them.) Each dataset's task at least.
  EXPECT_GE(ran.size(), catalog.size());
}

}  // namespace

namespace {

// docs/benchmarks.md ends with `aeval list benchmarks`, as it prints now.
TEST(CatalogE2E, TheBenchmarkTableInTheDocsIsTheCatalogsOwn) {
  AEVAL_REQUIRE_SHARED_UEA();  // how each task stands to UltraEval-Audio is read from its registry
  const aeval::testing::ScopedEnv uea("AEVAL_UEA_DIR", aeval::testing::shared_uea_dir().c_str());
  const auto listed = aeval::testing::run_aeval("list benchmarks", false);
  ASSERT_EQ(listed.status, 0) << listed.output;
  std::ifstream in(fs::path(AEVAL_SOURCE_DIR) / "docs" / "benchmarks.md");
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string marker = "<!-- generated by `aeval list benchmarks`; do not edit by hand -->\n";
  const auto at = doc.find(marker);
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(doc.substr(at + marker.size()), listed.output)
      << "regenerate the table: build/aeval list benchmarks, pasted after the marker in docs/benchmarks.md";
}

}  // namespace
