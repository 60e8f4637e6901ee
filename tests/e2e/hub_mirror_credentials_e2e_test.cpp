// A mirror behind HTTP Basic auth, written into HF_ENDPOINT as
// http://user:password@host: aeval sends the credentials in a header and never
// shows them, not in an error, not in what it prints.
#include <gtest/gtest.h>

#include <string>

#include "aeval/error.hpp"
#include "datasets/hub_split.hpp"
#include "support/hub_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

TEST(HubMirrorCredentials, GoInAHeaderAndNeverIntoAMessage) {
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  aeval::testing::ScopedEnv offline{"HF_HUB_OFFLINE", nullptr};
  aeval::testing::ScopedEnv token{"HF_TOKEN", nullptr};
  aeval::testing::write_parquet("SELECT 'a' AS id, 'x' AS text", dir / "rows.parquet");
  aeval::testing::HubTestRepo repo;
  repo.main = {aeval::testing::test_commit("rows"), {{"data/test-00000-of-00001.parquet", dir / "rows.parquet"}}};
  repo.basic = "mirror-user:s3cr%t@pw";
  aeval::testing::HubTestServer hub({{"acme/rows", repo}});
  const std::string endpoint = hub.endpoint();  // http://127.0.0.1:PORT
  const std::string with_credentials = "http://mirror-user:s3cr%25t%40pw@" + endpoint.substr(std::string("http://").size());

  aeval::testing::ScopedEnv mirror("HF_ENDPOINT", with_credentials.c_str());
  const auto split = aeval::datasets::fetch_hub_split({"acme/rows", "default", "test", "main", "HF_TOKEN", ""});
  EXPECT_FALSE(split.files.empty());
  try {
    aeval::datasets::fetch_hub_split({"acme/missing", "default", "test", "main", "HF_TOKEN", ""});
    ADD_FAILURE() << "fetched a repository the mirror does not have";
  } catch (const aeval::Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(endpoint), std::string::npos) << message;
    EXPECT_EQ(message.find("s3cr"), std::string::npos) << message;
    EXPECT_EQ(message.find("mirror-user"), std::string::npos) << message;
  }
}

}  // namespace
