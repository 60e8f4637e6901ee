// Every UltraEval-Audio dataset entry aeval supports, with its default task (or the eval task a
// catalog task names), runs end to end through `aeval uea run`, and every catalog task defined on
// UEA's registry through `aeval run --task` with the same requests and numbers: a local Hub serves two rows in the columns the entry and its task read
// (the reference column, the prompt's variables, the fields the evaluator takes, the entry's
// col_aliases), a local model server answers with the reference (aloud, for the tasks that transcribe
// a spoken answer), a local judge scores. Plumbing:
// each run must finish with every sample scored and its UEA aggregation giving a number.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>

#include "aeval/audio_io.hpp"
#include "datasets/table_reader.hpp"
#include "models/espeak_tts.hpp"
#include "tasks/task.hpp"
#include "uea/uea_entries.hpp"
#include "support/hub_test_server.hpp"
#include "support/openai_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/reference.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "support/uea_python.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kReference = "hello world";

// The variables a prompt's templates read ({{ x }}, {% for c in x %}), loop variables aside.
void template_variables(const YAML::Node& node, std::set<std::string>& out) {
  if (node.IsSequence())
    for (const auto& item : node) template_variables(item, out);
  if (node.IsMap())
    for (const auto& item : node) template_variables(item.second, out);
  if (!node.IsScalar()) return;
  static const std::regex output(R"(\{\{\s*([A-Za-z_]\w*))"), loop(R"(\{%\s*for\s+(\w+)\s+in\s+(\w+))");
  const std::string& s = node.Scalar();
  std::set<std::string> loop_variables{"loop"};
  for (std::sregex_iterator m(s.begin(), s.end(), loop), end; m != end; ++m) {
    loop_variables.insert((*m)[1]);
    out.insert((*m)[2]);
  }
  for (std::sregex_iterator m(s.begin(), s.end(), output), end; m != end; ++m)
    if (!loop_variables.count((*m)[1])) out.insert((*m)[1]);
}

struct Served {
  std::string repo, config, split;
  std::string audio_column = "audio";
  std::set<std::string> columns;  // text columns
};

// Whether a task scores with one of UEA's own evaluator classes (directly or in an ensemble): those need UEA's
// Python host and its requirements, and are proved against UEA's main.py in tests/e2e/uea_model_e2e_test.cpp.
bool hosts_uea_python(const aeval::registry::Registry& registry, const std::string& task) {
  std::vector<std::string> evaluators;
  const YAML::Node& args = registry.get(aeval::registry::Kind::task, task).args;
  for (std::size_t k = 0; args["evaluators"] && k < args["evaluators"].size(); ++k)
    evaluators.push_back(args["evaluators"][k].Scalar());
  for (std::size_t k = 0; k < evaluators.size(); ++k) {
    const auto& e = registry.get(aeval::registry::Kind::evaluator, evaluators[k]);
    if (e.class_id == "uea-python-evaluator") return true;
    if (e.args["components"])
      for (const auto& c : e.args["components"]) evaluators.push_back(c.Scalar());
  }
  return false;
}

TEST(UeaEveryDataset, EverySupportedEntryAndEveryCatalogTaskOnItRuns) {
#ifdef AEVAL_SANITIZED
  GTEST_SKIP() << "a run per dataset entry: the Release build runs this; the sanitized one runs tests/e2e/uea_run_e2e_test.cpp";
#endif
  AEVAL_REQUIRE_SHARED_UEA();
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  aeval::testing::ScopedEnv offline("HF_HUB_OFFLINE", nullptr);
  const aeval::uea::UeaRegistry uea(aeval::testing::shared_uea_dir());
  const auto translated = aeval::uea::translate_registry(uea);
  const auto& registry = translated.registry;

  // The catalog's tasks defined on UEA's registry: each runs its entry with its eval task.
  const aeval::registry::Registry builtin({aeval::registry::builtin_registry_dir()});
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> catalog;  // dataset → (catalog task, UEA task)
  for (const auto& name : builtin.names(aeval::registry::Kind::task)) {
    const auto spec = aeval::pipeline::TaskClasses::make(builtin.get(aeval::registry::Kind::task, name),
                                                         aeval::registry::Kind::task);
    if (!spec.uea_dataset.empty()) catalog[spec.uea_dataset].emplace_back(name, spec.uea_task);
  }

  // Which entries run (with the default task, and the catalog's), and the columns each
  // (repo, config, split) must have.
  std::map<std::string, Served> files;  // "repo|config|split"
  struct Run {
    std::string dataset, task, file;  // the entry, the eval task it runs, its file key
  };
  std::vector<Run> runs;
  // The eval task a catalog task runs on its dataset entry: the one it names, else the entry's default.
  const auto eval_task_of = [&](const std::string& dataset, const std::string& named) {
    const YAML::Node& args = uea.get("dataset", dataset).args;
    return !named.empty() ? named : args["default_task"] ? args["default_task"].Scalar() : std::string();
  };
  for (const auto& [name, entry] : uea.entries("dataset")) {
    std::set<std::string> tasks;
    if (catalog.count(name))
      for (const auto& named : catalog.at(name)) tasks.insert(eval_task_of(name, named.second));
    else
      tasks.insert(eval_task_of(name, ""));
    // The Hub's entries (a Parquet file served below); the others have tests of their own.
    if (!registry.contains(aeval::registry::Kind::dataset, name) ||
        registry.get(aeval::registry::Kind::dataset, name).class_id != "huggingface")
      continue;
    const YAML::Node& a = entry.args;
    const std::string config = a["subset"] && !a["subset"].IsNull() ? a["subset"].Scalar() : "default";
    const std::string split = a["split"] && !a["split"].Scalar().empty() ? a["split"].Scalar() : "test";
    const std::string key = a["name"].Scalar() + "|" + config + "|" + split;
    for (const auto& task : tasks) {
      if (!registry.contains(aeval::registry::Kind::task, task) || hosts_uea_python(registry, task)) continue;
      Served& f = files[key];
      f.repo = a["name"].Scalar();
      f.config = config;
      f.split = split;
      std::map<std::string, std::string> renamed;  // UEA's column name → the file's
      if (a["col_aliases"])
        for (const auto& alias : a["col_aliases"]) renamed[alias.second.Scalar()] = alias.first.Scalar();
      const auto column = [&](const std::string& c) { return renamed.count(c) ? renamed[c] : c; };
      if (renamed.count("audio")) f.audio_column = renamed["audio"];
      std::set<std::string> wanted{a["ref_col"].Scalar(), "question", "meta_info", "instruction", "text_norm"};
      const auto& t = registry.get(aeval::registry::Kind::task, task);
      if (t.args["prompt"] && registry.contains(aeval::registry::Kind::prompt, t.args["prompt"].Scalar()))
        template_variables(registry.get(aeval::registry::Kind::prompt, t.args["prompt"].Scalar()).args, wanted);
      for (const auto& c : wanted)
        if (c != "WavPath" && c != "choices" && column(c) != f.audio_column) f.columns.insert(column(c));
      runs.push_back({name, task, key});
    }
  }
  ASSERT_GE(runs.size(), 127u) << "aeval runs fewer UltraEval-Audio entries than it did";

  // Two clips; every text column holds the reference, `choices` lists it.
  for (const auto& [clip, seconds] : {std::pair{"a", 0.5}, std::pair{"b", 0.8}}) {
    aeval::Audio audio{{}, 16000, 1};
    for (int i = 0; i < int(16000 * seconds); ++i) audio.samples.push_back(0.2f * float(std::sin(i * 0.07)));
    aeval::write_wav(dir / (std::string(clip) + ".wav"), audio);
  }
  const auto literal = aeval::datasets::TableReader::literal;
  std::map<std::string, aeval::testing::HubTestRepo> repos;
  std::map<std::string, json> configs;  // repo → cardData.configs
  for (const auto& served : files) {
    const Served& f = served.second;  // (a lambda below reads it: structured bindings cannot be captured in C++20)
    std::string select = fmt::format("{{'bytes': b.content, 'path': 'clip.wav'}} AS \"{}\", ['{}', 'something else'] AS choices",
                                     f.audio_column, kReference);
    for (const auto& c : f.columns)  // an id column (CV3's emotion sets read it) must tell the rows apart
      select += c == "id" ? std::string(", b.filename AS \"id\"") : fmt::format(", '{}' AS \"{}\"", kReference, c);
    const std::string path = f.config + "/" + f.split + "-00000-of-00001.parquet";
    const fs::path file = dir / (std::to_string(repos[f.repo].main.files.size()) + "-" + aeval::testing::test_commit(f.repo) + ".parquet");
    aeval::testing::write_parquet(fmt::format("SELECT {} FROM read_blob({}) b ORDER BY b.filename", select,
                                              literal((dir / "*.wav").string())),
                                  file);
    auto& repo = repos[f.repo];
    repo.main.commit = aeval::testing::test_commit(f.repo);
    repo.main.files[path] = file;
    json& declared = configs[f.repo];
    if (declared.is_null()) declared = json::array();
    auto it = std::find_if(declared.begin(), declared.end(), [&](const json& c) { return c["config_name"] == f.config; });
    if (it == declared.end()) {
      declared.push_back({{"config_name", f.config}, {"data_files", json::array()}});
      it = declared.end() - 1;
    }
    (*it)["data_files"].push_back({{"split", f.split}, {"path", path}});
  }
  for (auto& [name, repo] : repos) repo.configs = configs[name];

  aeval::testing::HubTestServer hub(repos);
  aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  // A model asked for spoken answers says the reference aloud (eSpeak NG); PocketSphinx hears it.
  aeval::models::Request say;
  say.sample_id = "reference";
  say.fields = {{"text", kReference}};
  const std::string spoken = aeval::encode_wav(*aeval::models::make_espeak_tts({})->infer_and_wait(say).audio);
  aeval::testing::OpenAiTestServer model([&spoken](const aeval::testing::ReceivedRequest& request, int) {
    aeval::testing::ScriptedReply reply;
    reply.text = kReference;
    if (request.body.contains("modalities") || request.path.find("/audio/speech") != std::string::npos) reply.audio = spoken;
    return reply;
  });
  aeval::testing::OpenAiTestServer judge([](const aeval::testing::ReceivedRequest&, int) {
    aeval::testing::ScriptedReply reply;
    reply.text = "7 7 [[7]]";
    return reply;
  });
  aeval::testing::ScopedEnv judge_url("OPENAI_BASE_URL", judge.base_url().c_str());
  aeval::testing::ScopedEnv judge_key("OPENAI_API_KEY", "sk-test");
  fs::create_directories(dir / "registry" / "models");
  std::ofstream(dir / "registry" / "models" / "m.yaml")
      << "test-model:\n  class: openai_chat\n  args:\n    base_url: " << model.base_url() << "\n    model: m\n"
      << "speaking-model:\n  class: openai_chat\n  args:\n    base_url: " << model.base_url()
      << "\n    model: m\n    modalities: [text, audio]\n"
      << "tts-model:\n  class: openai_speech\n  args:\n    base_url: " << model.base_url() << "\n    model: tts-1\n"
      // The acoustics beside UEA's scores of spoken answers: DNSMOS with the official weights of
      // ../shared, and for UTMOS (which cannot be downloaded here) a stand-in: 1 + 4 × the peak.
      << "utmos22-strong:\n  class: process\n  args:\n    command: [python3, " << (dir / "utmos_stand_in.py").string()
      << "]\n"
      // For CV3's emotion tasks: every answer sounds happy.
      << "emotion-stand-in:\n  class: process\n  args:\n    command: [python3, " << (dir / "emotion_stand_in.py").string()
      << "]\n";
  aeval::testing::write_bytes(dir / "emotion_stand_in.py", R"(import json, sys
print(json.dumps({'type': 'ready'}), flush=True)
for line in sys.stdin:
    r = json.loads(line)
    scores = dict.fromkeys(['angry', 'disgusted', 'fearful', 'neutral', 'other', 'sad', 'surprised', 'unk'], 0.05)
    print(json.dumps({'type': 'response', 'id': r['id'], 'scores': {**scores, 'happy': 0.6}}), flush=True)
)");
  aeval::testing::write_bytes(dir / "utmos_stand_in.py", R"(import array, json, sys, wave
print(json.dumps({'type': 'ready'}), flush=True)
for line in sys.stdin:
    r = json.loads(line)
    with wave.open(r['audio'][0]) as w:
        data = array.array('h', w.readframes(w.getnframes()))
    peak = max((abs(x) for x in data), default=0) / 32768
    print(json.dumps({'type': 'response', 'id': r['id'], 'scores': {'mos': 1 + 4 * peak}}), flush=True)
)");
  // Captioning's coco aggregation is UEA's own class in Python: UEA's framework with pycocoevalcap's stand-ins
  // (its Java cannot run here).
  const std::string uea_python = aeval::testing::uea_python_path();
  ASSERT_FALSE(uea_python.empty()) << "tests/support/uea_python/prepare.py failed";
  ASSERT_TRUE(aeval::testing::write_python_standins("coco_standin.py", dir / "coco"));
  const std::string python_path = (dir / "coco").string() + ":" + uea_python;
  aeval::testing::ScopedEnv uea_host("AEVAL_UEA_PYTHON", aeval::testing::kDebianPython.c_str());
  aeval::testing::ScopedEnv uea_modules("PYTHONPATH", python_path.c_str());
  aeval::testing::ScopedEnv dnsmos_models(
      "DNSMOS_MODELS", (aeval::testing::reference_dir().parent_path() / "models" / "dnsmos").c_str());
  // A task whose answer is speech (UEA's extract_audio, speech2text) gets the speaking model, and
  // PocketSphinx as its recognizer, in a post-process or in UEA's TTS evaluators; the signal-vector
  // example embeds voices for Simo and CV3SpeakerSim (UEA's DNSMOS runs with the official weights).
  std::function<void(const std::string&, std::string&)> evaluator_sets = [&](const std::string& evaluator,
                                                                             std::string& sets) {
    const auto& e = registry.get(aeval::registry::Kind::evaluator, evaluator);
    if (e.class_id == "uea-ensemble")
      for (const auto& component : e.args["components"]) evaluator_sets(component.Scalar(), sets);
    if (e.class_id == "uea-seed-tts-asr-wer" || e.class_id == "uea-long-tts-asr-wer")
      sets += " --set " + evaluator + ".model=pocketsphinx-en --set \"" + evaluator + ".prompt=''\"";
    if (e.class_id == "uea-simo" || e.class_id == "uea-cv3-speaker-sim")
      sets += " --set " + evaluator + ".model=signal-vector";
    if (e.class_id == "uea-cv3-emotion") sets += " --set " + evaluator + ".model=emotion-stand-in";
  };
  const auto model_for = [&](const std::string& task) -> std::string {
    const YAML::Node& args = registry.get(aeval::registry::Kind::task, task).args;
    std::string model = "test-model", sets;
    for (std::size_t k = 0; args["post_process"] && k < args["post_process"].size(); ++k) {
      const std::string process = args["post_process"][k].Scalar();
      // A spoken answer: to a text prompt alone (UEA's tts), from a TTS model; else from a chat model.
      if (process == "extract_audio") model = args["prompt"].Scalar() == "tts" ? "tts-model" : "speaking-model";
      if (registry.get(aeval::registry::Kind::post_process, process).class_id != "speech_to_text") continue;
      model = "speaking-model";
      sets += " --set " + process + ".model=pocketsphinx-en";
    }
    for (std::size_t k = 0; args["evaluators"] && k < args["evaluators"].size(); ++k)
      evaluator_sets(args["evaluators"][k].Scalar(), sets);
    return model + sets;
  };

  std::map<std::string, json> values;  // "dataset|eval task" → its metrics
  for (const auto& [name, task, key] : runs) {
    const fs::path output = dir / "out" / (name + "-" + task);
    const auto out = aeval::testing::run_aeval(
        fmt::format("--registry {} uea run --dataset {} --task {} --model {} --uea-dir {} --quiet --output {}",
                    (dir / "registry").string(), name, task, model_for(task), aeval::testing::shared_uea_dir().string(),
                    output.string()));
    ASSERT_EQ(0, out.status) << name << ": " << out.output;
    const json summary = aeval::testing::read_only_run(output).summary;
    EXPECT_EQ(0, summary["counts"]["failed"]) << name;
    EXPECT_EQ(2, summary["counts"]["samples"]) << name;
    bool scored = false;
    for (const auto& [aggregator, by_evaluator] : summary["aggregations"].items())
      for (const auto& [evaluator, result] : by_evaluator.items())
        scored = scored || (result.contains("uea") && !result["uea"].contains("error") &&
                            (result["value"].is_number() || result["uea"].empty()));
    EXPECT_TRUE(scored) << name << ": " << summary["aggregations"].dump();
    values[name + "|" + task] = summary["metrics"];
    // CV3's emotion tasks compare every answer with "angry", as UEA's loop leaves its reference.
    if (task.rfind("cv3_emotion", 0) == 0)
      for (const auto& [id, record] : aeval::testing::read_only_run(output).by_id)
        for (const auto& [evaluator, scores] : record["scores"].items()) {
          EXPECT_EQ(scores["uea"]["emotion_pred"], "happy") << task << " " << id;
          EXPECT_EQ(scores["uea"]["emotion_ref"], "angry") << task << " " << id;
          EXPECT_EQ(scores["uea"]["emotion_match"], 0) << task << " " << id;
        }
  }

  // Each catalog task on UEA's registry sends exactly the requests `aeval uea run` sent (every
  // response comes from the cache, which keys on the rendered request) and gives the same numbers.
  aeval::testing::ScopedEnv uea_dir("AEVAL_UEA_DIR", aeval::testing::shared_uea_dir().c_str());
  std::size_t compared = 0;
  for (const auto& [dataset, tasks] : catalog)
    for (const auto& [task, uea_task] : tasks) {
      const std::string eval_task = eval_task_of(dataset, uea_task);
      ASSERT_TRUE(values.count(dataset + "|" + eval_task)) << task << ": UEA's " << dataset << " did not run above";
      const fs::path output = dir / "catalog" / task;
      const auto out = aeval::testing::run_aeval(
          fmt::format("--registry {} run --task {} --model {} --quiet --output {}", (dir / "registry").string(), task,
                      model_for(eval_task),
                      output.string()));
      ASSERT_EQ(0, out.status) << task << ": " << out.output;
      const auto run = aeval::testing::read_only_run(output);
      // UEA's numbers are the same; the task's own evaluators (acoustics) are scored beside them.
      const json& uea_values = values.at(dataset + "|" + eval_task);
      json beside = json::object();
      for (const auto& [metric, value] : run.summary["metrics"].items()) {
        if (uea_values.contains(metric)) EXPECT_EQ(uea_values[metric], value) << task << ": " << metric;
        else beside[metric] = value;
      }
      EXPECT_EQ(uea_values.size() + beside.size(), run.summary["metrics"].size());
      for (const auto& [metric, value] : beside.items())
        EXPECT_TRUE(value["value"].is_number()) << task << ": " << metric << " " << value.dump();
      const json sessions = json::parse(std::ifstream(run.dir / "run.json"))["sessions"];
      EXPECT_EQ(2, sessions.back()["cached_responses"]) << task << ": a request differs from UEA's";
      ++compared;
    }
  EXPECT_GE(compared, 80u);

  // Table 5's shape: `aeval report --suite speech-out` has a column per spoken-answer task, the acoustics
  // pooled over them, and their average; the README shows this very table.
  const auto table5 = aeval::testing::run_aeval(fmt::format("report {} --suite speech-out", (dir / "catalog").string()), false);
  ASSERT_EQ(0, table5.status) << table5.output;
  std::string rows;
  for (std::size_t at = 0; at < table5.output.size();) {
    const std::size_t end = std::min(table5.output.find('\n', at), table5.output.size());
    const std::string line = table5.output.substr(at, end - at);
    if (line.rfind("| ", 0) == 0 || line.rfind("|---", 0) == 0) rows += line + "\n";
    at = end + 1;
  }
  EXPECT_NE(rows.find("acoustics (utmos · dnsmos · dnsmos-p808)"), std::string::npos) << table5.output;
  const std::string readme = [] {
    std::ifstream in(fs::path(AEVAL_SOURCE_DIR) / "README.md");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  const std::string marker = "<!-- aeval report --suite speech-out, as tests/e2e/uea_every_dataset_e2e_test.cpp ran it -->\n";
  const std::size_t block = readme.find(marker);
  ASSERT_NE(block, std::string::npos) << "README.md lacks the speech-out table";
  EXPECT_EQ(readme.substr(block + marker.size(), rows.size()), rows) << "paste into README.md:\n" << rows;

  // `aeval report --suite` ranks UEA's numbers on the paper's scale: each task's wer(%) of 0 is 100
  // (100 − x), with the interval the catalog's bootstrap-95 puts on UEA's number, and so is the average.
  const auto report = aeval::testing::run_aeval(fmt::format("report {} --suite asr-en", (dir / "catalog").string()), false);
  ASSERT_EQ(0, report.status) << report.output;
  EXPECT_TRUE(std::regex_search(report.output,
                                std::regex(R"(\| test-model \|( 100\.00 \[100\.00, 100\.00\] \|)+ 100\.00 \| 10 of 10 \|)")))
      << report.output;
}

}  // namespace
