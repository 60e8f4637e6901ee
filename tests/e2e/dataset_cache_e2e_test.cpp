// `aeval list datasets` and `aeval cache` against a real cache: a Hub split
// fetched from a local Hub, a local manifest, and the leftovers of an entry
// that no longer exists. Nothing here uses the network once fetched.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <map>

#include "support/hub_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/run_aeval.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::run_aeval;
using aeval::testing::ScopedEnv;

struct CacheFixture {
  aeval::testing::TempDir dir;
  ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  ScopedEnv offline{"HF_HUB_OFFLINE", nullptr};
  std::filesystem::path registry = dir / "registry";

  CacheFixture() {
    aeval::testing::write_parquet("SELECT 'u' || i AS id, 'words ' || i AS text, 'u' || i || '.wav' AS audio "
                                  "FROM range(5) t(i)",
                                  dir / "test.parquet");
    std::ofstream(dir / "local.jsonl") << R"({"id": "a", "audio": "a.wav", "text": "x"})" << "\n";
    write_registry(true);
  }

  void write_registry(bool with_hub) {
    std::filesystem::create_directories(registry / "datasets");
    std::ofstream yaml(registry / "datasets" / "mine.yaml");
    if (with_hub)
      yaml << "hub-split:\n  class: huggingface\n  args:\n    repo: acme/words\n    license: CC-BY-4.0\n"
              "    size: 5 rows\n";
    yaml << "local-list:\n  class: jsonl\n  args:\n    path: " << (dir / "local.jsonl").string() << "\n";
  }

  // The local Hub's one repository: acme/words, its test split the five rows above.
  std::map<std::string, aeval::testing::HubTestRepo> hub() const {
    aeval::testing::HubTestRepo repo;
    repo.main = {aeval::testing::test_commit("words"), {{"data/test-00000-of-00001.parquet", dir / "test.parquet"}}};
    return {{"acme/words", repo}};
  }

  std::string aeval(const std::string& arguments, int expected_status = 0) const {
    const auto out = run_aeval(fmt::format("--registry {} {}", registry.string(), arguments));
    EXPECT_EQ(out.status, expected_status) << arguments << "\n" << out.output;
    return out.output;
  }

  // The line of `aeval list datasets` about `name`.
  std::string listed(const std::string& name) const {
    const std::string all = aeval("list datasets");
    const auto at = all.find("\n" + name + " ");
    if (at == std::string::npos) return "";
    return all.substr(at + 1, all.find('\n', at + 1) - at - 1);
  }
};

TEST(DatasetCacheE2E, ListingShowsSourceLicenceAndWhetherEachDatasetIsCached) {
  CacheFixture f;
  aeval::testing::HubTestServer hub(f.hub());
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());

  std::string line = f.listed("hub-split");
  EXPECT_NE(line.find("not cached"), std::string::npos) << line;
  EXPECT_NE(line.find("CC-BY-4.0"), std::string::npos) << line;
  EXPECT_NE(line.find("hub acme/words default/test@main (5 rows)"), std::string::npos) << line;
  EXPECT_NE(f.listed("local-list").find(" local "), std::string::npos);
  EXPECT_EQ(hub.api_requests(), 0) << "listing never asks the network";

  EXPECT_NE(f.aeval("fetch dataset hub-split").find("hub-split: 5 samples cached"), std::string::npos);
  line = f.listed("hub-split");
  EXPECT_NE(line.find(" cached "), std::string::npos) << line;
  EXPECT_EQ(line.find("not cached"), std::string::npos) << line;
  const auto size = std::filesystem::file_size(f.dir / "test.parquet");
  EXPECT_NE(line.find(fmt::format("{} B", size)), std::string::npos) << line << " (" << size << " B)";

  const std::string shown = f.aeval("cache");
  EXPECT_NE(shown.find("hub acme/words@" + aeval::testing::test_commit("words").substr(0, 12) + ": read by hub-split"),
            std::string::npos)
      << shown;
}

// Shards of one run may start together and fetch the same split: they take turns on its folder,
// so the file is downloaded once and each of them finds the whole copy. The first download is
// throttled for a second (429, Retry-After: 1), so the others start while it waits.
TEST(DatasetCacheE2E, ProcessesFetchingOneSplitAtOnceDownloadItOnce) {
  CacheFixture f;
  aeval::testing::HubTestServer hub(f.hub());
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  aeval::testing::HubTestFaults faults;
  faults.throttled = 1;
  hub.set_faults(faults);

  std::string together;
  for (int i = 0; i < 4; ++i)
    together += fmt::format("({} --registry {} fetch dataset hub-split > {} 2>&1; echo $? > {}) & ", AEVAL_BINARY,
                            f.registry.string(), (f.dir / fmt::format("out-{}", i)).string(),
                            (f.dir / fmt::format("status-{}", i)).string());
  aeval::testing::run_shell(together + "wait");
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(aeval::testing::read_bytes(f.dir / fmt::format("status-{}", i)), "0\n") << i;
    const std::string said = aeval::testing::read_bytes(f.dir / fmt::format("out-{}", i));
    EXPECT_NE(said.find("hub-split: 5 samples cached"), std::string::npos) << said;
  }
  EXPECT_EQ(hub.downloads(), 1);
  for (const auto& file : std::filesystem::recursive_directory_iterator(f.dir / "cache"))
    EXPECT_EQ(file.path().string().find(".partial"), std::string::npos) << file.path();
  EXPECT_NE(f.listed("hub-split").find(" cached "), std::string::npos);
}

TEST(DatasetCacheE2E, PruneRemovesOnlyWhatNoEntryReadsAndRemoveFreesOneDataset) {
  CacheFixture f;
  aeval::testing::HubTestServer hub(f.hub());
  ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  f.aeval("fetch dataset hub-split");
  // Leftovers of an entry deleted since: an unfinished download.
  const auto leftover = f.dir / "cache" / "aeval" / "datasets" / "old-entry" / "download" / "clips.tar.partial";
  std::filesystem::create_directories(leftover.parent_path());
  std::ofstream(leftover) << "half an archive";

  std::string shown = f.aeval("cache");
  EXPECT_NE(shown.find("files of dataset old-entry (no registry entry): read by no registry dataset"), std::string::npos)
      << shown;
  EXPECT_NE(f.aeval("cache prune --dry-run").find("would remove"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(leftover));
  const std::string pruned = f.aeval("cache prune");
  EXPECT_NE(pruned.find("removing       15 B  files of dataset old-entry"), std::string::npos) << pruned;
  EXPECT_EQ(pruned.find("acme/words"), std::string::npos) << "a file an entry reads is kept:\n" << pruned;
  EXPECT_FALSE(std::filesystem::exists(leftover.parent_path().parent_path()));
  EXPECT_NE(f.listed("hub-split").find(" cached "), std::string::npos);

  // Once the entry is gone, its snapshot is no one's.
  f.write_registry(false);
  shown = f.aeval("cache");
  EXPECT_NE(shown.find("acme/words@"), std::string::npos);
  EXPECT_NE(shown.find("read by no registry dataset"), std::string::npos) << shown;
  f.aeval("cache prune");
  EXPECT_FALSE(std::filesystem::exists(f.dir / "cache" / "aeval" / "datasets" / "hub")) << f.aeval("cache");

  // remove: one dataset's files, fetched again when next used.
  f.write_registry(true);
  f.aeval("fetch dataset hub-split");
  EXPECT_NE(f.aeval("cache remove hub-split").find("freed"), std::string::npos);
  EXPECT_NE(f.listed("hub-split").find("not cached"), std::string::npos);
  EXPECT_NE(f.aeval("cache remove hub-spilt", 1).find("did you mean"), std::string::npos);
  EXPECT_NE(f.aeval("cache prune hub-split", 1).find("cache remove"), std::string::npos);
}

}  // namespace
