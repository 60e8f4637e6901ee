// The `huggingface` dataset class against a local Hub (support/hub_test_server)
// serving Parquet files DuckDB writes from real speech (Debian's Asterisk
// prompts): resolution, the download cache, gated access, mirrors, faults and
// offline use.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <fstream>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "aeval/text/unicode.hpp"
#include "datasets/dataset.hpp"
#include "datasets/table_reader.hpp"
#include "registry/registry.hpp"
#include "support/asterisk.hpp"
#include "support/hub_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::HubTestRepo;
using aeval::testing::HubTestServer;
using aeval::testing::ScopedEnv;
using aeval::testing::TempDir;
using aeval::testing::test_commit;

const std::vector<std::string> kPrompts = {"vm-goodbye", "conf-adminmenu-18", "agent-alreadyon", "activated"};

// A dataset folder: the prompts as float WAV, and a Parquet split of them
// (id, text, a struct of bytes and path as the Hub's Audio feature stores it).
struct Fixture {
  TempDir dir;
  ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  ScopedEnv token{"HF_TOKEN", nullptr};
  ScopedEnv offline{"HF_HUB_OFFLINE", nullptr};
  std::filesystem::path parquet = dir / "test-00000-of-00001.parquet";

  Fixture() {
    std::filesystem::create_directories(dir / "wav");
    for (const auto& p : kPrompts)
      aeval::write_wav(dir / "wav" / (p + ".wav"), aeval::decode_audio(aeval::testing::kAsteriskSounds / (p + ".g722")),
                       aeval::WavEncoding::float32);
    aeval::testing::write_parquet(
        fmt::format("SELECT regexp_extract(filename, '([^/]+)\\.wav$', 1) AS id, 'words of ' || id AS text, "
                    "{{'bytes': content, 'path': regexp_extract(filename, '[^/]+$')}} AS audio, 16000 AS rate "
                    "FROM read_blob({}) ORDER BY id",
                    aeval::datasets::TableReader::literal((dir / "wav" / "*.wav").string())),
        parquet, 2);
  }

  HubTestRepo repo_with_split_file() const {
    HubTestRepo repo;
    repo.main = {test_commit("main"), {{"data/test-00000-of-00001.parquet", parquet}, {"README.md", parquet}}};
    return repo;
  }

  // A registry with one `huggingface` entry named `hub` (extra args appended).
  aeval::registry::Registry registry(const std::string& args = "") {
    return write_entry("hub:\n  class: huggingface\n  args:\n    repo: acme/prompts\n" + args);
  }

  aeval::registry::Registry write_entry(const std::string& yaml) {
    std::filesystem::create_directories(dir / "registry" / "datasets");
    std::ofstream(dir / "registry" / "datasets" / "hub.yaml") << yaml;
    return aeval::registry::Registry({dir / "registry"});
  }

  std::string error(const std::string& args = "") {
    try {
      aeval::datasets::load_dataset(registry(args), "hub");
    } catch (const aeval::Error& e) {
      return e.what();
    }
    return "";
  }
};

TEST(HuggingfaceDataset, ASplitOfParquetFilesLoadsAndItsAudioDecodesAsTheOriginal) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  Fixture f;
  HubTestServer hub({{"acme/prompts", f.repo_with_split_file()}});
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());  // a mirror is just another endpoint
  const auto d = aeval::datasets::load_dataset(f.registry(), "hub");
  ASSERT_EQ(d.samples.size(), kPrompts.size());
  auto sorted = kPrompts;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const auto& s = d.samples[i];
    EXPECT_EQ(s.id, sorted[i]);
    EXPECT_EQ(s.reference, "words of " + sorted[i]);
    EXPECT_EQ(s.fields["rate"], 16000);
    EXPECT_EQ(aeval::decode_audio(s.audio).samples, aeval::decode_audio(f.dir / "wav" / (sorted[i] + ".wav")).samples);
  }
  EXPECT_EQ(d.description["commit"], test_commit("main"));
  EXPECT_EQ(d.description["source"], "repository");
  EXPECT_EQ(d.description["files"], nlohmann::json::array({"data/test-00000-of-00001.parquet"}));
  EXPECT_EQ(hub.downloads(), 1);

  // Cached: the branch is asked for its commit, nothing is downloaded again;
  // pinned to the commit, the network is not used at all.
  const int api = hub.api_requests();
  aeval::datasets::load_dataset(f.registry(), "hub");
  EXPECT_EQ(hub.api_requests(), api + 1);
  aeval::datasets::load_dataset(f.registry("    revision: " + test_commit("main") + "\n"), "hub");
  EXPECT_EQ(hub.api_requests(), api + 1);
  EXPECT_EQ(hub.downloads(), 1);

  // limit and filter
  const auto some = aeval::datasets::load_dataset(f.registry("    filter: id LIKE 'a%'\n    limit: 1\n"), "hub");
  ASSERT_EQ(some.samples.size(), 1u);
  EXPECT_EQ(some.samples[0].id, "activated");
}

TEST(HuggingfaceDataset, DeclaredConfigsAndTheParquetConversionAreFollowed) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  Fixture f;
  HubTestRepo declared;
  declared.main = {test_commit("declared"), {{"clean/eval.parquet", f.parquet}, {"clean/other.parquet", f.parquet}}};
  declared.configs = nlohmann::json::parse(R"([{"config_name": "clean", "data_files": [{"split": "test", "path": "clean/eval*"}]}])");
  HubTestRepo converted;
  converted.main = {test_commit("raw"), {{"audio/clips.tar", f.parquet}}};
  converted.conversion = {test_commit("conversion"), {{"clean/test/0000.parquet", f.parquet}, {"clean/validation/0000.parquet", f.parquet}}};
  HubTestServer hub({{"acme/prompts", declared}, {"acme/raw", converted}});
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());

  const auto d = aeval::datasets::load_dataset(f.registry("    config: clean\n"), "hub");
  EXPECT_EQ(d.samples.size(), kPrompts.size());
  EXPECT_EQ(d.description["files"], nlohmann::json::array({"clean/eval.parquet"}));
  EXPECT_NE(f.error("    config: clen\n").find("no config 'clen'; its configs: clean (did you mean 'clean'?)"), std::string::npos);
  EXPECT_NE(f.error("    config: clean\n    split: tset\n").find("no split 'tset'; its splits: test (did you mean 'test'?)"), std::string::npos);

  const auto c = aeval::datasets::load_dataset(
      f.write_entry("hub:\n  class: huggingface\n  args:\n    repo: acme/raw\n    config: clean\n"), "hub");
  EXPECT_EQ(c.samples.size(), kPrompts.size());
  EXPECT_EQ(c.description["source"], "parquet conversion");
  EXPECT_EQ(c.description["source_commit"], test_commit("conversion"));
  try {
    aeval::datasets::load_dataset(
        f.write_entry("hub:\n  class: huggingface\n  args:\n    repo: acme/raw\n    config: clean\n    split: valdation\n"),
        "hub");
    ADD_FAILURE() << "a missing split loaded";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("its splits: test, validation (did you mean 'validation'?)"), std::string::npos) << e.what();
  }
}

TEST(HuggingfaceDataset, AudioNamedByUrlIsFetchedOnceIntoTheEntrysFolder) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  Fixture f;
  HubTestRepo repo;
  repo.main = {test_commit("urls"), {{"data/test.parquet", f.dir / "urls.parquet"}}};
  for (const auto& p : kPrompts) repo.main.files["wav/" + p + ".wav"] = f.dir / "wav" / (p + ".wav");
  HubTestServer hub({{"acme/prompts", repo}});
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  // The rows name their audio by URL (here: files of the same local Hub).
  aeval::testing::write_parquet(
      fmt::format("SELECT p AS id, 'words of ' || p AS text, {} || p || '.wav?download=true' AS audio "
                  "FROM (VALUES {}) t(p) ORDER BY p",
                  aeval::datasets::TableReader::literal(hub.endpoint() + "/datasets/acme/prompts/resolve/main/wav/"),
                  fmt::format("('{}')", fmt::join(kPrompts, "'), ('"))),
      f.dir / "urls.parquet");
  const auto d = aeval::datasets::load_dataset(f.registry(), "hub");
  ASSERT_EQ(d.samples.size(), kPrompts.size());
  EXPECT_EQ(hub.downloads(), 1 + int(kPrompts.size()));
  for (const auto& s : d.samples) {
    EXPECT_EQ(s.audio.extension(), ".wav") << s.audio;
    EXPECT_EQ(s.audio.parent_path(), f.dir / "cache" / "aeval" / "datasets" / "hub" / "audio");
    EXPECT_EQ(aeval::decode_audio(s.audio).samples, aeval::decode_audio(f.dir / "wav" / (s.id + ".wav")).samples);
  }
  aeval::datasets::load_dataset(f.registry(), "hub");
  EXPECT_EQ(hub.downloads(), 1 + int(kPrompts.size())) << "fetched once";
}

// Audio the rows name as files of the repository: one that cannot be downloaded (here: wrong twice) fails its
// sample alone, saying why, and the others load.
TEST(HuggingfaceDataset, ARepositoryFileThatCannotBeDownloadedFailsItsSampleAlone) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  Fixture f;
  HubTestRepo repo;
  repo.main = {test_commit("paths"), {{"data/test.parquet", f.dir / "paths.parquet"}}};
  for (const auto& p : kPrompts) repo.main.files["wav/" + p + ".wav"] = f.dir / "wav" / (p + ".wav");
  aeval::testing::write_parquet(
      fmt::format("SELECT p AS id, 'words of ' || p AS text, {{'bytes': NULL::BLOB, 'path': 'wav/' || p || '.wav'}} AS "
                  "audio FROM (VALUES {}) t(p) ORDER BY p",
                  fmt::format("('{}')", fmt::join(kPrompts, "'), ('"))),
      f.dir / "paths.parquet");
  HubTestServer hub({{"acme/prompts", repo}});
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  const auto whole = aeval::datasets::load_dataset(f.registry(), "hub");
  ASSERT_EQ(whole.samples.size(), kPrompts.size());
  const auto& lost = whole.samples.front();
  std::filesystem::remove(lost.audio);

  hub.set_faults({.throttled = 0, .unavailable = 0, .cut_after = 0, .corrupted = 2});
  const auto d = aeval::datasets::load_dataset(f.registry(), "hub");
  ASSERT_EQ(d.samples.size(), kPrompts.size());
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("1 audio file(s) of acme/prompts@"), std::string::npos) << d.notes[0];
  try {
    aeval::decode_audio(d.samples.front().audio);
    ADD_FAILURE() << "a clip that was not downloaded decoded";
  } catch (const aeval::Error& e) {
    const std::string why = e.what();
    EXPECT_NE(why.find("not downloaded: " + hub.endpoint() + "/datasets/acme/prompts/resolve/" + test_commit("paths") +
                       "/wav/" + lost.id + ".wav"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find("the download is wrong twice"), std::string::npos) << why;
  }
  for (std::size_t i = 1; i < d.samples.size(); ++i)
    EXPECT_EQ(aeval::decode_audio(d.samples[i].audio).samples,
              aeval::decode_audio(f.dir / "wav" / (d.samples[i].id + ".wav")).samples);
}

TEST(HuggingfaceDataset, ComputedFieldsAreDuckDbExpressionsOverTheColumns) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  Fixture f;
  HubTestServer hub({{"acme/prompts", f.repo_with_split_file()}});
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  const auto d = aeval::datasets::load_dataset(
      f.registry("    computed_fields: {both: \"list_prepend(text, [id])\", loud: \"upper(text)\"}\n"), "hub");
  ASSERT_FALSE(d.samples.empty());
  const auto& s = d.samples.front();
  EXPECT_EQ(s.fields["both"], nlohmann::json::array({"words of " + s.id, s.id}));
  EXPECT_EQ(s.fields["loud"], "WORDS OF " + aeval::text::upper(s.id));
  // A computed field can be the reference (a label derived from other columns).
  const auto labelled = aeval::datasets::load_dataset(
      f.registry("    text_column: loud\n    computed_fields: {loud: \"upper(text)\"}\n"), "hub");
  ASSERT_FALSE(labelled.samples.empty());
  EXPECT_EQ(labelled.samples.front().reference, "WORDS OF " + aeval::text::upper(labelled.samples.front().id));
  EXPECT_NE(f.error("    computed_fields: {x: \"no_such_column + 1\"}\n").find("no_such_column"), std::string::npos);
}

// A ClassLabel column is stored as integers; `datasets` names its labels in the file's
// "huggingface" metadata, and aeval reads the column as those names (-1, no label, as null).
TEST(HuggingfaceDataset, AClassLabelColumnReadsAsItsNames) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  Fixture f;
  const auto labelled = f.dir / "labelled.parquet";
  aeval::testing::write_parquet(
      fmt::format("SELECT regexp_extract(filename, '([^/]+)\\.wav$', 1) AS id, "
                  "{{'bytes': content, 'path': regexp_extract(filename, '[^/]+$')}} AS audio, "
                  "[1, 2, -1, 0][row_number() OVER (ORDER BY filename)::INTEGER]::BIGINT AS genre, 7::BIGINT AS take "
                  "FROM read_blob({}) ORDER BY id",
                  aeval::datasets::TableReader::literal((f.dir / "wav" / "*.wav").string())),
      labelled, 122880,
      {{"huggingface", R"({"info": {"features": {"id": {"dtype": "string", "_type": "Value"}, "audio": {"_type": "Audio"},
          "genre": {"names": ["blues", "classical", "country"], "_type": "ClassLabel"},
          "take": {"dtype": "int64", "_type": "Value"}}}})"}});
  HubTestRepo repo;
  repo.main = {test_commit("labels"), {{"data/test-00000-of-00001.parquet", labelled}}};
  HubTestServer hub({{"acme/prompts", repo}});
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  const auto as_text = aeval::datasets::load_dataset(f.registry("    text_column: genre\n"), "hub");
  std::map<std::string, std::string> references;
  for (const auto& s : as_text.samples) {
    references[s.id] = s.reference.value_or("");
    EXPECT_EQ(s.fields["take"], 7) << "a plain integer column stays a number";
  }
  // read_blob lists the files by name: activated, agent-alreadyon, conf-adminmenu-18, vm-goodbye
  EXPECT_EQ(references, (std::map<std::string, std::string>{
                            {"activated", "classical"}, {"agent-alreadyon", "country"}, {"conf-adminmenu-18", ""},
                            {"vm-goodbye", "blues"}}));
  const auto as_field = aeval::datasets::load_dataset(f.registry("    text_column: ''\n"), "hub");
  for (const auto& s : as_field.samples)
    EXPECT_EQ(s.fields["genre"], references[s.id].empty() ? nlohmann::json(nullptr) : nlohmann::json(references[s.id]));
}

TEST(HuggingfaceDataset, AMissingColumnListsTheColumnsThereAre) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  Fixture f;
  HubTestServer hub({{"acme/prompts", f.repo_with_split_file()}});
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  EXPECT_NE(f.error("    text_column: sentence\n").find("no column 'sentence' (text_column); its columns: id, text, audio, rate"),
            std::string::npos);
}

TEST(HuggingfaceDataset, AGatedDatasetSaysHowToGetAccessAndOpensWithTheToken) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  Fixture f;
  auto repo = f.repo_with_split_file();
  repo.token = "hf_secret";
  HubTestServer hub({{"acme/prompts", repo}});
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  const std::string denied = f.error();
  EXPECT_NE(denied.find("HTTP 401"), std::string::npos) << denied;
  EXPECT_NE(denied.find("does not exist (check its name) or is gated or private: accept its terms at " + hub.endpoint() +
                        "/datasets/acme/prompts"),
            std::string::npos)
      << denied;
  EXPECT_NE(denied.find("$HF_TOKEN (it is not set)"), std::string::npos) << denied;
  ScopedEnv mine("MY_HUB_TOKEN", "hf_secret");
  EXPECT_EQ(aeval::datasets::load_dataset(f.registry("    token_env: MY_HUB_TOKEN\n"), "hub").samples.size(), kPrompts.size());
  // The token is never part of what the dataset records.
  EXPECT_EQ(aeval::datasets::load_dataset(f.registry("    token_env: MY_HUB_TOKEN\n"), "hub").description.dump().find("hf_secret"),
            std::string::npos);
}

TEST(HuggingfaceDataset, ThrottlingServerErrorsAndACutDownloadAreRetriedAndResumed) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  Fixture f;
  HubTestServer hub({{"acme/prompts", f.repo_with_split_file()}});
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  const auto size = std::filesystem::file_size(f.parquet);
  hub.set_faults({.throttled = 1, .unavailable = 1, .cut_after = size / 2, .corrupted = 0});
  const auto d = aeval::datasets::load_dataset(f.registry(), "hub");
  EXPECT_EQ(d.samples.size(), kPrompts.size());
  // The second attempt asked for the bytes after those the cut one delivered.
  EXPECT_EQ(hub.ranges(), std::vector<std::string>{fmt::format("bytes={}-", size / 2)});
  EXPECT_EQ(aeval::decode_audio(d.samples[0].audio).samples,
            aeval::decode_audio(f.dir / "wav" / (d.samples[0].id + ".wav")).samples);
}

TEST(HuggingfaceDataset, AWrongDownloadIsFetchedAgainOnceThenRefused) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  Fixture f;
  HubTestServer hub({{"acme/prompts", f.repo_with_split_file()}});
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  hub.set_faults({.throttled = 0, .unavailable = 0, .cut_after = 0, .corrupted = 1});
  EXPECT_EQ(aeval::datasets::load_dataset(f.registry(), "hub").samples.size(), kPrompts.size());
  EXPECT_EQ(hub.downloads(), 2);

  std::filesystem::remove_all(f.dir / "cache");
  hub.set_faults({.throttled = 0, .unavailable = 0, .cut_after = 0, .corrupted = 2});
  const std::string wrong = f.error();
  EXPECT_NE(wrong.find("the download is wrong twice: SHA-256"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("it was discarded"), std::string::npos);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(f.dir / "cache"))
    EXPECT_NE(entry.path().extension(), ".parquet") << "a wrong file stayed in the cache: " << entry.path();
}

TEST(HuggingfaceDataset, OfflineAWarmCacheWorksAndAColdOneSaysHowToFetch) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  Fixture f;
  {
    HubTestServer hub({{"acme/prompts", f.repo_with_split_file()}});
    ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
    aeval::datasets::load_dataset(f.registry(), "hub");
  }
  // The server is gone: an unreachable endpoint, then offline mode.
  ScopedEnv endpoint("HF_ENDPOINT", "http://127.0.0.1:9");
  const std::string unreachable = f.error();
  EXPECT_NE(unreachable.find("cannot reach http://127.0.0.1:9/api/datasets/acme/prompts/revision/main"), std::string::npos)
      << unreachable;
  EXPECT_NE(unreachable.find("aeval fetch dataset hub"), std::string::npos) << unreachable;
  EXPECT_NE(unreachable.find("set HF_HUB_OFFLINE=1; or name a Hub mirror in HF_ENDPOINT"), std::string::npos)
      << unreachable;
  // An entry pinned to a commit, whose files were never listed here, gets the same hint.
  const std::string pinned = f.error("    split: validation\n    revision: " + test_commit("main") + "\n");
  EXPECT_NE(pinned.find("cannot reach http://127.0.0.1:9/api/datasets/acme/prompts/revision/" + test_commit("main")),
            std::string::npos)
      << pinned;
  EXPECT_NE(pinned.find("(cache folder "), std::string::npos) << pinned;
  EXPECT_NE(pinned.find("aeval fetch dataset hub"), std::string::npos) << pinned;
  ScopedEnv offline("HF_HUB_OFFLINE", "1");
  const auto d = aeval::datasets::load_dataset(f.registry(), "hub");
  EXPECT_EQ(d.samples.size(), kPrompts.size());
  EXPECT_EQ(d.description["commit"], test_commit("main"));
  const std::string cold = f.error("    split: validation\n");
  EXPECT_NE(cold.find("offline (HF_HUB_OFFLINE is set) and the file list of config 'default', split 'validation'"),
            std::string::npos) << cold;
  EXPECT_NE(cold.find("On a machine with network run `aeval fetch dataset hub`, copy"), std::string::npos) << cold;
}

}  // namespace
