// UltraEval-Audio's MiniMaxTTSDataset as aeval's `uea_minimax_tts`: a local Hub serves a small
// MiniMaxAI/TTS-Multilingual-Test-Set (text files with hostile lines, prompt texts, MP3 voices, a speaker
// without one), and every entry (UEA's own minimax_tts_english and minimax_tts_chinese, and entries of ours
// for the quirks) gives the rows UEA's own load() gives on the same files (run with a stand-in of
// huggingface_hub reading them), in its order, or fails where it raises. Then the CLI: `aeval fetch dataset`
// online, offline from the cache, offline without one, and `aeval uea run` of the entry's own task.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <sndfile.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <set>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "models/espeak_tts.hpp"
#include "registry/registry.hpp"
#include "uea/uea_entries.hpp"
#include "support/hub_test_server.hpp"
#include "support/openai_test_server.hpp"
#include "support/reference.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::testing::read_bytes;
using aeval::testing::run_aeval;
using aeval::testing::run_shell;
using aeval::testing::ScopedEnv;
using aeval::testing::TempDir;
using nlohmann::json;

constexpr const char* kRepo = "MiniMaxAI/TTS-Multilingual-Test-Set";
constexpr const char* kBadPrompts = "acme/minimax-bad-prompts";
constexpr const char* kNoPrompts = "acme/minimax-no-prompts";

// A short MP3 (libsndfile writes it with LAME): a tone of `hz`, so that each voice has bytes of its own.
std::string mp3_tone(const fs::path& scratch, double hz) {
  SF_INFO info{};
  info.samplerate = 16000;
  info.channels = 1;
  info.format = SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III;
  SNDFILE* f = sf_open(scratch.c_str(), SFM_WRITE, &info);
  if (!f) throw std::runtime_error(std::string("libsndfile cannot write MP3: ") + sf_strerror(nullptr));
  std::vector<float> tone(8000);
  for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = float(0.3 * std::sin(2 * M_PI * hz * double(i) / 16000));
  sf_write_float(f, tone.data(), sf_count_t(tone.size()));
  sf_close(f);
  return read_bytes(scratch);
}

// The files of the stand-in repositories: under root/OWNER/NAME/PATH (what the Python stand-in reads), served
// by the local Hub.
struct FakeHub {
  fs::path root;
  std::map<std::string, aeval::testing::HubTestRepo> repos;

  void put(const std::string& repo, const std::string& path, const std::string& bytes) {
    const fs::path file = root / repo / path;
    fs::create_directories(file.parent_path());
    aeval::testing::write_bytes(file, bytes);
    auto& r = repos[repo];
    r.main.commit = aeval::testing::test_commit(repo);
    r.main.files[path] = file;
  }
};

const std::string kEnglish =
    "english_female|Hello there, how are you?\n"
    "\n"
    "no pipe line here\n"
    "english_male | The quick | brown fox. \n"
    "   english_female|  Second line with spaces   \r\n"
    "english_mute|This speaker has no mp3.\n"
    "english_male|carriage\rreturn\n"                          // a lone \r ends a line too: "return" has no '|'
    "english_female|\xe3\x80\x80ideographic space\xe3\x80\x80\t\n"  // U+3000 is whitespace to str.strip()
    "english_male|Last line without newline";
const std::string kChinese =
    "chinese_female|你好，世界。\n"
    "chinese_male|这个说话人没有音频。\n"
    "chinese_female|第二句。\n";
const std::string kPrompts =
    "english_female.mp3|Prompt of the female voice.\n"
    "english_male_b.mp3 | Prompt of the male voice | with a pipe\n"
    "no pipe here\n"
    "\n"
    "chinese_female.mp3|女声提示。\n"
    "solo.mp3|Solo prompt.\n"
    "english_female.mp3|Overridden later.\n";  // a dict: the later line wins

// Our entries, beside UEA's own (each a quirk of UEA's load()).
const char* const kEntries = R"(minimax_test_pair:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    name: MiniMaxAI/TTS-Multilingual-Test-Set
    default_task: minimax_tts_en
    ref_col: WavPath
    languages: [english, chinese]
minimax_test_text_ref:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    ref_col: text
    language: chinese
minimax_test_solo:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    ref_col: WavPath
    language: solo
minimax_test_solo_after_empty:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    ref_col: WavPath
    languages: [empty, solo]
minimax_test_solo_after_english:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    ref_col: WavPath
    language: ""
    languages: [english, solo]
minimax_test_nokey:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    ref_col: WavPath
    language: nokey
minimax_test_ghost:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    ref_col: WavPath
    language: ghost
minimax_test_missing:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    ref_col: WavPath
    language: klingon
minimax_test_every_language:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    default_task: minimax_tts_en
minimax_test_string_languages:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    languages: ab
minimax_test_unknown_argument:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    language: english
    f_name: something.jsonl
minimax_test_bad_prompts_ok:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    name: acme/minimax-bad-prompts
    ref_col: WavPath
    language: mixed
    col_aliases: {text: sentence}
minimax_test_bad_prompts_lost:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    name: acme/minimax-bad-prompts
    ref_col: WavPath
    language: english
minimax_test_no_prompts:
  class: audio_evals.dataset.minimax_tts.MiniMaxTTSDataset
  args:
    name: acme/minimax-no-prompts
    ref_col: WavPath
    language: mixed
)";

// huggingface_hub as UEA's minimax_tts.py calls it, on the files under $MINIMAX_FAKE_HUB: hf_hub_download
// returns the file, list_repo_tree a folder's entries (files and folders, not recursive, in name order);
// both raise what the Hub answers with 404 for a path it does not hold.
const char* const kHubStandIn = R"(import os


class EntryNotFoundError(Exception):
    pass


def _root(repo_id):
    return os.path.join(os.environ["MINIMAX_FAKE_HUB"], repo_id)


def hf_hub_download(repo_id, filename, repo_type=None, **kwargs):
    path = os.path.join(_root(repo_id), filename)
    if not os.path.isfile(path):
        raise EntryNotFoundError(f"404 Client Error: Entry Not Found for url: .../{repo_id}/resolve/main/{filename}")
    return path


class _Entry:
    def __init__(self, path):
        self.path = path


def list_repo_tree(repo_id, path_in_repo=None, repo_type=None, **kwargs):
    folder = os.path.join(_root(repo_id), path_in_repo)
    if not os.path.isdir(folder):
        raise EntryNotFoundError(f"404 Client Error: Entry Not Found for url: .../{repo_id}/tree/main/{path_in_repo}")
    for name in sorted(os.listdir(folder)):
        yield _Entry(path_in_repo + "/" + name)
)";

// UEA's own MiniMaxTTSDataset(**args).load() for each entry: its rows, or the exception it raised, and the
// warnings it logged.
const char* const kUeaLoad = R"(import contextlib, io, json, logging, sys
from audio_evals.dataset.minimax_tts import MiniMaxTTSDataset


class Collect(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        if record.levelno >= logging.WARNING:
            self.messages.append(record.getMessage())


out = {}
for name, args in json.load(open(sys.argv[1])).items():
    collect = Collect()
    logging.getLogger("audio_evals.dataset.minimax_tts").addHandler(collect)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            out[name] = {"rows": MiniMaxTTSDataset(**args).load()}
    except Exception as e:
        out[name] = {"error": type(e).__name__, "message": str(e)}
    out[name]["warnings"] = collect.messages
    logging.getLogger("audio_evals.dataset.minimax_tts").removeHandler(collect)
json.dump(out, open(sys.argv[2], "w"), ensure_ascii=False)
)";

class UeaMinimaxE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    AEVAL_REQUIRE_SHARED_UEA();
    hub_.root = dir_ / "files";
    // MiniMax's set as UEA reads it, with the quirks its code has an answer for.
    hub_.put(kRepo, "text/english.txt", kEnglish);
    hub_.put(kRepo, "text/chinese.txt", kChinese);
    hub_.put(kRepo, "text/solo.txt", "solo_voice|Only one.\nsolo_voice|Still one.\n");
    hub_.put(kRepo, "text/empty.txt", "\n\nno pipes at all\n");
    hub_.put(kRepo, "text/nokey.txt", "english_female|Fine.\nnokey_voice|Its voice has no prompt text.\n");
    hub_.put(kRepo, "text/ghost.txt", "ghost_voice|No folder.\nenglish_female|Fine.\n");
    hub_.put(kRepo, "speaker/prompt_text.txt", kPrompts);
    std::map<std::string, std::string> voices;  // repository path -> bytes
    double hz = 220;
    for (const char* path : {"speaker/english/english_female/english_female.mp3",
                             "speaker/english/english_male/0sub/nested.mp3",  // not directly in the folder
                             "speaker/english/english_male/english_male_b.mp3",  // the first .mp3 of the folder
                             "speaker/english/english_male/english_male_c.mp3",
                             "speaker/english/english_mute/sub/hidden.mp3",
                             "speaker/chinese/chinese_female/chinese_female.mp3",
                             "speaker/solo/solo_voice/solo.mp3", "speaker/nokey/nokey_voice/unknown.mp3"})
      voices[path] = mp3_tone(dir_ / "scratch.mp3", hz += 55);
    voices["speaker/english/english_male/a_readme.txt"] = "not a voice\n";
    voices["speaker/english/english_mute/voice.wav"] = "RIFF, but not a voice\n";
    voices["speaker/chinese/chinese_male/readme.txt"] = "no mp3 here\n";
    for (const char* repo : {kRepo, kBadPrompts, kNoPrompts})
      for (const auto& [path, bytes] : voices) hub_.put(repo, path, bytes);
    // prompt_text.txt with bytes that are not UTF-8 past Python's first 8192-byte chunk: UEA logs the
    // UnicodeDecodeError and keeps what it read of the chunks before; the chunk holding the bad byte is lost.
    std::string prompts = "english_female.mp3|P female\nchinese_female.mp3|P chinese\n";
    for (int k = 0; prompts.size() < 8300; ++k) prompts += fmt::format("pad_{:04}.mp3|padding padding padding\n", k);
    prompts += "english_male_b.mp3|P male, in the chunk that fails\nbroken \xff line|x\ntail.mp3|tail\n";
    hub_.put(kBadPrompts, "speaker/prompt_text.txt", prompts);
    for (const char* repo : {kBadPrompts, kNoPrompts}) {
      hub_.put(repo, "text/english.txt", kEnglish);
      hub_.put(repo, "text/mixed.txt", "english_female|One.\nchinese_female|Two.\n");
    }

    // A UltraEval-Audio tree: UEA's registry with our entries beside its own.
    fs::create_directories(tree_);
    fs::copy(aeval::testing::shared_uea_dir() / "registry", tree_ / "registry", fs::copy_options::recursive);
    fs::create_directory_symlink(aeval::testing::shared_uea_dir() / "audio_evals", tree_ / "audio_evals");
    aeval::testing::write_bytes(tree_ / "registry" / "dataset" / "minimax_test.yaml", kEntries);
  }

  // The entries' UEA arguments, as UEA's yaml.safe_load reads them.
  json uea_args(const std::vector<std::string>& names) const {
    json all = json::object();
    for (const auto& file : {tree_ / "registry" / "dataset" / "minimax.yaml", tree_ / "registry" / "dataset" / "minimax_test.yaml"}) {
      const YAML::Node entries = YAML::LoadFile(file.string());
      for (const auto& name : names)
        if (entries[name]) all[name] = json(aeval::registry::yaml_as_python(entries[name]["args"]));
    }
    return all;
  }

  // What UEA's own load() gives for each entry.
  json uea_load(const std::vector<std::string>& names) {
    write(dir_ / "standin" / "huggingface_hub" / "__init__.py", kHubStandIn);
    write(dir_ / "uea_load.py", kUeaLoad);
    write(dir_ / "args.json", uea_args(names).dump());
    const auto ran = run_shell(fmt::format("PYTHONPATH='{}:{}' MINIMAX_FAKE_HUB='{}' /usr/bin/python3 '{}' '{}' '{}' 2>&1",
                                           (dir_ / "standin").string(), aeval::testing::shared_uea_dir().string(),
                                           hub_.root.string(), (dir_ / "uea_load.py").string(),
                                           (dir_ / "args.json").string(), (dir_ / "uea.json").string()));
    EXPECT_EQ(0, ran.status) << ran.output;
    return json::parse(std::ifstream(dir_ / "uea.json"));
  }

  static void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    aeval::testing::write_bytes(path, text);
  }

  TempDir dir_;
  fs::path tree_ = dir_ / "uea";
  FakeHub hub_;
  ScopedEnv cache_{"XDG_CACHE_HOME", (dir_ / "cache").c_str()};
  ScopedEnv offline_{"HF_HUB_OFFLINE", nullptr};
  ScopedEnv uea_dir_{"AEVAL_UEA_DIR", nullptr};
};

// A file's path in its repository: after the stand-in's root/OWNER/NAME/, or the cache's snapshots/COMMIT/.
std::string in_repository(const std::string& path) {
  const auto snapshot = path.find("/snapshots/");
  if (snapshot != std::string::npos) return path.substr(snapshot + std::string("/snapshots/").size() + 41);
  for (const char* repo : {kRepo, kBadPrompts, kNoPrompts})
    if (const auto at = path.find(std::string("/") + repo + "/"); at != std::string::npos)
      return path.substr(at + std::string(repo).size() + 2);
  return "?" + path;
}

json comparable(json row) {
  for (const char* key : {"WavPath", "prompt_audio"}) row[key] = in_repository(row[key].get<std::string>());
  return row;
}

TEST_F(UeaMinimaxE2E, EveryEntryGivesUeasOwnRowsOrFailsWhereUeaRaises) {
  AEVAL_REQUIRE(run_shell("/usr/bin/python3 -c 'import pandas, tqdm' 2>&1").status == 0,
                "UltraEval-Audio's dataset module's imports (python3-pandas python3-tqdm)");
  const std::vector<std::string> names = {
      "minimax_tts_english",          "minimax_tts_chinese",           "minimax_test_pair",
      "minimax_test_text_ref",        "minimax_test_solo",             "minimax_test_solo_after_empty",
      "minimax_test_solo_after_english", "minimax_test_nokey",         "minimax_test_ghost",
      "minimax_test_missing",         "minimax_test_every_language",   "minimax_test_bad_prompts_ok",
      "minimax_test_bad_prompts_lost", "minimax_test_no_prompts", "minimax_test_string_languages"};
  const json uea = uea_load(names);

  aeval::testing::HubTestServer server(hub_.repos);
  ScopedEnv endpoint("HF_ENDPOINT", server.endpoint().c_str());
  const aeval::uea::UeaRegistry registry(tree_);
  const auto translated = aeval::uea::translate_registry(registry);
  // An argument UEA's class does not take is UEA's TypeError: the entry is unsupported, saying which.
  ASSERT_TRUE(translated.unsupported.count("dataset"));
  EXPECT_NE(translated.unsupported.at("dataset").at("minimax_test_unknown_argument").find(
                "MiniMaxTTSDataset has no argument 'f_name'"),
            std::string::npos);
  EXPECT_EQ(std::vector<std::string>({"a", "b"}),
            translated.registry.get(aeval::registry::Kind::dataset, "minimax_test_string_languages")
                .args["languages"].as<std::vector<std::string>>());
  std::map<std::string, aeval::datasets::Dataset> loaded;
  std::map<std::string, std::string> failed;
  for (const auto& name : names) {
    ASSERT_FALSE(translated.unsupported.count("dataset") && translated.unsupported.at("dataset").count(name))
        << name << ": " << translated.unsupported.at("dataset").at(name);
    EXPECT_EQ("uea_minimax_tts", translated.registry.get(aeval::registry::Kind::dataset, name).class_id) << name;
    try {
      loaded.emplace(name, aeval::datasets::load_dataset(translated.registry, name));
    } catch (const aeval::Error& e) {
      failed[name] = e.what();
      EXPECT_EQ(aeval::ErrorCategory::data, e.category()) << name << ": " << e.what();
    }
  }

  // Row by row against UEA's own load(), ids from 0, the reference the ref_col column's value.
  for (const auto& name : names) {
    const json& theirs = uea.at(name);
    if (theirs.contains("error")) {
      EXPECT_TRUE(failed.count(name)) << name << ": UEA raised " << theirs["error"] << " (" << theirs["message"]
                                      << "), aeval gave " << loaded.at(name).samples.size() << " rows";
      continue;
    }
    ASSERT_TRUE(loaded.count(name)) << name << ": aeval failed (" << failed[name] << "), UEA gave rows";
    const auto& d = loaded.at(name);
    ASSERT_EQ(theirs["rows"].size(), d.samples.size()) << name;
    const std::string ref_col = uea_args({name})[name].value("ref_col", "text");
    for (std::size_t k = 0; k < d.samples.size(); ++k) {
      const auto& s = d.samples[k];
      EXPECT_EQ(comparable(theirs["rows"][k]), comparable(s.fields)) << name << " row " << k;
      EXPECT_EQ(std::to_string(k), s.id);
      EXPECT_EQ(s.fields["WavPath"], s.audio.string()) << name;
      ASSERT_TRUE(s.reference) << name;
      EXPECT_EQ(s.fields[ref_col], *s.reference) << name;
      EXPECT_TRUE(fs::is_regular_file(s.audio)) << s.audio;
    }
    // UEA's warning for each row of a speaker without a voice, a note per speaker here.
    std::map<std::string, int> warned;
    for (const auto& w : theirs["warnings"]) {
      const std::string message = w;
      if (message.rfind("Speaker '", 0) == 0) ++warned[message.substr(9, message.find('\'', 9) - 9)];
    }
    for (const auto& [speaker, rows] : warned) {
      const std::string note = fmt::format("speaker '{}' has no .mp3", speaker);
      const auto found = std::find_if(d.notes.begin(), d.notes.end(), [&](const auto& n) { return n.find(note) != std::string::npos; });
      ASSERT_NE(found, d.notes.end()) << name << ": no note for " << speaker;
      EXPECT_NE(found->find(fmt::format("its {} rows are left out", rows)), std::string::npos) << *found;
    }
  }

  // What UEA's code gives, read by hand: hostile lines skipped, the first '|' splits, strip(), the later
  // prompt line of a file name wins, the first .mp3 directly in a speaker's folder, a speaker without one
  // left out.
  const auto& pair = loaded.at("minimax_test_pair");
  const std::string male = "speaker/english/english_male/english_male_b.mp3",
                    female = "speaker/english/english_female/english_female.mp3",
                    chinese = "speaker/chinese/chinese_female/chinese_female.mp3";
  const std::vector<std::array<std::string, 5>> expected = {
      {female, "Overridden later.", "Hello there, how are you?", "english", "english_female"},
      {male, "Prompt of the male voice | with a pipe", "The quick | brown fox.", "english", "english_male"},
      {female, "Overridden later.", "Second line with spaces", "english", "english_female"},
      {male, "Prompt of the male voice | with a pipe", "carriage", "english", "english_male"},
      {female, "Overridden later.", "ideographic space", "english", "english_female"},
      {male, "Prompt of the male voice | with a pipe", "Last line without newline", "english", "english_male"},
      {chinese, "女声提示。", "你好，世界。", "chinese", "chinese_female"},
      {chinese, "女声提示。", "第二句。", "chinese", "chinese_female"}};
  ASSERT_EQ(expected.size(), pair.samples.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const auto& [voice, prompt, text, language, speaker] = expected[k];
    EXPECT_EQ(comparable(pair.samples[k].fields), (json{{"WavPath", voice}, {"prompt_audio", voice}, {"prompt_text", prompt},
                                                        {"text", text}, {"ans", text}, {"language", language},
                                                        {"speaker", speaker}}))
        << k;
  }
  EXPECT_EQ(2u, pair.notes.size());  // english_mute and chinese_male
  EXPECT_EQ(6u, loaded.at("minimax_tts_english").samples.size());
  EXPECT_EQ(8u, loaded.at("minimax_test_solo_after_english").samples.size());  // the speakers so far are many
  EXPECT_EQ("你好，世界。", *loaded.at("minimax_test_text_ref").samples[0].reference);
  const auto& ok = loaded.at("minimax_test_bad_prompts_ok");
  ASSERT_EQ(2u, ok.samples.size());
  EXPECT_EQ("P female", ok.samples[0].fields["prompt_text"]);
  EXPECT_EQ("P chinese", ok.samples[1].fields["prompt_text"]);
  ASSERT_EQ(1u, ok.notes.size());
  EXPECT_NE(ok.notes[0].find("not UTF-8 at byte"), std::string::npos) << ok.notes[0];

  // UEA's exceptions (the stand-in raises the Hub's 404 as EntryNotFoundError, as huggingface_hub does) ...
  const std::map<std::string, std::string> raised = {
      {"minimax_test_solo", "ValueError"},           {"minimax_test_solo_after_empty", "ValueError"},
      {"minimax_test_nokey", "KeyError"},            {"minimax_test_ghost", "EntryNotFoundError"},
      {"minimax_test_missing", "EntryNotFoundError"}, {"minimax_test_every_language", "EntryNotFoundError"},
      {"minimax_test_bad_prompts_lost", "KeyError"}, {"minimax_test_no_prompts", "KeyError"},
      {"minimax_test_string_languages", "EntryNotFoundError"}};
  for (const auto& [name, type] : raised) EXPECT_EQ(type, uea.at(name).value("error", "")) << name << ": " << uea.at(name).dump();
  // ... are data errors here, naming what is wrong.
  const std::map<std::string, std::vector<std::string>> errors = {
      {"minimax_test_solo", {"Only one speaker needed for language solo", "ValueError", "'solo_voice'"}},
      {"minimax_test_solo_after_empty", {"Only one speaker needed for language solo"}},
      {"minimax_test_nokey", {"speaker/prompt_text.txt has no prompt text for 'unknown.mp3'", "'nokey_voice'",
                              "text/nokey.txt:2", "KeyError"}},
      {"minimax_test_ghost", {"speaker 'ghost_voice' (text/ghost.txt:1) has no folder speaker/ghost/ghost_voice"}},
      {"minimax_test_missing", {"the repository has no text/klingon.txt", "EntryNotFoundError"}},
      {"minimax_test_every_language", {"text/arabic.txt"}},  // UEA's 24 languages, Arabic first
      {"minimax_test_bad_prompts_lost", {"no prompt text for 'english_male_b.mp3'"}},
      {"minimax_test_no_prompts", {"the repository has no speaker/prompt_text.txt", "KeyError"}},
      {"minimax_test_string_languages", {"the repository has no text/a.txt"}}};  // a string iterates as characters
  for (const auto& [name, parts] : errors) {
    ASSERT_TRUE(failed.count(name)) << name;
    EXPECT_EQ(std::string::npos, failed[name].find('\n')) << failed[name];
    for (const auto& part : parts) EXPECT_NE(failed[name].find(part), std::string::npos) << name << ": " << failed[name];
  }
  EXPECT_EQ(errors.size(), failed.size());
}

TEST_F(UeaMinimaxE2E, FetchedOnceThenOfflineAndRunByUeasOwnTask) {
  // `aeval fetch dataset` reads UEA's entries (AEVAL_UEA_DIR): online once, then from the cache alone.
  ScopedEnv uea_dir("AEVAL_UEA_DIR", tree_.c_str());
  {
    aeval::testing::HubTestServer server(hub_.repos);
    ScopedEnv endpoint("HF_ENDPOINT", server.endpoint().c_str());
    const auto online = run_aeval("fetch dataset minimax_test_pair");
    ASSERT_EQ(0, online.status) << online.output;
    EXPECT_NE(online.output.find("minimax_test_pair: 8 samples cached"), std::string::npos) << online.output;
    EXPECT_NE(online.output.find("speaker 'english_mute' has no .mp3 in speaker/english/english_mute: its 1 rows are left out"),
              std::string::npos)
        << online.output;
  }
  {
    ScopedEnv endpoint("HF_ENDPOINT", "http://127.0.0.1:1");
    ScopedEnv offline("HF_HUB_OFFLINE", "1");
    const auto cached = run_aeval("fetch dataset minimax_test_pair");
    ASSERT_EQ(0, cached.status) << cached.output;
    EXPECT_NE(cached.output.find("minimax_test_pair: 8 samples cached"), std::string::npos) << cached.output;
  }
  {
    // Without the cache: one line each, naming the cache folder and the way to fill it.
    ScopedEnv empty_cache("XDG_CACHE_HOME", (dir_ / "empty-cache").c_str());
    ScopedEnv endpoint("HF_ENDPOINT", "http://127.0.0.1:1");
    for (const char* offline_value : {"1", static_cast<const char*>(nullptr)}) {
      ScopedEnv offline("HF_HUB_OFFLINE", offline_value);
      const auto out = run_aeval("fetch dataset minimax_test_pair");
      EXPECT_EQ(1, out.status) << out.output;
      std::string text = out.output;
      while (!text.empty() && text.back() == '\n') text.pop_back();
      EXPECT_EQ(std::string::npos, text.find('\n')) << out.output;
      EXPECT_NE(text.find(offline_value ? "offline (HF_HUB_OFFLINE is set)" : "cannot reach http://127.0.0.1:1"),
                std::string::npos)
          << out.output;
      EXPECT_NE(text.find((dir_ / "empty-cache" / "aeval" / "datasets" / "hub" / "MiniMaxAI--TTS-Multilingual-Test-Set").string()),
                std::string::npos)
          << out.output;
      EXPECT_NE(text.find("aeval fetch dataset minimax_test_pair"), std::string::npos) << out.output;
    }
  }

  // `aeval uea run` of the entry's own task (minimax_tts_en: UEA's voice-clone prompt, the spoken answer
  // heard by PocketSphinx, the voice compared by signal-vector), from the cache, the first 3 rows.
  aeval::models::Request say;
  say.sample_id = "answer";
  say.fields = {{"text", "hello world"}};
  const std::string spoken = aeval::encode_wav(*aeval::models::make_espeak_tts({})->infer_and_wait(say).audio);
  aeval::testing::OpenAiTestServer model([&spoken](const aeval::testing::ReceivedRequest&, int) {
    aeval::testing::ScriptedReply reply;
    reply.text = "hello world";
    reply.audio = spoken;
    return reply;
  });
  write(dir_ / "registry" / "models" / "m.yaml",
        "speaking-model:\n  class: openai_chat\n  args:\n    base_url: " + model.base_url() +
            "\n    model: m\n    modalities: [text, audio]\n");
  ScopedEnv offline("HF_HUB_OFFLINE", "1");
  const fs::path output = dir_ / "out";
  const auto run = run_aeval(fmt::format(
      "--registry {} uea run --dataset minimax_test_pair --model speaking-model --uea-dir {} --limit 3 --quiet "
      "--output {} --set minimax-eval-asr-wer-en.model=pocketsphinx-en --set \"minimax-eval-asr-wer-en.prompt=''\" "
      "--set simo.model=signal-vector",
      (dir_ / "registry").string(), tree_.string(), output.string()));
  ASSERT_EQ(0, run.status) << run.output;
  const auto results = aeval::testing::read_only_run(output);
  EXPECT_EQ(3, results.summary["counts"]["samples"]) << results.summary.dump();
  EXPECT_EQ(0, results.summary["counts"]["failed"]) << results.samples_text;
  ASSERT_EQ(3u, results.by_id.size());
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"english_female", "Overridden later."},
      {"english_male", "Prompt of the male voice | with a pipe"},
      {"english_female", "Overridden later."}};
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const json& record = results.by_id.at(std::to_string(k));
    EXPECT_EQ(rows[k].first, record["fields"]["speaker"]) << record.dump();
    EXPECT_EQ(rows[k].second, record["fields"]["prompt_text"]) << record.dump();
    EXPECT_EQ(record["fields"]["WavPath"], record["reference"]) << record.dump();
    EXPECT_EQ(record["fields"]["WavPath"], record["audio"]) << record.dump();
  }
  // Each request carried UEA's voice-clone prompt: the text to say, the voice's transcript, the voice.
  ASSERT_EQ(3u, model.received().size());
  std::set<std::string> said;
  for (const auto& r : model.received()) said.insert(r.body.dump());
  for (const char* text : {"Hello there, how are you?", "The quick | brown fox.", "Second line with spaces",
                           "Prompt of the male voice | with a pipe"}) {
    EXPECT_TRUE(std::any_of(said.begin(), said.end(), [&](const std::string& b) { return b.find(text) != std::string::npos; }))
        << text;
  }
}

}  // namespace
