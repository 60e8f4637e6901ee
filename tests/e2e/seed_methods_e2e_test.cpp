// The seed methods on their own benchmarks, against local stand-ins: RELATE's
// ratings CSV and Baton's label files in their published layouts served over
// HTTP, PAM's and CompA's lists as their archives hold them, clips in the folders their rows name, and a scripted judge run as the
// model under test. The averaged ratings, the correlations, ROC-AUC and both
// pair rules are computed again by Python's csv and json modules, SciPy,
// scikit-learn and a construction of their own (tests/differential/reference_tools.py).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <tuple>

#include "aeval/audio_io.hpp"
#include "support/anyaudio_judge_stand_in.hpp"
#include "support/audiocapbench_stand_in.hpp"
#include "support/file_server.hpp"
#include "support/hub_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "datasets/table_reader.hpp"
#include "support/judge_replies.hpp"
#include "support/python_references.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "util/sha256.hpp"

namespace {

using aeval::testing::FileServer;
using aeval::testing::OpenAiTestServer;
using aeval::testing::ReceivedRequest;
using aeval::testing::run_aeval;
using aeval::testing::ScriptedReply;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;
using nlohmann::json;

// REL.csv's header and rows as its publishers write them: wavname from the archive's root, one
// row per listener, a text with a comma quoted, anchors and other splits that a test run skips.
std::string relate_csv() {
  std::string csv = "wavname,text,score,listener_id,audio type,anchor label,in RELATE dataset,in AudioCaps\n";
  const std::vector<std::string> texts = {"A dog barks while birds chirp", "\"Rain falls, then thunder rumbles\"",
                                          "A man speaks and a door closes"};
  const std::vector<std::string> systems = {"audiocaps", "audioldm", "tango2"};
  for (std::size_t t = 0; t < texts.size(); ++t)
    for (std::size_t s = 0; s < systems.size(); ++s)
      for (int listener = 0; listener < 3; ++listener) {
        // Averaged, clips of one text differ by more than 2, by exactly 2 (no pair) or by less.
        const int score = int((s == 0 ? t * 2 + std::size_t(listener) + 9 : t * 2 + s * 2 + std::size_t(listener)) % 11);
        csv += fmt::format("/{}/test/{}.wav,{},{},{:04d},{},False,test,test\n", systems[s], 100 + t, texts[t], score,
                           listener, systems[s] == "audiocaps" ? "natural" : systems[s]);
      }
  csv += "/tango2/test/100.wav,A cat meows,0,0007,tango,True,excluded,\n";
  csv += "/audioldm/train/5.wav,Wind blows,9,0001,audioldm,False,train,train\n";
  return csv;
}

// Baton's label files as its publishers write them: JSON lines naming each clip by its path in
// their share (captions with commas and apostrophes in the names), feedback 1 or 0. The clips
// are written where those paths lead under `audio_dir`.
std::string baton_lines(int events, const std::filesystem::path& audio_dir) {
  const std::string folder = events == 2 ? "2label_Integrity_HD_Audio" : "3label_Temporal_HD_Audio";
  const std::vector<std::string> captions = {"A dog barks, then a bell rings", "Rain falls and a man's voice follows",
                                             "An engine starts, then a guitar strums"};
  std::string lines;
  for (std::size_t p = 0; p < captions.size(); ++p)
    for (int k = 0; k < 4; ++k) {
      const std::string location =
          fmt::format("Baton/data/Audio/{}/{:04d}_{}_{}.wav", folder, p + std::size_t(events) * 10, captions[p], k);
      std::vector<float> tone(4000);
      for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = 0.1f * std::sin(0.003f * float(i * (p * 4 + k + events)));
      std::filesystem::create_directories((audio_dir / location).parent_path());
      aeval::write_wav(audio_dir / location, aeval::Audio{tone, 16000, 1});
      const int feedback = p == 2 ? 1 : int((k + p) % 3 == 0);  // the third prompt has no rejected clip: no pair
      lines += json{{"dataset", fmt::format("{}label_HA", events)}, {"location", location}, {"captions", captions[p]},
                    {"feedback", feedback}}
                   .dump() +
               "\n";
    }
  return lines;
}

// CompA's lists as its archives hold them: CompA-order's with triplet columns ("-" where none), and
// CompA-attribute's header naming pair_file and reversed_pair_file twice, the second pair naming the
// clips. Two clips an item, written into the archive's files folder.
std::string compa_csv(bool attribute, const std::filesystem::path& files) {
  std::string csv = attribute ? "pair_caption,reversed_pair_caption,pair_file,reversed_pair_file,pair_file,reversed_pair_file\n"
                              : "pair_caption,reversed_pair_caption,pair_file,reversed_pair_file,triplet_caption,triplet_file\n";
  std::filesystem::create_directories(files);
  for (int item = 0; item < 5; ++item) {
    std::string clip[2];
    for (int k = 0; k < 2; ++k) {
      clip[k] = fmt::format("{}_{}_{}.wav", attribute ? "attr" : "order", item, k);
      std::vector<float> tone(3000);
      for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = 0.1f * std::sin(0.002f * float(i * std::size_t(item * 2 + k + 1)));
      aeval::write_wav(files / clip[k], aeval::Audio{tone, 16000, 1});
    }
    const std::string a = fmt::format("\"A dog barks, then bell {} rings\"", item), b = fmt::format("\"Bell {} rings, then a dog barks\"", item);
    csv += attribute ? fmt::format("{},{},orig_{}.wav,orig_{}_r.wav,{},{}\n", a, b, item, item, clip[0], clip[1])
                     : fmt::format("{},{},{},{},-,-\n", a, b, clip[0], clip[1]);
  }
  return csv;
}

// PAM's human_eval/audio as its archive holds it: scores.csv (a row per clip, means of its raters) and
// a folder per system named by the Model column.
std::string pam_csv(const std::filesystem::path& folder) {
  std::string csv = "Text,Model,File Name,OVL,REL\n";
  const std::vector<std::string> systems = {"real", "audiogen_m", "audioldm_l"};
  for (int prompt = 0; prompt < 3; ++prompt)
    for (std::size_t s = 0; s < systems.size(); ++s) {
      const std::string name = fmt::format("{}_audio_index_{:03d}", s == 0 ? "real" : "generated", prompt);
      std::vector<float> tone(3000);
      for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = 0.1f * std::sin(0.004f * float(i * (std::size_t(prompt) * 3 + s + 1)));
      std::filesystem::create_directories(folder / systems[s]);
      aeval::write_wav(folder / systems[s] / (name + ".wav"), aeval::Audio{tone, 16000, 1});
      csv += fmt::format("\"Birds chirp, wind {}\",{},{},{:.1f},{:.1f}\n", prompt, systems[s], name,
                         3.0 + 0.1 * double(s), 1.0 + 0.4 * double((prompt * 5 + int(s) * 3) % 11));
    }
  return csv;
}

// AnyAudio-Judge Bench as its Hub repository holds it: a Parquet file per language whose audio
// struct holds no bytes, only the clip's path under the shared audios/ folder, and each row's
// rubric as a list of {dimension, question, basis}. Four rows a subset, half of them mismatched,
// one to three questions each (one row none), two rows of a subset sharing a clip.
struct AnyAudioBench {
  aeval::testing::HubTestRepo repo;
  json rows = json::array();  // uuid, label, subset, questions
  std::size_t clips = 0;
};

AnyAudioBench anyaudio_bench(const std::filesystem::path& dir) {
  AnyAudioBench bench;
  bench.repo.main.commit = aeval::testing::test_commit("anyaudio-judge-bench");
  bench.repo.configs = json::parse(R"([{"config_name": "en", "data_files": [{"split": "test", "path": "en/test-*.parquet"}]},
                                       {"config_name": "zh", "data_files": [{"split": "test", "path": "zh/test-*.parquet"}]}])");
  const std::vector<std::string> subsets = {"speech", "speech_gen", "sound", "sound_gen", "music", "music_gen", "mix"};
  for (const char* language : {"en", "zh"}) {
    std::string values;
    for (std::size_t s = 0; s < subsets.size(); ++s)
      for (int r = 0; r < 4; ++r) {
        const std::string clip = fmt::format("audios/{}/{}.wav", subsets[s], r % 3);
        if (!std::filesystem::exists(dir / clip)) {
          std::vector<float> tone(4000);
          for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = 0.1f * std::sin(0.002f * float(i * (s * 3 + std::size_t(r % 3) + 1)));
          std::filesystem::create_directories((dir / clip).parent_path());
          aeval::write_wav(dir / clip, aeval::Audio{tone, 16000, 1});
          bench.repo.main.files[clip] = dir / clip;
          ++bench.clips;
        }
        const int questions = subsets[s] == "mix" && r == 3 ? 0 : int((std::size_t(r) + s) % 3) + 1;
        std::string rubric;
        for (int k = 0; k < questions; ++k)
          rubric += fmt::format("{}{{'dimension': '维度{}', 'question': '{}的第{}个问题：音频与描述相符吗？', 'basis': 'b{}'}}",
                                k ? ", " : "", k, subsets[s], r * 3 + k, k);
        const std::string uuid = fmt::format("{}-{}", subsets[s], r);
        values += fmt::format("{}('{}', {{'bytes': NULL::BLOB, 'path': '{}'}}, '{} caption {}', '{}', 'pos', '{}', "
                              "{}::STRUCT(dimension VARCHAR, question VARCHAR, basis VARCHAR)[])",
                              values.empty() ? "" : ", ", uuid, clip, language, uuid, r % 2 ? "no" : "yes", subsets[s],
                              "[" + rubric + "]");
        if (std::string(language) == "en")
          bench.rows.push_back({{"uuid", uuid}, {"label", r % 2 ? "no" : "yes"}, {"subset", subsets[s]}, {"questions", questions}});
      }
    const auto file = dir / fmt::format("{}-test.parquet", language);
    aeval::testing::write_parquet(
        "SELECT * FROM (VALUES " + values + ") AS t(uuid, audio, caption, label, type, subset, rubric)", file);
    bench.repo.main.files[fmt::format("{}/test-00000-of-00001.parquet", language)] = file;
  }
  return bench;
}

// AudioCapBench as its publishers release it: the evaluation script (here a stand-in holding only
// CATEGORY_INSTRUCTIONS, written with a comment, adjacent strings and both quote styles) and four id
// lists at a commit, and four Hub datasets with a row per caption (Clotho, AudioCaps), per clip
// (MusicCaps: the last row of an id counts; speech: the first). Lists name a clip no dataset holds,
// a key with a comma, padding to strip; AudioCaps keys one row by file_name.
struct AudioCapBench {
  std::map<std::string, aeval::testing::HubTestRepo> repos;
  std::map<std::string, std::string> release;  // route → bytes
  json rows = json::object();                  // source → its Hub rows, in order
  json counts = {{"clotho", 4}, {"audiocaps", 3}, {"musiccaps", 3}, {"speech", 2}};
};

AudioCapBench audiocapbench_release(const std::filesystem::path& dir) {
  AudioCapBench b;
  b.release["/acb/audiocapbench/metrics.py"] = aeval::testing::kAudioCapBenchMetricsStandIn;  // the judge prompt's
  b.release["/acb/audiocapbench/evaluate.py"] =
      "\"\"\"Stand-in for the benchmark's evaluation script.\"\"\"\nimport re\n\n"
      "# Instructions per category, two wordings each.\n"
      "CATEGORY_INSTRUCTIONS = {\n"
      "    \"sound\": [\n        \"Say what is heard.\",  # the first wording\n        'Name the sources ' \"you hear.\",\n    ],\n"
      "    \"music\": [\"Describe the piece's style.\", \"Which instruments play? {not a field}\"],\n"
      "    \"speech\": ['Who speaks, and how?', \"What is said, and in what mood?\"],\n}\n\n"
      "OTHER = {\"sound\": [\"not this\"]}\n";
  b.release["/acb/eval_data_ids/clotho_eval.csv"] =
      "audio_name,duration_s,num_captions,sample_caption\nPark 3,26.5,5,a\nPulley Sounds,28.7,5,b\n\"Rain, heavy\",10,5,c\n"
      ",1,1,no name\n  Missing clip ,3,5,d\nExtra,4,5,e\n";
  b.release["/acb/eval_data_ids/audiocaps_eval.csv"] = "youtube_id,duration_s,num_captions,sample_caption\nA1,10,5,x\nB2,10,5,y\nC3,10,5,z\n";
  b.release["/acb/eval_data_ids/musiccaps_eval.csv"] =
      "ytid,start_s,end_s,caption,aspect_list\nM1,30,40,c,\"['a']\"\nM2,0,10,c,\"['b']\"\nM3,5,15,c,\"['c']\"\n";
  b.release["/acb/eval_data_ids/speech_eval.csv"] =
      "index,transcript,caption,duration_s\n0,\"Hello there, friend.\",c,2\n1,We leave at dawn.,c,3\n";
  b.rows["clotho"] = json::array({{{"audio_name", "Park 3"}, {"caption", "Birds sing in a park."}},
                                  {{"audio_name", "Unlisted"}, {"caption", "Not in the list."}},
                                  {{"audio_name", "Park 3"}, {"caption", ""}},
                                  {{"audio_name", "Rain, heavy"}, {"caption", "Heavy rain falls on a roof."}},
                                  {{"audio_name", "Park 3"}, {"caption", "A dog barks while birds chirp."}},
                                  {{"audio_name", "Pulley Sounds"}, {"caption", "A pulley squeaks as a rope runs."}},
                                  {{"audio_name", "Rain, heavy"}, {"caption", "Rain pours and thunder rolls."}},
                                  {{"audio_name", "Extra"}, {"caption", "Beyond the count."}}});
  b.rows["audiocaps"] = json::array({{{"youtube_id", "A1"}, {"file_name", "a1.wav"}, {"caption", "A man speaks over wind."}},
                                     {{"youtube_id", ""}, {"file_name", "B2"}, {"caption", "An engine idles."}},
                                     {{"youtube_id", "A1"}, {"file_name", "a1.wav"}, {"caption", "Wind blows as a man talks."}},
                                     {{"youtube_id", "C3"}, {"file_name", "c3.wav"}, {"caption", "Water runs from a tap."}}});
  b.rows["musiccaps"] = json::array({{{"ytid", "M1"}, {"caption", "An early take."}, {"aspect_list", "['ignored']"}},
                                     {{"ytid", "M2"}, {"caption", "A choir sings over piano."}, {"aspect_list", "['piano', \"children's choir\"]"}},
                                     {{"ytid", "M1"}, {"caption", "A rock song with loud guitars."}, {"aspect_list", "['rock', 'electric guitar']"}},
                                     {{"ytid", "M3"}, {"caption", ""}, {"aspect_list", "calm, slow"}}});
  b.rows["speech"] = json::array({{{"transcript", "We leave at dawn."}, {"caption", "A calm male voice speaks slowly."}},
                                  {{"transcript", "We leave at dawn."}, {"caption", "A second row, not read."}},
                                  {{"transcript", "Hello there, friend."}, {"caption", ""}}});
  const std::map<std::string, std::pair<std::string, std::vector<std::string>>> layout = {
      {"clotho", {"test", {"audio_name", "caption"}}},
      {"audiocaps", {"test", {"youtube_id", "file_name", "caption"}}},
      {"musiccaps", {"train", {"ytid", "caption", "aspect_list"}}},
      {"speech", {"train", {"transcript", "caption"}}}};
  for (const auto& [source, shape] : layout) {
    std::string rows;
    int k = 0;
    for (const auto& row : b.rows[source]) {
      std::vector<float> tone(3200);
      for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = 0.1f * std::sin(0.003f * float(i * std::size_t(k + 1 + 7 * int(source.size()))));
      const auto wav = dir / source / fmt::format("{}.wav", k);
      std::filesystem::create_directories(wav.parent_path());
      aeval::write_wav(wav, aeval::Audio{tone, 16000, 1});
      std::string select;
      for (const auto& column : shape.second)
        select += fmt::format("{} AS \"{}\", ", aeval::datasets::TableReader::literal(row[column].get<std::string>()), column);
      rows += fmt::format("{}SELECT {}{{'bytes': content, 'path': '{}.wav'}} AS audio, {} AS row_order FROM read_blob({})",
                          k ? " UNION ALL " : "", select, k, k, aeval::datasets::TableReader::literal(wav.string()));
      ++k;
    }
    std::string columns;
    for (const auto& column : shape.second) columns += "\"" + column + "\", ";
    const auto file = dir / source / "split.parquet";
    aeval::testing::write_parquet(fmt::format("SELECT {}audio FROM ({}) ORDER BY row_order", columns, rows), file);
    auto& repo = b.repos["acme/" + source];
    repo.main.commit = aeval::testing::test_commit("acme/" + source);
    repo.main.files[fmt::format("data/{}-00000-of-00001.parquet", shape.first)] = file;
  }
  return b;
}

// The registry entry reading that release: files served by `server`, the Hub datasets acme/SOURCE.
std::string audiocapbench_entry(const AudioCapBench& b, const FileServer& server) {
  std::string yaml = fmt::format("audiocapbench:\n  class: audiocapbench\n  args:\n    release: {}\n    sha256:\n",
                                 server.url("/acb"));
  for (const auto& [route, bytes] : b.release)
    yaml += fmt::format("      {}: {}\n", route.substr(5), aeval::sha256_hex(bytes));
  yaml += "    hub: {clotho: acme/clotho, audiocaps: acme/audiocaps, musiccaps: acme/musiccaps, speech: acme/speech}\n";
  yaml += "    counts: " + b.counts.dump() + "\n    default_task: audiocapbench\n";
  return yaml;
}

// Python's answer to one case of `kind`.
json python_reference(const std::string& kind, const json& request) {
  return aeval::testing::python_references(kind, json::array({request})).at(0);
}

TEST(SeedMethodsE2E, TheSuiteRanksTheJudgeOnRelateBatonCompaAndPamAsTheirPaperDoes) {
  AEVAL_REQUIRE(aeval::testing::python_references_available(), "python3-scipy and python3-sklearn");
  TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());  // downloads counted from none
  const std::string csv = relate_csv();
  write_bytes(dir / "REL.csv", csv);
  FileServer ratings("/scores/REL.csv", csv);
  // The archive's folders, a distinct clip in each.
  int k = 0;
  for (const char* system : {"audiocaps", "audioldm", "tango2"})
    for (int t = 100; t < 103; ++t) {
      std::vector<float> tone(8000);
      for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = 0.1f * std::sin(0.01f * float((k + 1) * i));
      ++k;
      std::filesystem::create_directories(dir / "RELATE_wave" / system / "test");
      aeval::write_wav(dir / "RELATE_wave" / system / "test" / fmt::format("{}.wav", t), aeval::Audio{tone, 16000, 1});
    }
  std::atomic<int> two_clip_requests = 0;  // the prompting setup's pairs, both clips heard
  std::atomic<int> caption_requests = 0, one_clip_captions = 0;  // the cascade setup's first stage
  std::mutex compared_mutex;
  std::set<std::string> compared;  // the cascade on pairs: "caption 1|caption 2" as the text LLM read them
  // The judge's p(yes), or the holistic judge's verdict, follows from what it hears and reads.
  OpenAiTestServer judge([&](const ReceivedRequest& r, int) {
    const std::string heard = aeval::testing::all_text(r) + aeval::testing::sent_audio(r);
    ScriptedReply reply;
    if (heard.find("\"Consistency\"") != std::string::npos) {
      reply.text = fmt::format("{{\"Consistency\": {}}}", std::hash<std::string>{}(heard) % 2 ? "true" : "false");
      return reply;
    }
    if (heard.find("Rate the match from") != std::string::npos) {  // the prompting and cascade setups' rating
      reply.text = fmt::format("The clip fits.\nScore: {}", std::hash<std::string>{}(heard) % 6);
      return reply;
    }
    if (heard.find("decide whether this audio should be accepted") != std::string::npos ||
        heard.find("Evaluate whether the audio caption matches") != std::string::npos) {  // Baton's decisions
      const char* said = std::hash<std::string>{}(heard) % 2 ? "preferred" : "rejected";
      reply.text = heard.find("Decision:") != std::string::npos ? fmt::format("Decision: {}", said) : fmt::format("Answer: {}", said);
      return reply;
    }
    if (heard.find("Which audio matches the description more accurately?") != std::string::npos) {  // a pair
      int clips = 0;
      for (const auto& m : r.body["messages"])
        for (const auto& part : m["content"]) clips += part.is_object() && part.value("type", "") == "input_audio";
      two_clip_requests += clips == 2;
      reply.text = fmt::format("Better Match: {} audio", std::hash<std::string>{}(heard) % 2 ? "first" : "second");
      return reply;
    }
    if (heard.find("Evaluate which audio caption better matches") != std::string::npos) {  // the cascade on pairs
      const std::string text = aeval::testing::all_text(r);
      const auto between = [&](const std::string& from, const std::string& to) {
        const auto a = text.find(from) + from.size();
        return text.substr(a, text.find(to, a) - a);
      };
      {
        const std::lock_guard lock(compared_mutex);
        compared.insert(between("- Audio caption 1:\n", "\n- Audio caption 2:") + "|" +
                        between("- Audio caption 2:\n", "\nDecide which caption"));
      }
      reply.text = fmt::format("Caption 1 misses a sound.\nBetter Caption: {}", std::hash<std::string>{}(heard) % 2 ? 1 : 2);
      return reply;
    }
    if (heard.find("generate a detailed caption") != std::string::npos) {  // the cascade setup's first stage
      int clips = 0;
      for (const auto& m : r.body["messages"])
        if (m["content"].is_array())
          for (const auto& part : m["content"]) clips += part.is_object() && part.value("type", "") == "input_audio";
      ++caption_requests;
      one_clip_captions += clips == 1;
      reply.text = fmt::format("a sound heard {} times", std::hash<std::string>{}(heard) % 5);
      return reply;
    }
    reply.text = "Yes";
    reply.logprobs = aeval::testing::first_token(
        {{"Yes", -double(std::hash<std::string>{}(heard) % 3000) / 1000.0}, {"No", -1.2}});
    return reply;
  });
  aeval::testing::point_judges_at(dir / "registry", judge);
  const std::string baton[2] = {baton_lines(2, dir / "baton"), baton_lines(3, dir / "baton")};
  write_bytes(dir / "2label_HA.json", baton[0]);
  write_bytes(dir / "3label_HA.json", baton[1]);
  FileServer two_events("/data/HA/2label_HA.json", baton[0]), three_events("/data/HA/3label_HA.json", baton[1]);
  std::string sets = fmt::format("--set relate-test.url={} --set relate-test.sha256={} --set relate-test.audio_dir={}",
                                 ratings.url("/scores/REL.csv"), aeval::sha256_hex(csv), (dir / "RELATE_wave").string());
  write_bytes(dir / "human_eval" / "audio" / "scores.csv", pam_csv(dir / "human_eval" / "audio"));
  sets += fmt::format(" --set pam-sounds.path={}", (dir / "human_eval" / "audio" / "scores.csv").string());
  for (const char* compa : {"compa-order", "compa-attribute"}) {
    const bool attribute = std::string(compa) == "compa-attribute";
    write_bytes(dir / fmt::format("{}.csv", compa), compa_csv(attribute, dir / compa / "files"));
    sets += fmt::format(" --set {0}-items.path={1} --set {0}-items.audio_dir={2}", compa, (dir / fmt::format("{}.csv", compa)).string(),
                        (dir / compa / "files").string());
  }
  for (int events : {2, 3})
    sets += fmt::format(" --set baton-{0}label.url={1} --set baton-{0}label.sha256={2} --set baton-{0}label.audio_dir={3}",
                        events, (events == 2 ? two_events : three_events).url(fmt::format("/data/HA/{}label_HA.json", events)),
                        aeval::sha256_hex(baton[events - 2]), (dir / "baton").string());
  const AnyAudioBench bench = anyaudio_bench(dir / "hub");
  aeval::testing::HubTestServer hub({{"cucl2/AnyAudio-Judge-Bench", bench.repo}});
  const aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  const aeval::testing::AnyAudioJudgeStandIn anyaudio_prompts(dir / "registry");  // the judge's prompt, from its release
  std::filesystem::create_directories(dir / "registry" / "datasets");
  const aeval::testing::ScopedEnv online("HF_HUB_OFFLINE", nullptr);
  const auto o = run_aeval(fmt::format("--registry {} run --suite seed-methods --model qwen2.5-omni-judge {} -q --output {}",
                                       (dir / "registry").string(), sets, (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(ratings.requests(), 1) << "the ratings are downloaded once and kept";

  const auto relate = aeval::testing::read_only_run(dir / "out" / "relate");
  const auto pairs = aeval::testing::read_only_run(dir / "out" / "relate-pair");
  json scores = json::object();
  for (const auto& [id, record] : relate.by_id) scores[id] = record["scores"]["answer-aqascore"]["value"];
  const json reference =
      python_reference("rated_csv", {{"csv", (dir / "REL.csv").string()}, {"split", "test"}, {"scores", scores}});
  ASSERT_EQ(reference["clips"], 9);
  ASSERT_EQ(relate.by_id.size(), 9u) << "the test split's clips, once each";
  for (const auto& [id, record] : relate.by_id) {
    EXPECT_DOUBLE_EQ(record["fields"]["human_score"].get<double>(), reference["means"][id].get<double>()) << id;
    EXPECT_EQ(record["fields"]["ratings"], 3) << id;
  }
  const json& m = relate.summary["metrics"];
  EXPECT_NEAR(m["answer-aqascore-lcc"]["value"].get<double>(), reference["pearson"].get<double>(), 1e-12);
  EXPECT_NEAR(m["answer-aqascore-srcc"]["value"].get<double>(), reference["spearman"].get<double>(), 1e-12);
  EXPECT_NEAR(m["answer-aqascore-ktau"]["value"].get<double>(), reference["kendall"].get<double>(), 1e-12);
  const json& p = pairs.summary["metrics"]["answer-aqascore-pair-accuracy"];
  EXPECT_EQ(p["pairs"], reference["pairs"]);
  EXPECT_EQ(reference["pairs"].get<int>(), 3) << "a pair of generated clips a text";
  EXPECT_DOUBLE_EQ(p["value"].get<double>(), reference["pairwise_accuracy"].get<double>());

  // Baton: ROC-AUC on the feedback, and every preferred clip of a prompt against every rejected one.
  for (int events : {2, 3}) {
    const auto auc = aeval::testing::read_only_run(dir / "out" / fmt::format("baton-{}-events", events));
    const auto paired = aeval::testing::read_only_run(dir / "out" / fmt::format("baton-pair-{}-events", events));
    ASSERT_EQ(auc.by_id.size(), 12u);
    json judged = json::object();
    for (const auto& [id, record] : auc.by_id) judged[id] = record["scores"]["answer-aqascore"]["value"];
    const json expected = python_reference(
        "feedback_jsonl", {{"jsonl", (dir / fmt::format("{}label_HA.json", events)).string()}, {"scores", judged}});
    EXPECT_NEAR(auc.summary["metrics"]["answer-aqascore-auc"]["value"].get<double>(), expected["roc_auc"].get<double>(), 1e-12);
    const json& p2 = paired.summary["metrics"]["answer-aqascore-feedback-pair-accuracy"];
    EXPECT_EQ(p2["pairs"], expected["pairs"]) << events;
    EXPECT_EQ(expected["pairs"], 7) << "2 preferred × 2 rejected, 1 × 3, and none where people preferred every clip";
    EXPECT_DOUBLE_EQ(p2["value"].get<double>(), expected["pairwise_accuracy"].get<double>()) << events;
  }

  // PAM: a row per clip already, REL against p(yes), the clips found in their systems' folders.
  const auto pam = aeval::testing::read_only_run(dir / "out" / "pam");
  ASSERT_EQ(pam.by_id.size(), 9u);
  json pam_scores = json::object();
  for (const auto& [id, record] : pam.by_id) pam_scores[id] = record["scores"]["answer-aqascore"]["value"];
  const json pam_expected =
      python_reference("pam_csv", {{"csv", (dir / "human_eval" / "audio" / "scores.csv").string()}, {"scores", pam_scores}});
  for (const auto& [metric, key] : {std::pair{"lcc", "pearson"}, {"srcc", "spearman"}, {"ktau", "kendall"}})
    EXPECT_NEAR(pam.summary["metrics"][fmt::format("answer-aqascore-{}", metric)]["value"].get<double>(),
                pam_expected[key].get<double>(), 1e-12)
        << metric;

  // The prompting setup (Table 2's Prompting rows): the rating the judge states, asked with the paper's prompts,
  // against the same ratings.
  std::string relate_pam_sets;
  for (const char* dataset : {"relate-test", "pam-sounds"})
    for (std::size_t at = sets.find(std::string("--set ") + dataset); at != std::string::npos;
         at = sets.find(std::string("--set ") + dataset, at + 1))
      relate_pam_sets += " " + sets.substr(at, sets.find(" --set", at + 1) - at);
  for (const char* task : {"relate-prompting", "pam-prompting", "relate-cascade", "pam-cascade"}) {
    const auto prompted = run_aeval(fmt::format("--registry {} run --task {} --model qwen2.5-omni-judge {} -q --output {}",
                                                (dir / "registry").string(), task, relate_pam_sets, (dir / "out").string()));
    ASSERT_EQ(prompted.status, 0) << prompted.output;
  }
  // The cascade setup: the judge's caption, rated by the judge against the text.
  for (const auto& [task, rating] : {std::pair{"relate-prompting", "answer-rating"}, {"pam-prompting", "answer-rating"},
                                     {"relate-cascade", "relate-cascade-rating"}, {"pam-cascade", "pam-cascade-rating"}}) {
    const auto run = aeval::testing::read_only_run(dir / "out" / task);
    json ratings = json::object();
    for (const auto& [id, record] : run.by_id) ratings[id] = record["scores"][rating]["value"];
    const bool on_relate = std::string(task).rfind("relate", 0) == 0;
    const json expected =
        on_relate ? python_reference("rated_csv", {{"csv", (dir / "REL.csv").string()}, {"split", "test"}, {"scores", ratings}})
                  : python_reference("pam_csv", {{"csv", (dir / "human_eval" / "audio" / "scores.csv").string()}, {"scores", ratings}});
    ASSERT_EQ(ratings.size(), 9u) << task;
    EXPECT_TRUE(std::any_of(ratings.begin(), ratings.end(), [](const json& v) { return v != 0; })) << task;
    for (const auto& [metric, key] : {std::pair{"lcc", "pearson"}, {"srcc", "spearman"}, {"ktau", "kendall"}})
      EXPECT_NEAR(run.summary["metrics"][fmt::format("{}-{}", rating, metric)]["value"].get<double>(),
                  expected[key].get<double>(), 1e-12)
          << task << " " << metric;
  }
  // Baton's prompting and cascade setups: the stated decision, 1 or 0, against people's feedback.
  std::string baton_sets;
  for (std::size_t at = sets.find("--set baton-"); at != std::string::npos; at = sets.find("--set baton-", at + 1))
    baton_sets += " " + sets.substr(at, sets.find(" --set", at + 1) - at);
  for (const auto& [task, decision] : {std::pair{"baton-2-events-prompting", "baton-decision"},
                                       {"baton-3-events-cascade", "baton-cascade-decision"}}) {
    const auto decided = run_aeval(fmt::format("--registry {} run --task {} --model qwen2.5-omni-judge {} -q --output {}",
                                               (dir / "registry").string(), task, baton_sets, (dir / "out").string()));
    ASSERT_EQ(decided.status, 0) << decided.output;
    const auto run = aeval::testing::read_only_run(dir / "out" / task);
    json decisions = json::object();
    for (const auto& [id, record] : run.by_id) {
      decisions[id] = record["scores"][decision]["value"];
      const std::string said = record["scores"][decision].value("answer", record["prediction"].get<std::string>());
      EXPECT_EQ(decisions[id], said.find("preferred") != std::string::npos ? 1.0 : 0.0) << task << " " << said;
    }
    ASSERT_EQ(decisions.size(), 12u) << task;
    const int events = std::string(task).find("-2-") != std::string::npos ? 2 : 3;
    const json expected = python_reference(
        "feedback_jsonl", {{"jsonl", (dir / fmt::format("{}label_HA.json", events)).string()}, {"scores", decisions}});
    EXPECT_NEAR(run.summary["metrics"][std::string(decision) + "-auc"]["value"].get<double>(), expected["roc_auc"].get<double>(),
                1e-12)
        << task;
  }
  // The prompting setup on pairs (Table 3's Prompting rows of RELATE-Pair and Baton-Pair): a sample per pair the
  // per-clip pair accuracies form, both clips heard at once, right when the judge names the one people preferred.
  const int relate_pairs = reference["pairs"].get<int>();
  for (const auto& [task, pair_sets, pairs] : {std::tuple{"relate-pair-prompting", relate_pam_sets, relate_pairs},
                                               {"baton-2-events-pair-prompting", baton_sets, 7},
                                               {"baton-3-events-pair-prompting", baton_sets, 7}}) {
    const int heard_before = two_clip_requests;
    const auto chosen = run_aeval(fmt::format("--registry {} run --task {} --model qwen2.5-omni-judge {} -q --output {}",
                                              (dir / "registry").string(), task, pair_sets, (dir / "out").string()));
    ASSERT_EQ(chosen.status, 0) << chosen.output;
    const auto run = aeval::testing::read_only_run(dir / "out" / task);
    ASSERT_EQ(int(run.by_id.size()), pairs) << task;
    EXPECT_EQ(two_clip_requests - heard_before, pairs) << task << ": each pair's request carries both clips";
    double right = 0;
    for (const auto& [id, record] : run.by_id) {
      const json& f = record["fields"];
      EXPECT_EQ(id, f["clip_a"].get<std::string>() + "|" + f["clip_b"].get<std::string>());
      EXPECT_GT(std::fabs(f["human_a"].get<double>() - f["human_b"].get<double>()), std::string(task).rfind("relate", 0) == 0 ? 2 : 0);
      const bool first_preferred = f["human_a"].get<double>() > f["human_b"].get<double>();
      EXPECT_EQ(f["first_preferred"], first_preferred ? "yes" : "no") << id;
      const bool said_first = record["prediction"].get<std::string>().find("first") != std::string::npos;
      EXPECT_EQ(record["scores"]["pair-choice"]["value"], said_first ? 1.0 : 0.0) << id;
      right += said_first == first_preferred;
    }
    EXPECT_DOUBLE_EQ(run.summary["metrics"]["pair-choice-accuracy"]["value"].get<double>(), right / pairs) << task;
  }
  const auto cascade = aeval::testing::read_only_run(dir / "out" / "relate-cascade");
  EXPECT_NE(cascade.by_id.begin()->second["prediction"].get<std::string>().find("a sound heard"), std::string::npos)
      << "the first stage's caption is the prediction the second rates";
  // The cascade setup on pairs (Table 3's Cascade rows of RELATE-Pair and Baton-Pair): each clip captioned on its
  // own, as the cascade on RELATE captions it, then the two captions compared in one request of the text LLM.
  for (const auto& [task, pair_sets, pairs] : {std::tuple{"relate-pair-cascade", relate_pam_sets, relate_pairs},
                                               {"baton-2-events-pair-cascade", baton_sets, 7},
                                               {"baton-3-events-pair-cascade", baton_sets, 7}}) {
    const int captions_before = caption_requests, one_clip_before = one_clip_captions;
    const auto chosen = run_aeval(fmt::format("--registry {} run --task {} --model qwen2.5-omni-judge {} -q --output {}",
                                              (dir / "registry").string(), task, pair_sets, (dir / "out").string()));
    ASSERT_EQ(chosen.status, 0) << chosen.output;
    EXPECT_EQ(caption_requests - captions_before, 2 * pairs) << task << ": a caption request a clip";
    EXPECT_EQ(one_clip_captions - one_clip_before, 2 * pairs) << task << ": each with its clip alone";
    const auto run = aeval::testing::read_only_run(dir / "out" / task);
    ASSERT_EQ(int(run.by_id.size()), pairs) << task;
    double right = 0;
    for (const auto& [id, record] : run.by_id) {
      const json& f = record["fields"];
      const json captions = json::parse(record["prediction"].get<std::string>());
      ASSERT_EQ(captions.size(), 2u) << id;
      if (std::string(task) == "relate-pair-cascade") {  // the same request as the cascade on RELATE sends a clip
        EXPECT_EQ(captions[0], cascade.by_id.at(f["clip_a"].get<std::string>())["prediction"]) << id;
        EXPECT_EQ(captions[1], cascade.by_id.at(f["clip_b"].get<std::string>())["prediction"]) << id;
      }
      EXPECT_TRUE(compared.count(captions[0].get<std::string>() + "|" + captions[1].get<std::string>()))
          << id << ": the text LLM read the first clip's caption as caption 1";
      const json& choice = record["scores"]["caption-pair-choice"];
      const bool said_first = choice["answer"].get<std::string>().find("Better Caption: 1") != std::string::npos;
      EXPECT_EQ(choice["value"], said_first ? 1.0 : 0.0) << id;
      right += said_first == (f["first_preferred"] == "yes");
    }
    EXPECT_DOUBLE_EQ(run.summary["metrics"]["caption-pair-choice-accuracy"]["value"].get<double>(), right / pairs) << task;
  }

  // CompA: every clip with every caption, put together per item as its evaluation script does.
  for (const char* compa : {"compa-order", "compa-attribute"}) {
    const auto run = aeval::testing::read_only_run(dir / "out" / compa);
    ASSERT_EQ(run.by_id.size(), 20u) << compa;
    json judged = json::object();
    for (const auto& [id, record] : run.by_id) judged[id] = record["scores"]["answer-aqascore"]["value"];
    const json expected =
        python_reference("compa", {{"csv", (dir / fmt::format("{}.csv", compa)).string()}, {"scores", judged}});
    for (const char* which : {"text", "audio", "group"})
      EXPECT_DOUBLE_EQ(run.summary["metrics"][fmt::format("answer-aqascore-compa-{}", which)]["value"].get<double>(),
                       expected[which].get<double>())
          << compa << " " << which;
    EXPECT_EQ(run.summary["metrics"]["answer-aqascore-compa-group"]["items"], 5);
  }

  // The leaderboard holds each number against the paper's: this judge is no Qwen2.5-Omni-7B.
  const auto report = run_aeval(fmt::format("--registry {} report {}", (dir / "registry").string(), (dir / "out").string()), false);
  ASSERT_EQ(report.status, 0) << report.output;
  EXPECT_NE(report.output.find("| qwen2.5-omni-judge | answer-aqascore-lcc | 0.544 |"), std::string::npos) << report.output;
  EXPECT_NE(report.output.find("AQAScore Table 3 (Qwen2.5-Omni-7B)"), std::string::npos) << report.output;
  EXPECT_NE(report.output.find("AQAScore Table 4, CompA-Attribute Group (AF3)"), std::string::npos) << report.output;

  // The suite's table: a row per judge, each task on 100·x of its statistics (RELATE: the mean of its three
  // coefficients), as the papers' tables put a judge's numbers side by side.
  const auto suite = run_aeval(
      fmt::format("--registry {} report {} --suite seed-methods", (dir / "registry").string(), (dir / "out").string()), false);
  ASSERT_EQ(suite.status, 0) << suite.output;
  const std::string header = "| model | anyaudio-bench-en | anyaudio-bench-holistic-en | anyaudio-bench-holistic-zh | "
                             "anyaudio-bench-zh | baton-2-events | baton-3-events | "
                             "baton-pair-2-events | baton-pair-3-events | compa-attribute | compa-order | pam | relate | "
                             "relate-pair |";
  ASSERT_NE(suite.output.find(header), std::string::npos) << suite.output;
  const auto row_at = suite.output.find("| qwen2.5-omni-judge | ", suite.output.find(header));
  ASSERT_NE(row_at, std::string::npos) << suite.output;
  std::vector<std::string> cells;
  std::stringstream row(suite.output.substr(row_at + 2, suite.output.find('\n', row_at) - row_at - 2));
  for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell.substr(1, cell.size() - 2));
  ASSERT_GE(cells.size(), 14u) << suite.output;
  const double relate_score = 100 * (m["answer-aqascore-lcc"]["value"].get<double>() + m["answer-aqascore-srcc"]["value"].get<double>() +
                                     m["answer-aqascore-ktau"]["value"].get<double>()) / 3;
  EXPECT_EQ(cells[12], fmt::format("{:.2f}", relate_score)) << suite.output;
  EXPECT_EQ(cells[13].substr(0, cells[13].find(' ')), fmt::format("{:.2f}", 100 * p["value"].get<double>())) << suite.output;

  // A new release under the same name (other bytes, another SHA-256) is read, not the file kept before.
  std::string revised = csv;
  revised.replace(revised.find(",9,0000,"), 8, ",1,0000,");  // the first listener's first rating: 9 → 1
  FileServer revised_ratings("/scores/REL.csv", revised);
  const auto again = run_aeval(fmt::format(
      "--registry {} run --task relate --model qwen2.5-omni-judge --set relate-test.url={} --set relate-test.sha256={} "
      "--set relate-test.audio_dir={} -q --output {}",
      (dir / "registry").string(), revised_ratings.url("/scores/REL.csv"), aeval::sha256_hex(revised),
      (dir / "RELATE_wave").string(), (dir / "revised").string()));
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_EQ(revised_ratings.requests(), 1);
  const std::string first = "audiocaps/test/100.wav|A dog barks while birds chirp";
  EXPECT_NE(aeval::testing::read_only_run(dir / "revised").by_id.at(first)["fields"]["human_score"],
            relate.by_id.at(first)["fields"]["human_score"]);

  // Without the audio folder a run stops with one line saying where to give it; the ratings are fetched all
  // the same (where there is network, before the audio is at hand).
  const std::string no_audio = fmt::format("--set relate-test.url={} --set relate-test.sha256={}",
                                           revised_ratings.url("/scores/REL.csv"), aeval::sha256_hex(revised));
  const auto missing = run_aeval(fmt::format("--registry {} run --task relate --model qwen2.5-omni-judge {} -q --output {}",
                                             (dir / "registry").string(), no_audio, (dir / "none").string()));
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.output.find("dataset 'relate-test': give the folder of its audio: --set relate-test.audio_dir=DIR"),
            std::string::npos)
      << missing.output;
  write_bytes(dir / "registry" / "datasets" / "r.yaml",
              fmt::format("relate-test:\n  class: rated_clips\n  args:\n    url: {}\n    sha256: {}\n",
                          ratings.url("/scores/REL.csv"), aeval::sha256_hex(csv)));
  const auto fetched = run_aeval(fmt::format("--registry {} fetch dataset relate-test", (dir / "registry").string()));
  EXPECT_EQ(fetched.status, 0) << fetched.output;
  EXPECT_NE(fetched.output.find("relate-test: 9 samples cached (a run needs its audio: give the folder of its audio"),
            std::string::npos)
      << fetched.output;
}

TEST(SeedMethodsE2E, AnyAudioJudgeBenchAsksEveryRubricQuestionAndScoresRowsPerSubsetAsTheirTablesDo) {
  AEVAL_REQUIRE(aeval::testing::python_references_available(), "python3-scipy and python3-sklearn");
  TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  const aeval::testing::ScopedEnv offline("HF_HUB_OFFLINE", nullptr);
  AnyAudioBench bench = anyaudio_bench(dir / "hub");
  aeval::testing::HubTestServer hub({{"cucl2/AnyAudio-Judge-Bench", bench.repo}});
  const aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  std::mutex asked_mutex;
  std::map<std::string, std::string> asked;  // question → the clip sent with it
  OpenAiTestServer judge([&](const ReceivedRequest& r, int) {
    const std::string heard = aeval::testing::all_text(r) + aeval::testing::sent_audio(r);
    {
      std::lock_guard<std::mutex> lock(asked_mutex);
      asked[aeval::testing::all_text(r)] = aeval::testing::sent_audio(r);
    }
    ScriptedReply reply;
    if (heard.find("Answer every question.") != std::string::npos) {  // generate mode: every question at once
      std::string answers;
      for (int id = 0; id < 4; ++id) {  // more ids than a row has questions; some answers neither yes nor no
        const std::size_t pick = std::hash<std::string>{}(heard + std::to_string(id)) % (id ? 5 : 2);
        answers += fmt::format("{}{{\"id\": {}, \"answer\": \"{}\", \"evidence\": \"heard {}\"}}", id ? ", " : "", id,
                               pick == 0 ? "no" : pick == 4 ? "unclear" : "yes", id);
      }
      reply.text = "```json\n[" + answers + "]\n```";
      return reply;
    }
    if (heard.find("\"Consistency\"") != std::string::npos) {  // the holistic judge states its verdict in JSON
      reply.text = fmt::format("```json\n{{\"Audio Type\": \"sound\", \"Consistency\": {}}}\n```",
                               std::hash<std::string>{}(heard) % 2 ? "true" : "false");
      return reply;
    }
    reply.text = "yes";
    reply.logprobs = aeval::testing::first_token(
        {{"yes", -double(std::hash<std::string>{}(heard) % 2000) / 1000.0}, {"no", -1.0}});
    return reply;
  });
  aeval::testing::point_judges_at(dir / "registry", judge);
  const aeval::testing::AnyAudioJudgeStandIn anyaudio_prompts(dir / "registry");  // the judge's prompt, from its release
  for (const char* task : {"anyaudio-bench-en", "anyaudio-bench-zh", "anyaudio-bench-holistic-en", "anyaudio-bench-generate-en"}) {
    const auto o = run_aeval(fmt::format("--registry {} run --task {} --model qwen2.5-omni-judge -q --output {}",
                                         (dir / "registry").string(), task, (dir / "out").string()));
    ASSERT_EQ(o.status, 0) << o.output;
  }
  EXPECT_EQ(hub.downloads(), int(2 + bench.clips)) << "both files, and each clip once for both languages";
  {  // Offline, everything comes from the cache: the listing of the clips too.
    const aeval::testing::ScopedEnv no_network("HF_HUB_OFFLINE", "1");
    const int asked = hub.api_requests();
    const auto again = run_aeval(fmt::format("--registry {} run --task anyaudio-bench-zh --model qwen2.5-omni-judge -q --output {}",
                                             (dir / "registry").string(), (dir / "offline").string()));
    ASSERT_EQ(again.status, 0) << again.output;
    EXPECT_EQ(hub.api_requests(), asked);
  }

  std::size_t questions = 0;
  for (const auto& row : bench.rows) questions += row["questions"].get<std::size_t>();
  const auto run = aeval::testing::read_only_run(dir / "out" / "anyaudio-bench-en");
  ASSERT_EQ(run.by_id.size(), questions) << "a sample per rubric question; a row without questions gives none";
  const json& first = run.by_id.at("sound-0:2")["fields"];
  EXPECT_EQ(first["row_id"], "sound-0");
  EXPECT_EQ(first["question"], "sound的第1个问题：音频与描述相符吗？");
  EXPECT_EQ(first["dimension"], "维度1");
  EXPECT_EQ(first["label"], "yes");
  EXPECT_FALSE(first.contains("rubric"));
  // The judge heard the row's clip with each question, asked with the publisher's logits prompt (the stand-in's
  // words here, and its system prompt).
  const auto question = std::find_if(asked.begin(), asked.end(), [](const auto& a) {
    return a.first.find("Check: [维度1] sound的第1个问题：音频与描述相符吗？") != std::string::npos &&
           a.first.find("Answer yes or no about the audio.") != std::string::npos;
  });
  ASSERT_NE(question, asked.end());
  EXPECT_FALSE(question->second.empty());

  json scores = json::object();
  for (const auto& [id, record] : run.by_id) scores[id] = record["scores"]["answer-aqascore"]["value"];
  const json expected = python_reference("rubric_bench", {{"rows", bench.rows}, {"scores", scores}});
  const json& m = run.summary["metrics"];
  EXPECT_DOUBLE_EQ(m["anyaudio-accuracy"]["value"].get<double>(), expected["average"].get<double>());
  EXPECT_EQ(m["anyaudio-accuracy"]["items"], expected["rows"]);
  for (const auto& [subset, column] : std::map<std::string, std::string>{{"speech", "speech-real"}, {"speech_gen", "speech-gen"},
                                                                           {"sound", "sound-real"}, {"sound_gen", "sound-gen"},
                                                                           {"music", "music-real"}, {"music_gen", "music-gen"},
                                                                           {"mix", "mix"}}) {
    EXPECT_DOUBLE_EQ(m["anyaudio-accuracy-" + column]["value"].get<double>(), expected["per_subset"][subset].get<double>())
        << subset;
    EXPECT_DOUBLE_EQ(m["anyaudio-accuracy"]["accuracy_per_subset"][subset].get<double>(),
                     expected["per_subset"][subset].get<double>());
  }
  // The holistic prompt (the paper's Table 14): a sample per row, rows without questions too, the same columns,
  // each row decided by the verdict the judge states.
  const auto holistic = aeval::testing::read_only_run(dir / "out" / "anyaudio-bench-holistic-en");
  ASSERT_EQ(holistic.by_id.size(), bench.rows.size());
  json row_scores = json::object();
  for (const auto& [id, record] : holistic.by_id) row_scores[id] = record["scores"]["anyaudio-verdict"]["value"];
  EXPECT_TRUE(std::any_of(asked.begin(), asked.end(), [](const auto& a) {
    return a.first.find("Instruction and Audio to be Evaluated:\nen caption mix-3") != std::string::npos &&
           a.first.find("You are an expert with extensive acoustic knowledge.") == 0;
  })) << "the row's instruction, in the paper's holistic prompt";
  const json whole = python_reference("rubric_bench", {{"rows", bench.rows}, {"scores", row_scores}, {"holistic", true}});
  const json& h = holistic.summary["metrics"];
  EXPECT_DOUBLE_EQ(h["anyaudio-holistic-accuracy"]["value"].get<double>(), whole["average"].get<double>());
  EXPECT_DOUBLE_EQ(h["anyaudio-holistic-accuracy-mix"]["value"].get<double>(), whole["per_subset"]["mix"].get<double>());
  EXPECT_EQ(h["anyaudio-holistic-accuracy"]["items"], bench.rows.size());
  EXPECT_GT(row_scores.size(), 1u);
  double lowest = 1, highest = 0;  // the stand-in judge decides both ways
  for (const auto& [subset, accuracy] : expected["per_subset"].items())
    lowest = std::min(lowest, accuracy.get<double>()), highest = std::max(highest, accuracy.get<double>());
  EXPECT_LT(lowest, highest);

  // The publishers' own accuracy (generate mode): a sample per row with questions, all asked at once with their
  // generate prompt, a match when at least 0.8 of the answers read are yes.
  const auto generated = aeval::testing::read_only_run(dir / "out" / "anyaudio-bench-generate-en");
  json answers = json::object();
  for (const auto& [id, record] : generated.by_id) answers[id] = record["prediction"];
  EXPECT_EQ(generated.by_id.size(), expected["rows"].get<std::size_t>()) << "the rows with questions";
  EXPECT_TRUE(std::any_of(asked.begin(), asked.end(), [](const auto& a) {
    return a.first.find("Answer these 3 questions:") != std::string::npos &&
           a.first.find("2) [维度2] sound_gen的第8个问题") != std::string::npos;
  })) << "a row's questions, numbered, in the stand-in's generate prompt";
  const json by_answers = python_reference("rubric_bench", {{"rows", bench.rows}, {"answers", answers}});
  const json& g = generated.summary["metrics"];
  EXPECT_DOUBLE_EQ(g["anyaudio-generate-accuracy"]["value"].get<double>(), by_answers["average"].get<double>());
  for (const auto& [subset, column] : std::map<std::string, std::string>{{"speech", "speech-real"}, {"music_gen", "music-gen"},
                                                                           {"mix", "mix"}})
    EXPECT_DOUBLE_EQ(g["anyaudio-generate-accuracy-" + column]["value"].get<double>(),
                     by_answers["per_subset"][subset].get<double>())
        << subset;
  std::set<double> ratios;
  for (const auto& [id, record] : generated.by_id) ratios.insert(record["scores"]["anyaudio-generate-answers"]["value"].get<double>());
  EXPECT_GT(ratios.size(), 2u) << "the stand-in judge's answers give several yes ratios";

  // The paper's Table 2 beside the measured numbers.
  const auto report = run_aeval(fmt::format("--registry {} report {}", (dir / "registry").string(), (dir / "out").string()), false);
  ASSERT_EQ(report.status, 0) << report.output;
  EXPECT_NE(report.output.find("| qwen2.5-omni-judge | anyaudio-accuracy | 0.7224 |"), std::string::npos) << report.output;

  // The clips are the entries' files: cached, and nothing `aeval cache prune` would take.
  const auto listed = run_aeval(fmt::format("--registry {} list datasets", (dir / "registry").string()), false);
  EXPECT_NE(listed.output.find("anyaudio-judge-bench-zh      huggingface      cached"), std::string::npos) << listed.output;
  const auto cached = run_aeval(fmt::format("--registry {} cache", (dir / "registry").string()));
  EXPECT_EQ(cached.output.find("read by no registry dataset"), std::string::npos) << cached.output;
  EXPECT_NE(cached.output.find("anyaudio-judge-bench-en"), std::string::npos) << cached.output;
  EXPECT_NE(report.output.find("AnyAudio-Judge Table 1, Mix (Qwen2.5-Omni-7B, dynamic rubric)"), std::string::npos);

  // A row naming a clip the repository does not hold (or a path leaving it) is said once; its sample fails alone.
  std::filesystem::create_directories(dir / "registry" / "datasets");
  write_bytes(dir / "registry" / "datasets" / "broken.yaml",
              "broken-bench:\n  class: huggingface\n  args:\n    repo: acme/broken\n    config: default\n    split: test\n"
              "    text_column: caption\n");
  aeval::testing::write_parquet("SELECT 'a' AS id, {'bytes': NULL::BLOB, 'path': 'audios/missing.wav'} AS audio, 'x' AS caption "
                                "UNION ALL SELECT 'b', {'bytes': NULL::BLOB, 'path': '../../outside.wav'}, 'y'",
                                dir / "broken.parquet");
  aeval::testing::HubTestRepo broken;
  broken.main.commit = aeval::testing::test_commit("broken");
  broken.main.files["data/test-00000-of-00001.parquet"] = dir / "broken.parquet";
  aeval::testing::HubTestServer other({{"acme/broken", broken}});
  const aeval::testing::ScopedEnv other_endpoint("HF_ENDPOINT", other.endpoint().c_str());
  const auto missing = run_aeval(fmt::format("--registry {} fetch dataset broken-bench", (dir / "registry").string()));
  EXPECT_EQ(missing.status, 0) << missing.output;
  EXPECT_NE(missing.output.find("note: broken-bench: 2 rows name audio that acme/broken@"), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find("does not hold (first: 'audios/missing.wav')"), std::string::npos) << missing.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "cache" / "aeval" / "datasets" / "hub" / "outside.wav"));
  const auto broken_listed = run_aeval(fmt::format("--registry {} list datasets", (dir / "registry").string()), false);
  EXPECT_NE(broken_listed.output.find("broken-bench                 huggingface      cached"), std::string::npos)
      << broken_listed.output;
  const auto run_broken = run_aeval(fmt::format("--registry {} run --dataset broken-bench --model qwen2.5-omni-judge --evaluator wer -q "
                                                "--output {}",
                                                (dir / "registry").string(), (dir / "broken-run").string()));
  EXPECT_NE(run_broken.status, 0) << "every sample failed";
  EXPECT_NE(run_broken.output.find("every sample failed"), std::string::npos) << run_broken.output;
  EXPECT_NE(run_broken.output.find("has no audio for the model"), std::string::npos) << run_broken.output;
}

TEST(SeedMethodsE2E, AudioCapBenchAssemblesItsClipsAsItsBuilderAndScoresCaptionsAsItsScripts) {
  AEVAL_REQUIRE(aeval::testing::python_references_available(), "python3-nltk, -scipy and -sklearn");
  TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  const aeval::testing::ScopedEnv offline("HF_HUB_OFFLINE", nullptr);
  const AudioCapBench bench = audiocapbench_release(dir / "acb");
  aeval::testing::HubTestServer hub(bench.repos);
  const aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  FileServer release(bench.release);
  // The model under test captions what it hears, sometimes with a link, an address and blank lines to clean up.
  std::mutex seen_mutex;
  std::vector<json> seen;  // the content of each request
  OpenAiTestServer captioner([&](const ReceivedRequest& r, int) {
    {
      std::lock_guard<std::mutex> lock(seen_mutex);
      seen.push_back(r.body["messages"]);
    }
    const std::size_t h = std::hash<std::string>{}(aeval::testing::all_text(r) + aeval::testing::sent_audio(r));
    const char* captions[] = {"A dog barks while birds chirp in a park.",
                              "[see](http://example.com/a) Rain falls heavily on a metal roof.\n\n\n\nMore at www.example.org",
                              "![img](x.png)A man speaks calmly; wind blows. HTTPS://Example.com/b",
                              "A rock band plays loud electric guitars."};
    ScriptedReply reply;
    reply.text = captions[h % 4];
    return reply;
  });
  // The captioning judge grades each caption; its scores follow from what it reads.
  OpenAiTestServer grader([&](const ReceivedRequest& r, int) {
    const std::size_t h = std::hash<std::string>{}(aeval::testing::all_text(r));
    ScriptedReply reply;
    reply.text = json{{"accuracy", int(h % 11)}, {"completeness", int(h / 11 % 11)}, {"hallucination", int(h / 121 % 11)},
                      {"reasoning", "stand-in"}}.dump();
    return reply;
  });
  aeval::testing::point_judges_at(dir / "registry", grader);
  std::filesystem::create_directories(dir / "registry" / "datasets");
  write_bytes(dir / "registry" / "datasets" / "acb.yaml", audiocapbench_entry(bench, release));
  std::filesystem::create_directories(dir / "registry" / "prompts");
  write_bytes(dir / "registry" / "prompts" / "caption-judge.yaml",
              aeval::testing::audiocapbench_judge_prompt_entry("caption-judge", release.url("/acb")));
  std::ofstream(dir / "registry" / "models" / "judges.yaml", std::ios::app)
      << fmt::format("gpt-4o-audio-preview:\n  class: openai_chat\n  args:\n    base_url: {}\n    model: m\n"
                     "    input_sample_rate: 16000\n    max_retries: 0\n",
                     captioner.base_url());
  const auto o = run_aeval(fmt::format("--registry {} run --task audiocapbench --model gpt-4o-audio-preview --output {}",
                                       (dir / "registry").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("clotho: 1 of 4 listed clips are not in acme/clotho"), std::string::npos) << o.output;

  const auto run = aeval::testing::read_only_run(dir / "out");
  json predictions = json::object();
  for (const auto& [id, record] : run.by_id) predictions[id] = record["prediction"];
  json lists = json::object();
  for (const auto& [route, bytes] : bench.release) {
    std::filesystem::create_directories((dir / "release" / route.substr(5)).parent_path());
    write_bytes(dir / "release" / route.substr(5), bytes);
    if (route.find("eval_data_ids/") != std::string::npos)
      lists[route.substr(route.rfind('/') + 1, route.find("_eval") - route.rfind('/') - 1)] =
          (dir / "release" / route.substr(5)).string();
  }
  const json expected = python_reference(
      "audiocapbench", {{"instructions_py", (dir / "release" / "audiocapbench" / "evaluate.py").string()},
                        {"lists", lists}, {"counts", bench.counts}, {"rows", bench.rows}, {"predictions", predictions}});
  ASSERT_EQ(run.by_id.size(), expected["samples"].size());
  ASSERT_EQ(run.by_id.size(), 11u) << "3 Clotho (one listed clip missing), 3 AudioCaps, 3 MusicCaps, 2 speech";
  for (const auto& sample : expected["samples"]) {
    const std::string id = sample["id"];
    ASSERT_TRUE(run.by_id.count(id)) << id;
    const json& record = run.by_id.at(id);
    EXPECT_EQ(record["fields"]["captions"], sample["captions"]) << id;
    EXPECT_EQ(record["fields"]["instruction"], sample["instruction"]) << id;
    EXPECT_EQ(record["fields"]["category"], sample["category"]) << id;
    EXPECT_EQ(record["prediction_processed"], sample["prediction"]) << id;
  }
  int cleaned = 0;  // links, addresses and blank lines taken out of some captions
  for (const auto& [id, record] : run.by_id) cleaned += record["prediction"] != record["prediction_processed"];
  EXPECT_GT(cleaned, 0);
  // The instruction goes first, then the clip, as the benchmark's client sends them.
  for (const auto& messages : seen) {
    ASSERT_EQ(messages[0]["content"].size(), 2u);
    EXPECT_EQ(messages[0]["content"][0]["type"], "text");
    EXPECT_EQ(messages[0]["content"][1]["type"], "input_audio");
  }
  const json& m = run.summary["metrics"];
  EXPECT_NEAR(m["bleu-4-sentence-mean"]["value"].get<double>(), expected["bleu_4"].get<double>(), 1e-12);
  EXPECT_NEAR(m["meteor"]["value"].get<double>(), expected["meteor"].get<double>(), 1e-12);
  double overall = 0;
  for (const auto& [id, record] : run.by_id) overall += record["scores"]["caption-judge"]["value"].get<double>();
  EXPECT_NEAR(m["caption-judge"]["value"].get<double>(), overall / double(run.by_id.size()), 1e-9);
  // Table 1's criteria and Table 2's overall score per category, from the judge's per-sample scores.
  std::map<std::string, std::pair<double, int>> means;
  for (const auto& [id, record] : run.by_id) {
    const json& judged = record["scores"]["caption-judge"];
    for (const char* criterion : {"accuracy", "completeness", "hallucination"})
      means[criterion].first += judged[criterion].get<double>(), ++means[criterion].second;
    auto& category = means[record["fields"]["category"].get<std::string>()];
    category.first += judged["value"].get<double>(), ++category.second;
  }
  ASSERT_EQ(means.size(), 6u);
  for (const auto& [what, evaluator] : std::map<std::string, std::string>{
           {"accuracy", "caption-judge-accuracy"}, {"completeness", "caption-judge-completeness"},
           {"hallucination", "caption-judge-hallucination"}, {"sound", "caption-judge-sound"},
           {"music", "caption-judge-music"}, {"speech", "caption-judge-speech"}})
    EXPECT_NEAR(m[evaluator]["value"].get<double>(), means[what].first / means[what].second, 1e-9) << evaluator;
  EXPECT_TRUE(run.summary["aggregations"]["by-category"]["caption-judge"].dump().find("music") != std::string::npos)
      << run.summary["aggregations"].dump();

  // The paper's Table 1 beside the measured numbers.
  const auto report = run_aeval(fmt::format("--registry {} report {}", (dir / "registry").string(), (dir / "out").string()), false);
  ASSERT_EQ(report.status, 0) << report.output;
  EXPECT_NE(report.output.find("| gpt-4o-audio-preview | meteor | 0.211 |"), std::string::npos) << report.output;
  // The four Hub datasets are the entry's: nothing `aeval cache prune` would take.
  const auto cached = run_aeval(fmt::format("--registry {} cache", (dir / "registry").string()));
  EXPECT_EQ(cached.output.find("read by no registry dataset"), std::string::npos) << cached.output;
  const auto listed = run_aeval(fmt::format("--registry {} list datasets", (dir / "registry").string()), false);
  EXPECT_NE(listed.output.find("audiocapbench                audiocapbench    cached"), std::string::npos) << listed.output;
}

TEST(SeedMethodsE2E, AudioBertScoreOnPamScoresEachClipAgainstItsPromptsRecordingAsItsPaperDoes) {
  AEVAL_REQUIRE(aeval::testing::python_references_available(), "python3-scipy and python3-sklearn");
  TempDir dir;
  const aeval::testing::ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").c_str());
  // PAM's scores.csv and folders: a real recording and three systems' clips per prompt; two prompts' recordings
  // rate below 3.5 for relevance (left out), one exactly 3.5 (kept).
  const std::vector<double> real_rel = {4.0, 3.0, 4.5, 3.5, 2.0, 4.2};
  const std::vector<std::string> systems = {"real", "audiogen_m", "audioldm_l", "audioldm2"};
  std::string csv = "Text,Model,File Name,OVL,REL\n";
  for (std::size_t prompt = 0; prompt < real_rel.size(); ++prompt)
    for (std::size_t s = 0; s < systems.size(); ++s) {
      const std::string name = fmt::format("{}_audio_index_{:03d}", s == 0 ? "real" : "generated", prompt);
      std::vector<float> tone(4000);
      for (std::size_t i = 0; i < tone.size(); ++i)
        tone[i] = 0.1f * std::sin(0.002f * float(i * (prompt * 5 + s + 1))) + (s ? 0.02f * std::sin(0.05f * float(i * s)) : 0.f);
      std::filesystem::create_directories(dir / "audio" / systems[s]);
      aeval::write_wav(dir / "audio" / systems[s] / (name + ".wav"), aeval::Audio{tone, 16000, 1});
      const double rel = s == 0 ? real_rel[prompt] : 1.0 + 0.3 * double((prompt * 7 + s * 5) % 13);
      csv += fmt::format("\"A sound, number {}\",{},{},{:.1f},{:.1f}\n", prompt, systems[s], name,
                         2.0 + 0.2 * double((prompt * 3 + s * 11) % 14), rel);
    }
  write_bytes(dir / "audio" / "scores.csv", csv);
  const auto o = run_aeval(fmt::format(
      "run --task audiobertscore-pam --set pam-sounds-referenced.path={} --set audiobertscore-referenced.model=signal-frames "
      "-q --output {}",
      (dir / "audio" / "scores.csv").string(), (dir / "out").string()));
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir / "out");
  ASSERT_EQ(run.by_id.size(), 12u) << "four prompts kept, three generated clips each; recordings are references only";
  json x = json::array(), rel = json::array(), ovl = json::array(), labels = json::array();
  for (const auto& [id, record] : run.by_id) {
    const std::string prompt = record["reference"].get<std::string>().substr(std::string("A sound, number ").size());
    EXPECT_EQ(record["fields"]["reference_audio"],
              (dir / "audio" / "real" / fmt::format("real_audio_index_{:03d}.wav", std::stoi(prompt))).string())
        << id;
    EXPECT_NE(record["fields"]["system"], "real");
    EXPECT_NE(prompt, "1");
    EXPECT_NE(prompt, "4");
    x.push_back(record["scores"]["audiobertscore-referenced"]["value"]);
    rel.push_back(record["fields"]["human_score"]);
    ovl.push_back(record["fields"]["human_ovl"]);
    labels.push_back(int(labels.size() % 2));
  }
  const json references = aeval::testing::python_references(
      "stats", json::array({{{"x", x}, {"y", rel}, {"labels", labels}}, {{"x", x}, {"y", ovl}, {"labels", labels}}}));
  const json& m = run.summary["metrics"];
  EXPECT_NEAR(m["audiobertscore-rel-lcc"]["value"].get<double>(), references[0]["pearson"][0].get<double>(), 1e-12);
  EXPECT_NEAR(m["audiobertscore-rel-srcc"]["value"].get<double>(), references[0]["spearman"][0].get<double>(), 1e-12);
  EXPECT_NEAR(m["audiobertscore-ovl-lcc"]["value"].get<double>(), references[1]["pearson"][0].get<double>(), 1e-12);
  EXPECT_NEAR(m["audiobertscore-ovl-srcc"]["value"].get<double>(), references[1]["spearman"][0].get<double>(), 1e-12);
}

}  // namespace
