// The Hub's Parquet conversion (refs/convert/parquet) read as `datasets` reads it: only for the
// latest commit of main, which it is made from; a split of many files in its SPLIT-partN
// folders, in order; never a split cut short (partial-SPLIT).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "aeval/error.hpp"
#include "datasets/hub_split.hpp"
#include "support/hub_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::test_commit;

struct ConvertedHub {
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  aeval::testing::ScopedEnv offline{"HF_HUB_OFFLINE", nullptr};
  aeval::testing::ScopedEnv token{"HF_TOKEN", nullptr};

  // A repository storing no Parquet, whose conversion holds these files.
  aeval::testing::HubTestRepo repo(const std::vector<std::string>& converted) {
    aeval::testing::write_parquet("SELECT 'a' AS id, 'x' AS text", dir / "rows.parquet");
    aeval::testing::HubTestRepo r;
    r.main = {test_commit("head"), {{"loader.py", dir / "rows.parquet"}}};
    r.conversion.commit = test_commit("conversion");
    for (const auto& path : converted) r.conversion.files[path] = dir / "rows.parquet";
    return r;
  }
  // The split's repository paths, or the error.
  std::string fetch(const aeval::testing::HubTestRepo& r, const std::string& revision = "main",
                    const std::string& split = "test") {
    aeval::testing::HubTestServer hub({{"acme/raw", r}});
    aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
    try {
      std::string paths;
      for (const auto& p : aeval::datasets::fetch_hub_split({"acme/raw", "default", split, revision, "HF_TOKEN", ""})
                               .repository_paths)
        paths += p + " ";
      return paths;
    } catch (const aeval::Error& e) {
      return e.what();
    }
  }
};

TEST(HubConversion, AnotherCommitThanMainsLatestIsNotReadFromIt) {
  ConvertedHub hub;
  auto r = hub.repo({"default/test/0000.parquet"});
  EXPECT_EQ(hub.fetch(r), "default/test/0000.parquet ");
  r.history.push_back(r.main);  // the commit asked for, which main has moved on from
  r.main.commit = test_commit("moved on");
  std::filesystem::remove_all(hub.dir / "cache");
  const std::string error = hub.fetch(r, test_commit("head"));
  EXPECT_NE(error.find("the Hub converts only the latest commit of main"), std::string::npos) << error;
}

TEST(HubConversion, ASplitInNumberedPartsIsReadWholeInOrder) {
  ConvertedHub hub;
  const auto r = hub.repo({"default/test-part10/0000.parquet", "default/test-part2/0000.parquet",
                           "default/test-part0/0001.parquet", "default/test-part0/0000.parquet",
                           "default/train/0000.parquet"});
  EXPECT_EQ(hub.fetch(r), "default/test-part0/0000.parquet default/test-part0/0001.parquet "
                          "default/test-part2/0000.parquet default/test-part10/0000.parquet ");
}

TEST(HubConversion, APartialSplitIsRefusedAndNeverSuggested) {
  ConvertedHub hub;
  const auto r = hub.repo({"default/partial-test/0000.parquet", "default/train/0000.parquet"});
  const std::string error = hub.fetch(r);
  EXPECT_NE(error.find("holds only part of config 'default', split 'test' (folder partial-test"), std::string::npos)
      << error;
  const std::string asked = hub.fetch(r, "main", "partial-test");
  EXPECT_NE(asked.find("has no split 'partial-test'; its splits: test, train"), std::string::npos) << asked;
}

}  // namespace
