// A Hub (or an HF_ENDPOINT mirror, or anyone on a plain-http path) whose answers name places
// outside the cache: a revision resolving to a "commit" that is a relative path, a listing of
// files under "../" or "/". aeval refuses each before it writes anything, with one clear error.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "aeval/error.hpp"
#include "datasets/hub_client.hpp"
#include "datasets/hub_split.hpp"
#include "support/hub_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "util/sha256.hpp"

namespace {

namespace fs = std::filesystem;

struct HostileHub {
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  aeval::testing::ScopedEnv offline{"HF_HUB_OFFLINE", nullptr};

  // Fetches acme/rows's test split from a Hub serving `commit` and `path`; returns the error.
  std::string fetch(const std::string& commit, const std::string& path) {
    aeval::testing::write_parquet("SELECT 'a' AS id, 'x' AS text", dir / "rows.parquet");
    aeval::testing::HubTestRepo repo;
    repo.main = {commit, {{path, dir / "rows.parquet"}}};
    aeval::testing::HubTestServer hub({{"acme/rows", repo}});
    aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
    try {
      aeval::datasets::fetch_hub_split({"acme/rows", "default", "test", "main", "HF_TOKEN", ""});
    } catch (const aeval::Error& e) {
      EXPECT_EQ(aeval::ErrorCategory::data, e.category()) << e.what();
      return e.what();
    }
    ADD_FAILURE() << "fetched from a Hub naming " << commit << " and " << path;
    return "";
  }

  // Nothing was written outside the cache folder: the temporary folder holds the cache and the Parquet file only.
  void expect_nothing_outside_the_cache() const {
    for (const auto& entry : fs::directory_iterator(dir.path()))
      EXPECT_TRUE(entry.path().filename() == "cache" || entry.path().filename() == "rows.parquet") << entry.path();
  }
};

TEST(HubHostileNames, ACommitThatIsAPathIsRefused) {
  HostileHub hub;
  const std::string error = hub.fetch("../../../escaped-commit", "data/test-00000-of-00001.parquet");
  EXPECT_NE(error.find("is not 40 hex digits"), std::string::npos) << error;
  hub.expect_nothing_outside_the_cache();
  EXPECT_FALSE(fs::exists(hub.dir / "escaped-commit"));
}

TEST(HubHostileNames, ListedPathsOutsideTheRepositoryAreRefused) {
  for (const std::string path : {"../../test-00000-of-00001.parquet", "/tmp/test-00000-of-00001.parquet",
                                 "data/../../../test-00000-of-00001.parquet", "data/./test-00000.parquet"}) {
    HostileHub hub;
    const std::string error = hub.fetch(aeval::testing::test_commit("rows"), path);
    EXPECT_NE(error.find("a path outside the repository"), std::string::npos) << path << ": " << error;
    hub.expect_nothing_outside_the_cache();
  }
}

TEST(HubHostileNames, OrdinaryNamesStillWork) {
  EXPECT_TRUE(aeval::datasets::safe_repository_path("data/test-00000-of-00001.parquet"));
  EXPECT_TRUE(aeval::datasets::safe_repository_path("en/test/0000.parquet"));
  EXPECT_TRUE(aeval::datasets::safe_repository_path("a..b/c.parquet"));
  for (const char* bad : {"", "/a", "a//b", "a/./b", "../a", "a/..", "a\\b", "a\nb"})
    EXPECT_FALSE(aeval::datasets::safe_repository_path(bad)) << bad;
}

// A listing whose fields have the wrong types is malformed data, never another exception (nlohmann's
// type_error used to reach `main` as an internal error).
TEST(HubHostileNames, AListingOfWrongTypesIsMalformed) {
  const std::string url = "https://hub.test/api/datasets/a/b/tree/main";
  for (const char* page : {R"([{"type": "file", "path": 7}])", R"([{"type": "file", "path": "a", "size": "big"}])",
                           R"([{"type": "file", "path": "a", "lfs": {"oid": 1}}])",
                           R"([{"type": "file", "path": "a", "size": -1}])"}) {
    try {
      aeval::datasets::hub_listing_files(nlohmann::json::parse(page), url);
      ADD_FAILURE() << page << " was read";
    } catch (const aeval::Error& e) {
      EXPECT_EQ(e.category(), aeval::ErrorCategory::data) << page;
      EXPECT_NE(std::string(e.what()).find("a malformed file listing"), std::string::npos) << e.what();
    }
  }
  const auto files = aeval::datasets::hub_listing_files(
      nlohmann::json::parse(R"([{"type": "directory", "path": "d"}, {"type": "file", "path": "d/x", "size": 3}])"), url);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "d/x");
  EXPECT_EQ(files[0].size, 3u);
}

// A file the Hub keeps in git (no LFS record) is listed with its git blob id only: a download
// corrupted in transit, of the right size, is caught by it, fetched again once, then refused.
TEST(HubHostileNames, AFileKeptInGitIsCheckedByItsGitBlobId) {
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  aeval::testing::ScopedEnv offline{"HF_HUB_OFFLINE", nullptr};
  aeval::testing::write_parquet("SELECT 'a' AS id, 'x' AS text", dir / "rows.parquet");
  aeval::testing::HubTestRepo repo;
  const std::string path = "data/test-00000-of-00001.parquet";
  repo.main = {aeval::testing::test_commit("rows"), {{path, dir / "rows.parquet"}}};
  repo.in_git = {path};
  aeval::testing::HubTestServer hub({{"acme/rows", repo}});
  aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  hub.set_faults({.throttled = 0, .unavailable = 0, .cut_after = 0, .corrupted = 1});
  aeval::datasets::fetch_hub_split({"acme/rows", "default", "test", "main", "HF_TOKEN", ""});
  EXPECT_EQ(hub.downloads(), 2) << "the corrupted copy was fetched again";

  fs::remove_all(dir / "cache");
  hub.set_faults({.throttled = 0, .unavailable = 0, .cut_after = 0, .corrupted = 2});
  try {
    aeval::datasets::fetch_hub_split({"acme/rows", "default", "test", "main", "HF_TOKEN", ""});
    ADD_FAILURE() << "a file corrupted twice was kept";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("the download is wrong twice: git blob id"), std::string::npos) << e.what();
  }
}

// A listing with no digest for a file (no LFS record, oid null: as some mirrors list) checks the first download
// by its length; the file's SHA-256 is then recorded in the cached file list, and a later download of other bytes
// of the same length (the cache's copy removed, the served file changed) is refused.
TEST(HubHostileNames, AFileListedWithoutDigestIsHeldToItsFirstDownload) {
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  aeval::testing::ScopedEnv offline{"HF_HUB_OFFLINE", nullptr};
  aeval::testing::write_parquet("SELECT 'a' AS id, 'x' AS text", dir / "rows.parquet");
  aeval::testing::HubTestRepo repo;
  const std::string path = "data/test-00000-of-00001.parquet";
  repo.main = {aeval::testing::test_commit("rows"), {{path, dir / "rows.parquet"}}};
  repo.undigested = {path};
  aeval::testing::HubTestServer hub({{"acme/rows", repo}});
  aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
  const aeval::datasets::HubSplitRequest request{"acme/rows", "default", "test", "main", "HF_TOKEN", ""};
  const auto first = aeval::datasets::fetch_hub_split(request);
  ASSERT_EQ(1u, first.files.size());
  const std::string digest = aeval::sha256_of_file(dir / "rows.parquet");
  const auto cached = aeval::datasets::cached_hub_split(request);
  ASSERT_TRUE(cached);
  EXPECT_NE(aeval::testing::read_bytes(cached->file_list).find(digest), std::string::npos)
      << "the first download's SHA-256 is recorded";

  // Other bytes, the same length: only the digest can tell.
  std::string bytes = aeval::testing::read_bytes(dir / "rows.parquet");
  bytes[bytes.size() / 2] ^= 1;
  aeval::testing::write_bytes(dir / "rows.parquet", bytes);
  fs::remove(first.files[0]);
  try {
    aeval::datasets::fetch_hub_split(request);
    ADD_FAILURE() << "a changed file was kept";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("SHA-256 " + aeval::sha256_hex(bytes) + " where " + digest + " was expected"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(first.files[0]));
}

}  // namespace
