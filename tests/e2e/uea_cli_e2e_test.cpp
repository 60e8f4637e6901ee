// `aeval fetch uea` and `aeval uea prompt|process|check` as a user runs them: the pinned
// UltraEval-Audio commit downloaded from a local server (a GitHub-style tarball the test
// packs from ../shared/uea, with a symbolic link under audio_evals/lib/ as GitHub's has),
// checked by content, cached; a tampered copy refused; no network: one line that says what to do.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "support/file_server.hpp"
#include "support/reference.hpp"
#include "support/run_aeval.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "uea/uea_location.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::testing::run_aeval;
using aeval::testing::run_shell;
using aeval::testing::ScopedEnv;

// Where the local server serves the tarball.
constexpr const char* kRoute = "/UltraEval-Audio.tar.gz";

struct UeaFixture {
  aeval::testing::TempDir dir;
  ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  ScopedEnv no_dir{"AEVAL_UEA_DIR", nullptr};

  // GitHub's layout: one top folder named after the commit; `tamper` adds a registry file ("registry") or
  // changes one of audio_evals/ ("code").
  fs::path pack(const std::string& tamper = "") const {
    const fs::path top = dir / "src" / (std::string("UltraEval-Audio-") + aeval::uea::kPinnedCommit);
    fs::remove_all(dir / "src");
    fs::create_directories(top / "audio_evals" / "lib");
    fs::copy(aeval::testing::shared_uea_dir() / "registry", top / "registry", fs::copy_options::recursive);
    fs::copy(aeval::testing::shared_uea_dir() / "audio_evals", top / "audio_evals", fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    fs::copy_file(aeval::testing::shared_uea_dir() / "LICENSE", top / "LICENSE");
    fs::create_directory_symlink("../../registry", top / "audio_evals" / "lib" / "linked");
    // Vendored code, kept: 3D-Speaker's speakerlab (CV3's ERes2Net). ../shared/uea has none of it; this file of
    // the commit's is empty.
    const fs::path eres2net = top / "audio_evals" / "lib" / "cv3_speaker_sim" / "3D-Speaker" / "speakerlab" / "models" / "eres2net";
    fs::create_directories(eres2net);
    std::ofstream(eres2net / "__init__.py").flush();
    if (tamper == "registry") std::ofstream(top / "registry" / "process" / "extra.yaml") << "x:\n  class: a.b\n  args: {}\n";
    if (tamper == "code") std::ofstream(top / "audio_evals" / "lib" / "emotion2vec" / "main.py", std::ios::app) << "import os\n";
    const fs::path tarball = dir / (tamper.empty() ? "uea.tar.gz" : "tampered.tar.gz");
    const auto out = run_shell(fmt::format("tar -czf {} -C {} {}", tarball.string(), (dir / "src").string(),
                                           top.filename().string()));
    EXPECT_EQ(0, out.status) << out.output;
    return tarball;
  }
};

TEST(UeaCli, FetchesThePinnedCommitOnceAndReadsItFromTheCache) {
  AEVAL_REQUIRE_SHARED_UEA();
  UeaFixture f;
  const aeval::testing::FileServer server(kRoute, aeval::testing::read_bytes(f.pack()));
  {
    ScopedEnv url("AEVAL_UEA_URL", server.url(kRoute).c_str());
    const auto fetched = run_aeval("fetch uea");
    ASSERT_EQ(0, fetched.status) << fetched.output;
    EXPECT_NE(fetched.output.find(aeval::uea::kPinnedCommit), std::string::npos) << fetched.output;
    EXPECT_EQ(0, run_aeval("fetch uea").status);
    EXPECT_EQ(1, server.requests()) << "a verified copy is never fetched again";
  }
  // From the cache alone, the symbolic link (under audio_evals/lib/, as GitHub's) left out.
  ScopedEnv dead("AEVAL_UEA_URL", "http://127.0.0.1:1/none.tar.gz");
  const auto check = run_aeval("uea check --json", false);
  ASSERT_EQ(0, check.status) << check.output;
  const auto report = nlohmann::json::parse(check.output);
  EXPECT_EQ(aeval::uea::kPinnedCommit, report["pinned_commit"]);
  EXPECT_EQ(261, report["kinds"]["prompt"]["entries"]);
  EXPECT_EQ(261, report["kinds"]["prompt"]["supported"]);
  EXPECT_GE(report["kinds"]["process"]["supported"].get<int>(), 10);
  EXPECT_NE(report["kinds"]["process"]["unsupported"]["trivia_qa_normalizer"].get<std::string>().find("no such module"),
            std::string::npos);
  const fs::path lib =
      aeval::uea::pinned_cache_dir() / "unpacked" / (std::string("UltraEval-Audio-") + aeval::uea::kPinnedCommit) /
      "audio_evals" / "lib";
  EXPECT_FALSE(fs::exists(lib / "linked"));
  const fs::path eres2net = lib / "cv3_speaker_sim" / "3D-Speaker" / "speakerlab" / "models" / "eres2net" / "__init__.py";
  EXPECT_TRUE(fs::exists(eres2net));
  EXPECT_TRUE(fs::exists(lib / "emotion2vec" / "main.py")) << "the scripts UEA's model classes start are kept";

  // A cache an earlier aeval unpacked with less (no speakerlab, no layout mark) is unpacked again
  // from the tarball it kept, without the network.
  fs::remove_all(lib / "cv3_speaker_sim");
  fs::remove(aeval::uea::pinned_cache_dir() / "unpacked" / ".aeval-layout-4");
  const auto again = run_aeval("fetch uea", false);
  ASSERT_EQ(0, again.status) << again.output;
  EXPECT_TRUE(fs::exists(eres2net));
}

TEST(UeaCli, RefusesACopyWhoseRegistryOrCodeIsNotThePinnedCommit) {
  AEVAL_REQUIRE_SHARED_UEA();
  for (const std::string tamper : {"registry", "code"}) {
    UeaFixture f;
    const aeval::testing::FileServer server(kRoute, aeval::testing::read_bytes(f.pack(tamper)));
    ScopedEnv url("AEVAL_UEA_URL", server.url(kRoute).c_str());
    const auto out = run_aeval("fetch uea");
    EXPECT_EQ(1, out.status) << tamper;
    EXPECT_NE(out.output.find("is not commit 9b69da6"), std::string::npos) << out.output;
    EXPECT_NE(out.output.find(tamper == "code" ? "audio_evals/lib/emotion2vec/main.py differs" : "registry's content digest"),
              std::string::npos)
        << out.output;
    EXPECT_FALSE(fs::exists(aeval::uea::pinned_cache_dir() / "unpacked")) << "nothing unverified is kept";
  }
}

TEST(UeaCli, WithoutNetworkOneLineSaysWhatToDo) {
  UeaFixture f;
  ScopedEnv url("AEVAL_UEA_URL", "http://127.0.0.1:1/UltraEval-Audio.tar.gz");
  const auto out = run_aeval("uea prompt asr --row '{}'");
  EXPECT_EQ(1, out.status);
  EXPECT_EQ(1, std::count(out.output.begin(), out.output.end(), '\n')) << out.output;
  for (const std::string& part : std::vector<std::string>{"http://127.0.0.1:1/UltraEval-Audio.tar.gz", aeval::uea::pinned_cache_dir().string(),
                                 "aeval fetch uea", "--uea-dir", "AEVAL_UEA_DIR"})
    EXPECT_NE(out.output.find(part), std::string::npos) << part << " in " << out.output;
}

TEST(UeaCli, PromptAndProcessPrintWhatUeaReturns) {
  AEVAL_REQUIRE_SHARED_UEA();
  const std::string dir = " --uea-dir " + aeval::testing::shared_uea_dir().string();
  const auto rendered = run_aeval("uea prompt asr --row '{\"WavPath\": \"a \\\"b\\\".wav\"}'" + dir, false);
  ASSERT_EQ(0, rendered.status) << rendered.output;
  // Expected from UEA's Prompt.load(WavPath='a "b".wav') for its `asr` entry.
  EXPECT_EQ(nlohmann::json::parse(R"([{"role": "user", "contents": [{"type": "audio", "value": "a \"b\".wav"},
             {"type": "text", "value": "listen the audio, output the audio content with format {\"content\": \"\"}"}]}])"),
            nlohmann::json::parse(rendered.output));

  const auto missing = run_aeval("uea prompt asr --row '{}'" + dir);
  EXPECT_NE(0, missing.status);
  EXPECT_NE(missing.output.find("'WavPath' is undefined"), std::string::npos) << missing.output;

  const auto option = run_aeval("uea process first_option --answer '答案是C'" + dir, false);
  EXPECT_EQ(0, option.status) << option.output;
  EXPECT_EQ("\"C\"\n", option.output);
  // AEVAL_UEA_DIR does the same as --uea-dir.
  ScopedEnv env("AEVAL_UEA_DIR", aeval::testing::shared_uea_dir().c_str());
  const auto content = run_aeval("uea process json_content --answer '```json\n{\"content\": \"hi\"}\n```'", false);
  EXPECT_EQ("\"hi\"\n", content.output);
  const auto key = run_aeval("uea process extract_audio --answer '{\"text\": 1}'");
  EXPECT_EQ(1, key.status);
  EXPECT_NE(key.output.find("KeyError: 'audio'"), std::string::npos) << key.output;
}

}  // namespace

// UEA's model entries run as UEA's own classes (uea_model), but for those UEA's tree itself cannot run: a module
// it lacks, or a script in a git submodule its checkout leaves empty (ola-7b's audio_evals/lib/Ola).
TEST(UeaCli, ModelEntriesUeasTreeCannotRunSayWhy) {
  AEVAL_REQUIRE_SHARED_UEA();
  const auto check = run_aeval("uea check --json --uea-dir " + aeval::testing::shared_uea_dir().string(), false);
  ASSERT_EQ(0, check.status) << check.output;
  const auto models = nlohmann::json::parse(check.output)["kinds"]["model"];
  EXPECT_GE(models["supported"].get<int>(), 100);
  EXPECT_NE(models["unsupported"]["ola-7b"].get<std::string>().find("git submodule"), std::string::npos) << models;
  EXPECT_NE(models["unsupported"]["mini-omni"].get<std::string>().find("no such module"), std::string::npos) << models;
  EXPECT_FALSE(models["unsupported"].contains("MiniCPMo2_6-audio"));
}
