// The Hub's Parquet conversion (refs/convert/parquet) read as `datasets` reads it: only when the
// dataset viewer says it is made from the commit asked for (X-Revision) and is whole (not partial,
// nothing pending or failed); its files in the viewer's order, a split of many files in its
// SPLIT-partN folders included.
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

TEST(HubConversion, ACommitTheConversionIsNotMadeFromIsNotReadFromIt) {
  ConvertedHub hub;
  auto r = hub.repo({"default/test/0000.parquet"});
  EXPECT_EQ(hub.fetch(r), "default/test/0000.parquet ");
  r.history.push_back(r.main);  // the commit asked for, which main has moved on from
  r.main.commit = test_commit("moved on");
  r.converted_from = r.main.commit;
  std::filesystem::remove_all(hub.dir / "cache");
  const std::string error = hub.fetch(r, test_commit("head"));
  EXPECT_NE(error.find("the Hub's Parquet conversion of it is made from commit " + test_commit("moved on").substr(0, 7) +
                       ", not from " + test_commit("head").substr(0, 7)),
            std::string::npos)
      << error;
}

TEST(HubConversion, AConversionLaggingMainIsReadOnlyForTheCommitItIsMadeFrom) {
  ConvertedHub hub;
  auto r = hub.repo({"default/test/0000.parquet"});
  r.history.push_back(r.main);  // main has moved on; the viewer has not converted its new commit yet
  r.main.commit = test_commit("moved on");
  r.converted_from = test_commit("head");
  const std::string lagging = hub.fetch(r, "main");
  EXPECT_NE(lagging.find("made from commit " + test_commit("head").substr(0, 7) + ", not from " +
                         test_commit("moved on").substr(0, 7) + " that revision 'main' names"),
            std::string::npos)
      << lagging;
  EXPECT_EQ(hub.fetch(r, test_commit("head")), "default/test/0000.parquet ");
}

TEST(HubConversion, AConversionStillBeingMadeIsNotRead) {
  ConvertedHub hub;
  auto r = hub.repo({"default/test/0000.parquet"});
  r.conversion_pending = true;
  const std::string error = hub.fetch(r);
  EXPECT_NE(error.find("is still being made (pending)"), std::string::npos) << error;
}

TEST(HubConversion, WithoutTheDatasetViewerTheConversionIsNotRead) {
  ConvertedHub hub;
  auto r = hub.repo({"default/test/0000.parquet"});
  aeval::testing::HubTestServer server({{"acme/raw", r}});
  // An endpoint by address: no datasets-server.HOST can be derived that resolves.
  const std::string by_address = "http://127.0.0.1:" + server.endpoint().substr(server.endpoint().rfind(':') + 1);
  aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", by_address.c_str());
  try {
    aeval::datasets::fetch_hub_split({"acme/raw", "default", "test", "main", "HF_TOKEN", ""});
    ADD_FAILURE() << "read a conversion no dataset viewer vouched for";
  } catch (const aeval::Error& e) {
    const std::string error = e.what();
    EXPECT_NE(error.find("the Hub's dataset viewer cannot say which commit its Parquet conversion is made from: "
                         "cannot reach http://datasets-server.127.0.0.1:"),
              std::string::npos)
        << error;
  }
}

TEST(HubConversion, ASplitInNumberedPartsIsReadWholeInOrder) {
  ConvertedHub hub;
  const auto r = hub.repo({"default/test-part10/0000.parquet", "default/test-part2/0000.parquet",
                           "default/test-part0/0001.parquet", "default/test-part0/0000.parquet",
                           "default/train/0000.parquet"});
  EXPECT_EQ(hub.fetch(r), "default/test-part0/0000.parquet default/test-part0/0001.parquet "
                          "default/test-part2/0000.parquet default/test-part10/0000.parquet ");
}

TEST(HubConversion, APartialConversionIsRefusedWhole) {
  ConvertedHub hub;
  const auto r = hub.repo({"default/partial-test/0000.parquet", "default/train/0000.parquet"});
  for (const std::string split : {"test", "train"}) {
    const std::string error = hub.fetch(r, "main", split);
    EXPECT_NE(error.find("the Hub's Parquet conversion of it is partial"), std::string::npos) << error;
  }
}

// With no split named, `datasets` reads every split; without a card saying their order, one split is
// read and several are an error. The splits are the viewer's, as the files are: a split in numbered
// parts is one split.
TEST(HubConversion, WithNoSplitNamedTheSplitsAreTheViewers) {
  ConvertedHub hub;
  const auto one = hub.repo({"default/test-part1/0000.parquet", "default/test-part0/0000.parquet"});
  EXPECT_EQ(hub.fetch(one, "main", ""), "default/test-part0/0000.parquet default/test-part1/0000.parquet ");
  std::filesystem::remove_all(hub.dir / "cache");
  const auto two = hub.repo({"default/train/0000.parquet", "default/test/0000.parquet"});
  const std::string error = hub.fetch(two, "main", "");
  EXPECT_NE(error.find("declares no split order; its splits: test, train;"), std::string::npos) << error;
}

}  // namespace
