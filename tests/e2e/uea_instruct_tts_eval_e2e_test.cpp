// UltraEval-Audio's InstructTTSEvalDataset as aeval's `uea_instruct_tts_eval`: a local Hub serves a small
// CaasiHUANG/InstructTTSEval (one Parquet file per split: id, text, reference_audio as {bytes, path} of a
// tiny WAV, APS and RP strings with nulls, DSD a struct {instruction, note} that is null in one row and holds
// a null instruction in another, X an integer column), and every entry (UEA's own instruct-tts-eval-en and
// -zh, and entries of ours: instruction_types and col_aliases of their own, a rename that conflicts, the
// audio renamed away) gives the rows UEA's own load() gives on the same rows, in its order, or fails where it
// raises. UEA's load() runs with /usr/bin/python3: Debian has no `datasets` (nor pyarrow), so a stand-in of
// `datasets` (load_dataset of the same rows, written as JSON beside the Parquet file, already decoded as
// `datasets` decodes them; rename_column, map with indices, column_names) hosts UEA's own Huggingface and
// InstructTTSEvalDataset code. The expected rows are also written out by hand from UEA's code below. Then the
// CLI: `aeval uea run --dataset instruct-tts-eval-en --limit 4` with a local model.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "datasets/table_reader.hpp"
#include "registry/registry.hpp"
#include "uea/uea_entries.hpp"
#include "support/hub_test_server.hpp"
#include "support/openai_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/reference.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::testing::run_aeval;
using aeval::testing::run_shell;
using aeval::testing::ScopedEnv;
using aeval::testing::TempDir;
using nlohmann::json;

constexpr const char* kRepo = "CaasiHUANG/InstructTTSEval";

// The rows of both splits, in file order (the same values in the Parquet file and the stand-in's JSON).
// UEA's ids are str(id): an integer id gives "7_APS".
const char* const kRowsSql = R"(SELECT * FROM (VALUES
  (7, 'Hello there.', 'Speak slowly.', {'instruction': 'A calm voice', 'note': 'n1'}, 'A pirate', 5, 0),
  (3, '你好，世界', NULL, NULL, 'A teacher', NULL, 1),
  (12, 'Last one', 'Whisper', {'instruction': NULL, 'note': 'n3'}, NULL, 0, 2)
) t(id, "text", APS, DSD, RP, X, k))";

const char* const kEntries = R"(instruct_test_custom:
  class: audio_evals.dataset.instruct_tts_eval.InstructTTSEvalDataset
  args:
    default_task: instruct_tts_eval_en
    ref_col: instruction
    split: en
    instruction_types: [role, X, APS, nothing, DSD]
    col_aliases:
      RP: role
instruct_test_conflict:
  class: audio_evals.dataset.instruct_tts_eval.InstructTTSEvalDataset
  args:
    default_task: instruct_tts_eval_en
    ref_col: text
    col_aliases:
      text: APS
instruct_test_no_audio:
  class: audio_evals.dataset.instruct_tts_eval.InstructTTSEvalDataset
  args:
    default_task: instruct_tts_eval_zh
    ref_col: text
    split: zh
    instruction_types: RP
    col_aliases:
      reference_audio: ref
instruct_test_unknown_argument:
  class: audio_evals.dataset.instruct_tts_eval.InstructTTSEvalDataset
  args:
    default_task: instruct_tts_eval_en
    ref_col: text
    name: somebody/else
instruct_test_local_path:
  class: audio_evals.dataset.instruct_tts_eval.InstructTTSEvalDataset
  args:
    default_task: instruct_tts_eval_en
    ref_col: text
    local_path: /somewhere
)";

// A stand-in of `datasets`: load_dataset(path, split) gives the rows of $INSTRUCT_FAKE_ROWS[split], the
// audio decoded ({"array", "sampling_rate"}), as `datasets` gives them.
const char* const kDatasetsStandIn = R"(import json, os
import numpy as np


class Dataset:
    def __init__(self, rows, columns):
        self._rows, self.column_names = rows, list(columns)

    def rename_column(self, old, new):
        if old not in self.column_names:
            raise ValueError(f"Original column name {old} not in the dataset. Current columns in the dataset: {self.column_names}")
        if new in self.column_names:
            raise ValueError(f"New column name {new} already in the dataset.")
        rows = [{(new if k == old else k): v for k, v in r.items()} for r in self._rows]
        return Dataset(rows, [new if c == old else c for c in self.column_names])

    def map(self, fn, with_indices=False, load_from_cache_file=True):
        rows = [fn(dict(r), i) if with_indices else fn(dict(r)) for i, r in enumerate(self._rows)]
        columns = list(self.column_names) + [k for k in (rows[0] if rows else {}) if k not in self.column_names]
        return Dataset(rows, columns)

    def __iter__(self):
        return iter([dict(r) for r in self._rows])


class DatasetDict(dict):
    pass


def load_dataset(path, name=None, split=None, trust_remote_code=False):
    data = json.load(open(os.environ["INSTRUCT_FAKE_ROWS"]))
    assert path == data["repo"], path
    rows = data["splits"][split]
    for r in rows:
        if r.get("reference_audio") is not None:
            r["reference_audio"] = {"array": np.array(r["reference_audio"]["array"], dtype=np.float32),
                                    "sampling_rate": r["reference_audio"]["sampling_rate"], "path": "clip.wav"}
    return Dataset(rows, data["columns"])


def load_from_disk(path):
    raise FileNotFoundError(path)
)";

// UEA's own InstructTTSEvalDataset(**args).load(limit) for each entry: its rows, or the exception it raised.
const char* const kUeaLoad = R"(import contextlib, io, json, sys
from audio_evals.dataset.instruct_tts_eval import InstructTTSEvalDataset

out = {}
for name, args in json.load(open(sys.argv[1])).items():
    for limit in (0, 4):
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                result = {"rows": InstructTTSEvalDataset(**args).load(limit)}
        except Exception as e:
            result = {"error": type(e).__name__, "message": str(e)}
        out[f"{name}@{limit}"] = result
json.dump(out, open(sys.argv[2], "w"), ensure_ascii=False)
)";

class UeaInstructTtsEvalE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    AEVAL_REQUIRE_SHARED_UEA();
    // A tiny WAV, the same clip in every row (its path in the struct: clip.wav).
    aeval::Audio audio{{}, 16000, 1};
    for (int i = 0; i < 800; ++i) audio.samples.push_back(0.25f * float(std::sin(i * 0.05)));
    aeval::write_wav(dir_ / "clip.wav", audio);
    const auto literal = aeval::datasets::TableReader::literal;
    const fs::path parquet = dir_ / ("0-" + aeval::testing::test_commit(kRepo) + ".parquet");
    aeval::testing::write_parquet(
        fmt::format("SELECT r.id, r.\"text\", {{'bytes': b.content, 'path': 'clip.wav'}} AS reference_audio, r.APS, "
                    "r.DSD, r.RP, r.X FROM ({}) r, read_blob({}) b ORDER BY r.k",
                    kRowsSql, literal((dir_ / "clip.wav").string())),
        parquet);
    auto& repo = repos_[kRepo];
    repo.main.commit = aeval::testing::test_commit(kRepo);
    repo.configs = json::array({{{"config_name", "default"},
                                 {"data_files", json::array({{{"split", "en"}, {"path", "data/en-00000-of-00001.parquet"}},
                                                             {{"split", "zh"}, {"path", "data/zh-00000-of-00001.parquet"}}})}}});
    repo.main.files["data/en-00000-of-00001.parquet"] = parquet;
    repo.main.files["data/zh-00000-of-00001.parquet"] = parquet;

    // The same rows for the stand-in of `datasets`, the audio decoded.
    json rows = json::array();
    const aeval::Audio decoded = aeval::decode_audio(dir_ / "clip.wav");
    json clip = {{"array", decoded.samples}, {"sampling_rate", decoded.sample_rate}};
    rows.push_back({{"id", 7}, {"text", "Hello there."}, {"reference_audio", clip}, {"APS", "Speak slowly."},
                    {"DSD", {{"instruction", "A calm voice"}, {"note", "n1"}}}, {"RP", "A pirate"}, {"X", 5}});
    rows.push_back({{"id", 3}, {"text", "你好，世界"}, {"reference_audio", clip}, {"APS", nullptr}, {"DSD", nullptr},
                    {"RP", "A teacher"}, {"X", nullptr}});
    rows.push_back({{"id", 12}, {"text", "Last one"}, {"reference_audio", clip}, {"APS", "Whisper"},
                    {"DSD", {{"instruction", nullptr}, {"note", "n3"}}}, {"RP", nullptr}, {"X", 0}});
    write(dir_ / "rows.json", json{{"repo", kRepo},
                                   {"columns", {"id", "text", "reference_audio", "APS", "DSD", "RP", "X"}},
                                   {"splits", {{"en", rows}, {"zh", rows}}}}
                                  .dump());

    // A UltraEval-Audio tree: UEA's registry with our entries beside its own.
    fs::create_directories(tree_);
    fs::copy(aeval::testing::shared_uea_dir() / "registry", tree_ / "registry", fs::copy_options::recursive);
    fs::create_directory_symlink(aeval::testing::shared_uea_dir() / "audio_evals", tree_ / "audio_evals");
    write(tree_ / "registry" / "dataset" / "instruct_test.yaml", kEntries);
  }

  json uea_args(const std::vector<std::string>& names) const {
    json all = json::object();
    for (const auto& file : {tree_ / "registry" / "dataset" / "instruct-tts-eval.yaml",
                             tree_ / "registry" / "dataset" / "instruct_test.yaml"}) {
      const YAML::Node entries = YAML::LoadFile(file.string());
      for (const auto& name : names)
        if (entries[name]) all[name] = json(aeval::registry::yaml_as_python(entries[name]["args"]));
    }
    return all;
  }

  // What UEA's own load() gives for each entry (limit 0 and 4); null where the host cannot run it.
  json uea_load(const std::vector<std::string>& names) {
    if (run_shell("/usr/bin/python3 -c 'import numpy, pandas, tqdm, soundfile' 2>&1").status != 0) return nullptr;
    write(dir_ / "standin" / "datasets" / "__init__.py", kDatasetsStandIn);
    write(dir_ / "uea_load.py", kUeaLoad);
    write(dir_ / "args.json", uea_args(names).dump());
    fs::create_directories(dir_ / "uea-cwd");  // where UEA saves raw/.../N.wav
    const auto ran = run_shell(fmt::format(
        "cd '{}' && PYTHONPATH='{}:{}' INSTRUCT_FAKE_ROWS='{}' /usr/bin/python3 '{}' '{}' '{}' 2>&1",
        (dir_ / "uea-cwd").string(), (dir_ / "standin").string(), aeval::testing::shared_uea_dir().string(),
        (dir_ / "rows.json").string(), (dir_ / "uea_load.py").string(), (dir_ / "args.json").string(),
        (dir_ / "uea.json").string()));
    EXPECT_EQ(0, ran.status) << ran.output;
    return json::parse(std::ifstream(dir_ / "uea.json"));
  }

  static void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    aeval::testing::write_bytes(path, text);
  }

  TempDir dir_;
  fs::path tree_ = dir_ / "uea";
  std::map<std::string, aeval::testing::HubTestRepo> repos_;
  ScopedEnv cache_{"XDG_CACHE_HOME", (dir_ / "cache").c_str()};
  ScopedEnv offline_{"HF_HUB_OFFLINE", nullptr};
  ScopedEnv uea_dir_{"AEVAL_UEA_DIR", nullptr};
};

// The row number a sample's audio names: UEA's raw/.../N.wav, aeval's Parquet clip locator FILE#row=N&...
std::string row_of_audio(const std::string& path) {
  if (const auto at = path.find("#row="); at != std::string::npos)
    return path.substr(at + 5, path.find('&', at) - at - 5);
  const auto slash = path.rfind('/');
  return path.substr(slash + 1, path.size() - slash - 1 - 4);
}

// A row as UEA's load() builds it: id, text, instruction, instruction_type, WavPath (here the row it came from).
json uea_row(const std::string& id, const json& text, const json& instruction, const std::string& type, int row) {
  return {{"id", id}, {"text", text}, {"instruction", instruction}, {"instruction_type", type}, {"WavPath", std::to_string(row)}};
}

json aeval_rows(const aeval::datasets::Dataset& d) {
  json rows = json::array();
  for (const auto& s : d.samples) {
    json row = s.fields;
    EXPECT_EQ(row["id"], s.id);
    if (!row.contains("WavPath")) row["WavPath"] = s.audio.empty() ? "" : row_of_audio(s.audio.string());
    rows.push_back(row);
  }
  return rows;
}

TEST_F(UeaInstructTtsEvalE2E, EveryEntryGivesUeasOwnRowsOrFailsWhereUeaRaises) {
  aeval::testing::HubTestServer hub(repos_);
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  const aeval::uea::UeaRegistry registry(tree_);
  const auto translated = aeval::uea::translate_registry(registry);
  const auto& unsupported = translated.unsupported.count("dataset") ? translated.unsupported.at("dataset")
                                                                    : std::map<std::string, std::string>{};
  ASSERT_TRUE(unsupported.count("instruct_test_unknown_argument"));
  EXPECT_NE(unsupported.at("instruct_test_unknown_argument").find("InstructTTSEvalDataset has no argument 'name'"),
            std::string::npos);
  ASSERT_TRUE(unsupported.count("instruct_test_local_path"));
  EXPECT_NE(unsupported.at("instruct_test_local_path").find("local_path"), std::string::npos);

  const std::vector<std::string> names = {"instruct-tts-eval-en", "instruct-tts-eval-zh", "instruct_test_custom",
                                          "instruct_test_conflict", "instruct_test_no_audio"};
  std::map<std::string, json> ours;  // entry@limit -> rows, or {"error": message}
  for (const auto& name : names) {
    ASSERT_FALSE(unsupported.count(name)) << name << ": " << unsupported.at(name);
    EXPECT_EQ("uea_instruct_tts_eval", translated.registry.get(aeval::registry::Kind::dataset, name).class_id) << name;
    for (const int limit : {0, 4}) {
      aeval::registry::Registry limited = translated.registry;
      limited.set_argument(aeval::registry::Kind::dataset, name, "limit", YAML::Node(limit));
      try {
        const auto d = aeval::datasets::load_dataset(limited, name);
        ours[fmt::format("{}@{}", name, limit)] = aeval_rows(d);
        for (const auto& s : d.samples) {
          const std::string ref_col = name == "instruct_test_custom" ? "instruction" : "text";
          if (s.fields[ref_col].is_string()) {
            EXPECT_EQ(s.fields[ref_col], s.reference.value_or("?")) << name;
          } else {
            EXPECT_FALSE(s.reference) << name;
          }
        }
      } catch (const aeval::Error& e) {
        EXPECT_EQ(aeval::ErrorCategory::data, e.category()) << name << ": " << e.what();
        ours[fmt::format("{}@{}", name, limit)] = json{{"error", e.what()}};
      }
    }
  }

  // By hand, from UEA's code: per row in order, per type in order, None skipped; a str as is, a dict's
  // "instruction" (None when it holds None), anything else str(); ids "<str(id)>_<type>"; the limit after.
  const json en = json::array({uea_row("7_APS", "Hello there.", "Speak slowly.", "APS", 0),
                               uea_row("7_DSD", "Hello there.", "A calm voice", "DSD", 0),
                               uea_row("7_RP", "Hello there.", "A pirate", "RP", 0),
                               uea_row("3_RP", "你好，世界", "A teacher", "RP", 1),
                               uea_row("12_APS", "Last one", "Whisper", "APS", 2),
                               uea_row("12_DSD", "Last one", nullptr, "DSD", 2)});
  const json custom = json::array({uea_row("7_role", "Hello there.", "A pirate", "role", 0),
                                   uea_row("7_X", "Hello there.", "5", "X", 0),
                                   uea_row("7_APS", "Hello there.", "Speak slowly.", "APS", 0),
                                   uea_row("7_DSD", "Hello there.", "A calm voice", "DSD", 0),
                                   uea_row("3_role", "你好，世界", "A teacher", "role", 1),
                                   uea_row("12_X", "Last one", "0", "X", 2),
                                   uea_row("12_APS", "Last one", "Whisper", "APS", 2),
                                   uea_row("12_DSD", "Last one", nullptr, "DSD", 2)});
  // instruction_types "RP" iterates as "R", "P": no such columns, no rows; the audio renamed away: WavPath "".
  const auto first = [](const json& rows, std::size_t n) {
    json out = json::array();
    for (std::size_t k = 0; k < std::min(n, rows.size()); ++k) out.push_back(rows[k]);
    return out;
  };
  EXPECT_EQ(en, ours["instruct-tts-eval-en@0"]);
  EXPECT_EQ(first(en, 4), ours["instruct-tts-eval-en@4"]);
  EXPECT_EQ(en, ours["instruct-tts-eval-zh@0"]);
  EXPECT_EQ(custom, ours["instruct_test_custom@0"]);
  EXPECT_EQ(first(custom, 4), ours["instruct_test_custom@4"]);
  EXPECT_EQ(json::array(), ours["instruct_test_no_audio@0"]);
  ASSERT_TRUE(ours["instruct_test_conflict@0"].is_object());
  EXPECT_NE(ours["instruct_test_conflict@0"]["error"].get<std::string>().find(
                "col_aliases conflict with existing column name: APS"),
            std::string::npos);

  // UEA's own load(), hosted by the stand-in of `datasets`: the same rows, or an error where we fail.
  const json theirs = uea_load(names);
  if (theirs.is_null()) GTEST_SKIP() << "/usr/bin/python3 lacks numpy, pandas, tqdm or soundfile (UEA's imports)";
  for (const auto& [key, rows] : ours) {
    ASSERT_TRUE(theirs.contains(key)) << key;
    if (rows.is_object()) {
      EXPECT_TRUE(theirs[key].contains("error")) << key << ": we failed (" << rows["error"] << "), UEA gave "
                                                 << theirs[key].dump();
      continue;
    }
    ASSERT_TRUE(theirs[key].contains("rows")) << key << ": UEA raised " << theirs[key].dump();
    json uea_rows = theirs[key]["rows"];
    for (auto& r : uea_rows)
      if (!r["WavPath"].get<std::string>().empty()) r["WavPath"] = row_of_audio(r["WavPath"].get<std::string>());
    EXPECT_EQ(uea_rows, rows) << key;
  }
}

TEST_F(UeaInstructTtsEvalE2E, UeaRunGivesTheExpandedRowsToTheModel) {
  aeval::testing::HubTestServer hub(repos_);
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  aeval::testing::OpenAiTestServer model([](const aeval::testing::ReceivedRequest&, int) {
    aeval::testing::ScriptedReply reply;
    reply.text = "Hello there.";
    return reply;
  });
  write(dir_ / "registry" / "models" / "m.yaml",
        "test-model:\n  class: openai_chat\n  args:\n    base_url: " + model.base_url() + "\n    model: m\n    input_sample_rate: 0\n");
  const fs::path output = dir_ / "out";
  // UEA's task judges with Gemini; here its prompt (text and instruction) and a plain evaluator.
  const auto run = run_aeval(fmt::format(
      "--registry {} uea run --dataset instruct-tts-eval-en --model test-model --uea-dir {} --limit 4 --quiet "
      "--output {} --post_process json_content --evaluator em --agg acc",
      (dir_ / "registry").string(), tree_.string(), output.string()));
  ASSERT_EQ(0, run.status) << run.output;
  const auto results = aeval::testing::read_only_run(output);
  EXPECT_EQ(4, results.summary["counts"]["samples"]) << results.summary.dump();
  EXPECT_EQ(0, results.summary["counts"]["failed"]) << results.samples_text;
  const std::vector<std::tuple<std::string, std::string, std::string>> rows = {
      {"7_APS", "Speak slowly.", "APS"}, {"7_DSD", "A calm voice", "DSD"}, {"7_RP", "A pirate", "RP"},
      {"3_RP", "A teacher", "RP"}};
  ASSERT_EQ(4u, results.by_id.size()) << results.samples_text;
  for (const auto& [id, instruction, type] : rows) {
    ASSERT_TRUE(results.by_id.count(id)) << id << "\n" << results.samples_text;
    const json& record = results.by_id.at(id);
    EXPECT_EQ(instruction, record["fields"]["instruction"]) << record.dump();
    EXPECT_EQ(type, record["fields"]["instruction_type"]) << record.dump();
    EXPECT_EQ(id, record["id"]) << record.dump();
  }
  // Each request carried UEA's instruct-tts prompt: the text and the instruction.
  const auto received = model.received();
  ASSERT_EQ(4u, received.size());
  for (const auto& row : rows) {
    const std::string& instruction = std::get<1>(row);  // (a lambda cannot capture a structured binding in C++20)
    const bool sent = std::any_of(received.begin(), received.end(), [&](const auto& r) {
      return r.body.dump(-1, ' ', false).find(instruction) != std::string::npos;
    });
    EXPECT_TRUE(sent) << instruction;
  }
}

}  // namespace
