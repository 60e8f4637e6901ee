// UltraEval-Audio's own model classes in aeval (docs/uea.md, "UEA's model entries"), proved against UEA's own
// main.py on the same tree: UEA's real MiniCPMo class (@isolated, its own _inference, the MiniCPMo2_6-audio
// entry's sample_params) with a script of ours in place of the model (tests/support/uea_python/standin_tree.py),
// in an environment built from a requirements file out of a local wheelhouse. Both runs must send the script the
// same requests and give the same predictions and the same WER, to the last digit. Plumbing for the runtime
// (environment, lock, marker, restarts, failures before any sample): the stand-in's answers are a table.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <atomic>
#include <fstream>
#include <future>
#include <mutex>
#include <regex>
#include <set>

#include "support/openai_test_server.hpp"
#include "support/reference.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "support/uea_python.hpp"
#include "util/sha256.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::testing::run_aeval;
using aeval::testing::run_shell;
using nlohmann::json;

using aeval::testing::lines_of;

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

// The one run folder under `root` (results/<task>/<model>/<run-id>).
fs::path run_folder(const fs::path& root) {
  for (const auto& f : fs::recursive_directory_iterator(root))
    if (f.path().filename() == "summary.json") return f.path().parent_path();
  return {};
}

class UeaModelE2E : public aeval::testing::UeaTreeTest {
 protected:
  aeval::testing::Outcome aeval_run(const std::string& model, const std::string& output, const std::string& more = "") {
    return run_aeval(fmt::format("uea run --uea-dir {} --dataset standin-set --model {} --output {} --quiet {}",
                                 quoted(dir_ / "uea"), model, quoted(dir_ / output), more));
  }
};

TEST_F(UeaModelE2E, SendsWhatUeaMainSendsAndGivesItsNumber) {
  make_tree();
  const auto ours = aeval_run("minicpm-standin", "results", "--save " + quoted(dir_ / "aeval-out.jsonl"));
  ASSERT_EQ(0, ours.status) << ours.output;
  const fs::path log = dir_ / "weights" / "requests.log";
  std::vector<std::string> aeval_requests = lines_of(log);
  fs::remove(log);
  // aeval built the environment where the entry puts it, with UEA's marker and lock.
  const fs::path env = dir_ / "uea" / "envs" / "minicpm-standin";
  bool marker = false;
  for (const auto& f : fs::directory_iterator(env)) marker |= f.path().filename().string().starts_with(".audio_evals_ready_");
  EXPECT_TRUE(marker);
  EXPECT_TRUE(fs::exists(dir_ / "uea" / "envs" / ".locks" / "minicpm-standin.lock"));

  // UEA's own main.py on the same tree, without AUDIO_EVALS_SKIP_ENV_SETUP: it must find aeval's environment
  // ready by its marker (building one needs uv and PyPI, which this machine lacks).
  const auto theirs = uea_main(fmt::format("--dataset standin-set --model minicpm-standin --save {}", quoted(dir_ / "uea-out.jsonl")));
  ASSERT_EQ(0, theirs.status) << theirs.output;
  std::vector<std::string> uea_requests = lines_of(log);
  ASSERT_EQ(6u, uea_requests.size());
  std::sort(aeval_requests.begin(), aeval_requests.end());
  std::sort(uea_requests.begin(), uea_requests.end());
  EXPECT_EQ(uea_requests, aeval_requests) << "the script got other requests from aeval than from UEA";

  // The same answers, processed the same way.
  std::map<std::string, json> uea_stages;  // "<stage> <id>" → content
  for (const auto& line : lines_of(dir_ / "uea-out.jsonl")) {
    const json record = json::parse(line);
    if (record["data"].contains("content"))
      uea_stages[record["type"].get<std::string>() + " " + std::to_string(record["id"].get<int>())] =
          record["data"]["content"];
  }
  const fs::path run = run_folder(dir_ / "results");
  std::size_t samples = 0;
  for (const auto& line : lines_of(run / "samples.jsonl")) {
    const json record = json::parse(line);
    const std::string id = record["id"];
    EXPECT_EQ(uea_stages.at("inference " + id), record["prediction"]) << id;
    ++samples;
  }
  EXPECT_EQ(6u, samples);

  // UEA's final number, as its -overall.json (a dict's repr) prints it, and as aeval's summary holds it.
  std::ifstream overall(dir_ / "uea-out-overall.json");
  const std::string repr((std::istreambuf_iterator<char>(overall)), std::istreambuf_iterator<char>());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(repr, m, std::regex("'wer\\(%\\)': ([0-9.e+-]+)"))) << repr;
  const std::string summary = aeval::testing::read_bytes(run / "summary.json");
  EXPECT_NE(summary.find("\"wer(%)\": " + m[1].str()), std::string::npos)
      << "UEA: " << repr << "\naeval: " << summary.substr(0, 3000);
  // --save writes UEA's own result files, byte for byte as UEA's main.py wrote them (one worker: its order).
  using aeval::testing::read_bytes;
  EXPECT_EQ(read_bytes(dir_ / "uea-out.jsonl"), read_bytes(dir_ / "aeval-out.jsonl"));
  EXPECT_EQ(repr, read_bytes(dir_ / "aeval-out-overall.json"));
  // UEA's own classes: the model's, and the JsonlFile set's reader.
  for (const char* id : {"\"class\": \"uea_model\"", "\"class\": \"uea_jsonl\"",
                         "\"class\": \"audio_evals.models.mini_cpm.MiniCPMo\""})
    EXPECT_NE(summary.find(id), std::string::npos) << id;
}

// A user's evaluator class (UEA's Evaluator, in the tree) scores as UEA's main.py scores it, through UEA's mean.
TEST_F(UeaModelE2E, AnEvaluatorClassOfUeasGivesUeasNumbers) {
  make_tree();
  const auto ours = aeval_run("minicpm-standin", "results", "--evaluator answer-length --agg mean");
  ASSERT_EQ(0, ours.status) << ours.output;
  const auto theirs = uea_main(fmt::format("--dataset standin-set --model minicpm-standin "
      "--evaluator answer-length --agg mean --save {}", quoted(dir_ / "uea-out.jsonl")));
  ASSERT_EQ(0, theirs.status) << theirs.output;
  std::ifstream overall(dir_ / "uea-out-overall.json");
  const std::string repr((std::istreambuf_iterator<char>(overall)), std::istreambuf_iterator<char>());
  const std::string summary = aeval::testing::read_bytes(run_folder(dir_ / "results") / "summary.json");
  const std::regex pair("'((length|ratio)\\(%\\))': ([0-9.e+-]+)");
  std::size_t compared = 0;
  for (auto it = std::sregex_iterator(repr.begin(), repr.end(), pair); it != std::sregex_iterator(); ++it, ++compared)
    EXPECT_NE(summary.find(fmt::format("\"{}\": {}", (*it)[1].str(), (*it)[3].str())), std::string::npos)
        << (*it)[0] << "\naeval: " << summary.substr(0, 3000);
  EXPECT_EQ(2u, compared) << repr;
  EXPECT_NE(summary.find("\"class\": \"uea-python-evaluator\""), std::string::npos) << "UEA's own evaluator class";
}

// UEA's aggregation classes without a native aeval class (Coco, captioning's) run as UEA's own class too: with
// stand-ins for pycocoevalcap (its Java cannot run here; tests/support/uea_python/coco_standin.py), aeval's
// dict is the one UEA's main.py prints, METEOR's failure (logged, left out) included.
TEST_F(UeaModelE2E, AnAggregationClassOfUeasGivesUeasNumbers) {
  make_tree();
  ASSERT_TRUE(aeval::testing::write_python_standins("coco_standin.py", dir_ / "coco"));
  const std::string path = (dir_ / "coco").string() + ":" + python_path_;
  const aeval::testing::ScopedEnv coco("PYTHONPATH", path.c_str());
  const auto ours = aeval_run("minicpm-standin", "results", "--evaluator dump --agg coco");
  ASSERT_EQ(0, ours.status) << ours.output;
  const auto theirs = uea_main(fmt::format("--dataset standin-set --model minicpm-standin "
      "--evaluator dump --agg coco --save {}", quoted(dir_ / "uea-out.jsonl")));
  ASSERT_EQ(0, theirs.status) << theirs.output;
  const std::string repr = aeval::testing::read_bytes(dir_ / "uea-out-overall.json");
  const std::string summary = aeval::testing::read_bytes(run_folder(dir_ / "results") / "summary.json");
  const std::regex pair("'(\\w+)': ([0-9.e+-]+)");
  std::set<std::string> keys;
  for (auto it = std::sregex_iterator(repr.begin(), repr.end(), pair); it != std::sregex_iterator(); ++it) {
    keys.insert((*it)[1].str());
    EXPECT_NE(summary.find(fmt::format("\"{}\": {}", (*it)[1].str(), (*it)[2].str())), std::string::npos)
        << (*it)[0] << "\naeval: " << summary.substr(0, 3000);
  }
  EXPECT_EQ(keys, (std::set<std::string>{"Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr", "SPICE", "SPIDEr"}))
      << repr;
  EXPECT_NE(summary.find("\"class\": \"uea-python-agg\""), std::string::npos) << "UEA's own aggregation class";
}

// main.py's --registry_path: entries kept outside the tree join it; a name defined twice is UEA's error.
TEST_F(UeaModelE2E, RegistryPathFoldersJoinTheTreeAsInMainPy) {
  make_tree();
  for (const char* kind : {"model", "dataset"}) {
    fs::create_directories(dir_ / "mine" / kind);
    fs::rename(dir_ / "uea" / "registry" / kind / "standin.yaml", dir_ / "mine" / kind / "standin.yaml");
  }
  const std::string folders = fmt::format("--registry_path '{} {}'", (dir_ / "mine").string(), (dir_ / "empty").string());
  fs::create_directories(dir_ / "empty");
  const auto ours = aeval_run("minicpm-standin", "results", folders);
  ASSERT_EQ(0, ours.status) << ours.output;
  EXPECT_TRUE(fs::exists(run_folder(dir_ / "results") / "samples.jsonl"));

  fs::copy_file(dir_ / "mine" / "model" / "standin.yaml", dir_ / "uea" / "registry" / "model" / "standin.yaml");
  const auto twice = aeval_run("minicpm-standin", "again", folders);
  EXPECT_NE(0, twice.status);
  EXPECT_NE(twice.output.find("duplicate entry: minicpm-standin"), std::string::npos) << twice.output;
}

// A user's own APIModel class (a service they deployed) on a RelativePath set, four requests at a time: the
// service gets from aeval what it gets from UEA's main.py, and the number is UEA's.
TEST_F(UeaModelE2E, AUsersApiModelOnARelativePathSetGivesUeasNumber) {
  make_tree();
  std::map<std::string, std::string> answers;  // the clip's sha256 → what the service answers
  for (int k = 0; k < 6; ++k) {
    const fs::path clip = dir_ / "clips" / fmt::format("c{}.wav", k);
    answers[aeval::sha256_of_file(clip)] = k % 3 ? fmt::format("{{\"content\": \"clip {} said this\"}}", k)
                                                 : "{\"content\": \"the cat sat on the mat\"}";
  }
  aeval::testing::OpenAiTestServer service([&](const aeval::testing::ReceivedRequest& request, int) {
    aeval::testing::ScriptedReply reply;
    const std::string audio = request.body["prompt"][0]["contents"][0]["value"];
    reply.body = json{{"answer", answers.at(aeval::sha256_of_file(audio))}}.dump();
    return reply;
  });
  std::ofstream(dir_ / "uea" / "registry" / "model" / "service.yaml")
      << "standin-service:\n  class: audio_evals.models.standin_api.StandinService\n  args:\n    url: "
      << service.base_url() << "/answer\n    sample_params:\n      temperature: 0\n";
  const auto ours = run_aeval(fmt::format("uea run --uea-dir {} --dataset standin-relative --model standin-service "
                                          "--workers 4 --output {} --quiet --save {}",
                                          quoted(dir_ / "uea"), quoted(dir_ / "results"), quoted(dir_ / "aeval.jsonl")));
  ASSERT_EQ(0, ours.status) << ours.output;
  const auto asked_by_aeval = service.received();
  const auto theirs = uea_main(fmt::format("--dataset standin-relative --model standin-service --workers 4 "
      "--save {}", quoted(dir_ / "uea.jsonl")));
  ASSERT_EQ(0, theirs.status) << theirs.output;
  const auto all = service.received();
  std::multiset<std::string> aeval_bodies, uea_bodies;
  for (std::size_t k = 0; k < all.size(); ++k) (k < asked_by_aeval.size() ? aeval_bodies : uea_bodies).insert(all[k].body.dump());
  EXPECT_EQ(6u, aeval_bodies.size());
  EXPECT_EQ(uea_bodies, aeval_bodies) << "the service got other requests from aeval than from UEA";
  // RelativePath joined the prefix to WavPath, and kept `note`, which names no file, as written.
  EXPECT_NE(aeval_bodies.begin()->find((dir_ / "clips").string()), std::string::npos) << *aeval_bodies.begin();
  EXPECT_EQ(aeval::testing::read_bytes(dir_ / "uea-overall.json"), aeval::testing::read_bytes(dir_ / "aeval-overall.json"));
}

// A user's class that raises on one sample (its service failing: UEA's APIModel tries three times) fails that
// sample alone, with the exception's message; --resume asks again for it alone.
TEST_F(UeaModelE2E, AClassThatRaisesOnOneSampleFailsItAloneAndResumeRetriesIt) {
  make_tree();
  const std::string failing = aeval::sha256_of_file(dir_ / "clips" / "c2.wav");
  std::atomic<bool> broken{true};
  std::mutex mutex;
  std::map<std::string, int> asked;  // the clip's sha256 → requests for it
  aeval::testing::OpenAiTestServer service([&](const aeval::testing::ReceivedRequest& request, int) {
    const std::string clip = aeval::sha256_of_file(std::string(request.body["prompt"][0]["contents"][0]["value"]));
    {
      const std::lock_guard lock(mutex);
      ++asked[clip];
    }
    aeval::testing::ScriptedReply reply;
    if (clip == failing && broken) {
      reply.status = 500;
      reply.body = "{}";
    } else {
      reply.body = R"({"answer": "{\"content\": \"an answer\"}"})";
    }
    return reply;
  });
  std::ofstream(dir_ / "uea" / "registry" / "model" / "service.yaml")
      << "standin-service:\n  class: audio_evals.models.standin_api.StandinService\n  args:\n    url: "
      << service.base_url() << "/answer\n";
  const auto first = aeval_run("standin-service", "results", "--workers 2");
  ASSERT_EQ(0, first.status) << first.output;
  const fs::path run = run_folder(dir_ / "results");
  for (const auto& line : lines_of(run / "samples.jsonl")) {
    const json record = json::parse(line);
    EXPECT_EQ(record["id"] == "2", !record["error"].is_null()) << record;
    if (record["id"] == "2") {
      EXPECT_NE(record["error"]["message"].get<std::string>().find("500 Server Error"), std::string::npos) << record;
    }
  }
  EXPECT_EQ(3, asked[failing]) << "UEA's APIModel asks three times before it gives up";

  broken = false;
  const auto resumed = run_aeval(fmt::format("uea run --resume {} --quiet", quoted(run)));
  ASSERT_EQ(0, resumed.status) << resumed.output;
  EXPECT_EQ(4, asked[failing]);
  for (const auto& [clip, count] : asked) {
    if (clip != failing) {
      EXPECT_EQ(1, count) << "a sample that succeeded is not asked again";
    }
  }
  for (const auto& line : lines_of(run / "samples.jsonl")) EXPECT_TRUE(json::parse(line)["error"].is_null()) << line;
}

// A row whose audio file is missing fails alone, naming the file; a user's class that cannot be imported stops the
// run before any request, with Python's error naming its file and line.
TEST_F(UeaModelE2E, AMissingClipFailsAloneAndABrokenClassStopsTheRunFirst) {
  make_tree();
  std::ofstream(dir_ / "data.jsonl", std::ios::app)
      << json{{"WavPath", (dir_ / "clips" / "gone.wav").string()}, {"text", "nothing"}, {"speaker", "s0"}}.dump() << "\n";
  const auto out = aeval_run("minicpm-standin", "results");
  ASSERT_EQ(0, out.status) << out.output;
  std::size_t answered = 0;
  for (const auto& line : lines_of(run_folder(dir_ / "results") / "samples.jsonl")) {
    const json record = json::parse(line);
    if (record["id"] == "6") {
      EXPECT_NE(record["error"].dump().find("gone.wav"), std::string::npos) << record;
    } else {
      answered += record["error"].is_null();
    }
  }
  EXPECT_EQ(6u, answered);

  aeval::testing::write_bytes(dir_ / "uea" / "audio_evals" / "models" / "broken_user.py",
                              "from audio_evals.models.model import APIModel\n\nclass Broken(APIModel)\n    pass\n");
  std::ofstream(dir_ / "uea" / "registry" / "model" / "broken.yaml")
      << "broken-user:\n  class: audio_evals.models.broken_user.Broken\n  args: {}\n";
  const auto broken = aeval_run("broken-user", "broken");
  EXPECT_NE(0, broken.status);
  for (const char* part : {"SyntaxError", "broken_user.py", "line 3"})
    EXPECT_NE(broken.output.find(part), std::string::npos) << part << " in " << broken.output;
  EXPECT_TRUE(!fs::exists(dir_ / "broken") || run_folder(dir_ / "broken").empty()) << "no run: nothing was asked";
}

TEST_F(UeaModelE2E, ConcurrentRunsBuildTheEnvironmentOnce) {
  make_tree();
  auto first = std::async(std::launch::async, [&] { return aeval_run("minicpm-standin", "a"); });
  auto second = std::async(std::launch::async, [&] { return aeval_run("minicpm-standin", "b"); });
  const auto a = first.get(), b = second.get();
  ASSERT_EQ(0, a.status) << a.output;
  ASSERT_EQ(0, b.status) << b.output;
  const std::string building = "building UltraEval-Audio's environment";
  std::size_t builds = 0;
  for (const auto* out : {&a.output, &b.output})
    for (std::size_t at = out->find(building); at != std::string::npos; at = out->find(building, at + 1)) ++builds;
  EXPECT_EQ(1u, builds) << a.output << "\n---\n" << b.output;
}

TEST_F(UeaModelE2E, AScriptThatDiesFailsItsSampleAloneAndIsStartedAgain) {
  make_tree(2);
  const auto out = aeval_run("minicpm-standin", "results", "--max-fail-rate 0.5");
  EXPECT_EQ(0, out.status) << out.output;
  std::size_t failed = 0, answered = 0;
  for (const auto& line : lines_of(run_folder(dir_ / "results") / "samples.jsonl")) {
    const json record = json::parse(line);
    if (!record["error"].is_null()) {
      ++failed;
      EXPECT_EQ("2", record["id"]);
      EXPECT_NE(record["error"].dump().find("model script exited with status 3"), std::string::npos) << record;
    } else {
      ++answered;
    }
  }
  EXPECT_EQ(1u, failed);
  EXPECT_EQ(5u, answered) << "the samples after the crash are answered by the script started again";
}

TEST_F(UeaModelE2E, WeightsThatCannotBeFetchedStopTheRunBeforeAnySample) {
  make_tree();
  // UEA's own entry: its weights come from the Hub (a stand-in here), then ModelScope (absent), then sys.exit(1).
  const auto out = aeval_run("MiniCPMo2_6-audio", "results");
  EXPECT_NE(0, out.status);
  EXPECT_NE(out.output.find("HF_ENDPOINT"), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("uea_args.path"), std::string::npos) << out.output;
  EXPECT_FALSE(fs::exists(dir_ / "weights" / "requests.log")) << "no request reached a model";

  // With the weights given, the same entry runs.
  const auto given = aeval_run("MiniCPMo2_6-audio", "results2",
                               fmt::format("--set MiniCPMo2_6-audio.uea_args.path={}", quoted(dir_ / "weights")));
  EXPECT_EQ(0, given.status) << given.output;
}

TEST_F(UeaModelE2E, AnEnvironmentThatCannotBeInstalledSaysHowToProvideIt) {
  make_tree();
  wheelhouse_.emplace("PIP_FIND_LINKS", (dir_ / "clips").c_str());  // no wheel there
  const auto out = aeval_run("minicpm-standin", "results");
  EXPECT_NE(0, out.status);
  EXPECT_NE(out.output.find("PIP_FIND_LINKS"), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("aeval-standin-dep"), std::string::npos) << out.output;
  EXPECT_FALSE(fs::exists(dir_ / "weights" / "requests.log"));
}

}  // namespace
