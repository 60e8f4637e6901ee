// Access to the Hub as its own clients have it: the token from HF_TOKEN, the
// older HUGGING_FACE_HUB_TOKEN or the file `huggingface-cli login` writes;
// a mirror behind HTTP Basic auth written into HF_ENDPOINT as
// http://user:password@host, whose credentials go in a header and are never
// shown; a 401 to an anonymous request, which may mean a mistyped name.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "aeval/error.hpp"
#include "datasets/hub_split.hpp"
#include "support/hub_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

TEST(HubAccess, MirrorCredentialsGoInAHeaderAndNeverIntoAMessage) {
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

// A gated repository served by a stand-in Hub, fetched with the environment the test sets.
struct GatedHub {
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  aeval::testing::ScopedEnv offline{"HF_HUB_OFFLINE", nullptr};
  aeval::testing::ScopedEnv token{"HF_TOKEN", nullptr};
  aeval::testing::ScopedEnv old_token{"HUGGING_FACE_HUB_TOKEN", nullptr};
  aeval::testing::ScopedEnv token_path{"HF_TOKEN_PATH", nullptr};
  aeval::testing::ScopedEnv hf_home{"HF_HOME", (dir / "hf-home").c_str()};
  std::unique_ptr<aeval::testing::HubTestServer> hub;
  std::unique_ptr<aeval::testing::ScopedEnv> endpoint;

  GatedHub() {
    aeval::testing::write_parquet("SELECT 'a' AS id, 'x' AS text", dir / "rows.parquet");
    aeval::testing::HubTestRepo repo;
    repo.main = {aeval::testing::test_commit("rows"), {{"data/test-00000-of-00001.parquet", dir / "rows.parquet"}}};
    repo.token = "hf_secret";
    hub = std::make_unique<aeval::testing::HubTestServer>(std::map<std::string, aeval::testing::HubTestRepo>{{"acme/rows", repo}});
    endpoint = std::make_unique<aeval::testing::ScopedEnv>("HF_ENDPOINT", hub->endpoint().c_str());
  }
  // "" when the split is fetched, else the error.
  std::string fetch(const std::string& repo = "acme/rows") {
    std::filesystem::remove_all(dir / "cache");
    try {
      aeval::datasets::fetch_hub_split({repo, "default", "test", "main", "HF_TOKEN", ""});
      return "";
    } catch (const aeval::Error& e) {
      return e.what();
    }
  }
};

TEST(HubAccess, TheTokenIsFoundWhereTheHubsClientsFindIt) {
  GatedHub gated;
  EXPECT_NE(gated.fetch().find("HTTP 401"), std::string::npos);
  {
    aeval::testing::ScopedEnv token("HF_TOKEN", " hf_secret\n");  // pasted with its newline
    EXPECT_EQ(gated.fetch(), "");
  }
  {
    aeval::testing::ScopedEnv old_token("HUGGING_FACE_HUB_TOKEN", "hf_secret");
    EXPECT_EQ(gated.fetch(), "");
  }
  std::filesystem::create_directories(gated.dir / "hf-home");
  aeval::testing::write_bytes(gated.dir / "hf-home" / "token", "hf_secret\n");  // as `huggingface-cli login` leaves it
  EXPECT_EQ(gated.fetch(), "");
}

TEST(HubAccess, A401WithoutATokenSaysTheNameMayBeWrong) {
  GatedHub gated;
  const std::string error = gated.fetch();
  EXPECT_NE(error.find("the dataset acme/rows does not exist (check its name) or is gated or private"), std::string::npos)
      << error;
  aeval::testing::ScopedEnv token("HF_TOKEN", "hf_other");
  const std::string with_token = gated.fetch();
  EXPECT_NE(with_token.find("the dataset acme/rows is gated or private"), std::string::npos) << with_token;
  EXPECT_NE(with_token.find("the token set there has no access"), std::string::npos) << with_token;
}

// Over its quota, the Hub answers 429 with how long its window has left
// (RateLimit: "api";r=0;t=N, windows of up to five minutes): aeval waits that
// long once instead of backing off blindly and giving up within seconds.
TEST(HubAccess, ARateLimitedApiIsAskedAgainWhenItsWindowEnds) {
  GatedHub gated;
  aeval::testing::ScopedEnv token("HF_TOKEN", "hf_secret");
  gated.hub->rate_limit_api(2);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(gated.fetch(), "");
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(gated.hub->api_requests(), 3) << "one refused request, then the revision and the listing";
}

// The Hub sends a download to a signed link on its storage host: the token
// stays behind, and a link that expired (403 there) is asked for again.
TEST(HubAccess, DownloadsGoToTheStorageHostWithoutTheTokenAndAnExpiredLinkIsRenewed) {
  GatedHub gated;
  aeval::testing::ScopedEnv token("HF_TOKEN", "hf_secret");
  gated.hub->set_faults({.throttled = 0, .unavailable = 0, .cut_after = 0, .corrupted = 0, .expired = 1});
  EXPECT_EQ(gated.fetch(), "");
  EXPECT_EQ(gated.hub->downloads(), 1);
  EXPECT_EQ(gated.hub->authorized_at_storage(), 0);
  gated.hub->set_faults({.throttled = 0, .unavailable = 0, .cut_after = 0, .corrupted = 0, .expired = 100});
  const std::string expired = gated.fetch();
  EXPECT_NE(expired.find("HTTP 403 from the storage host it was sent to (expired links)"), std::string::npos) << expired;
  EXPECT_EQ(expired.find("access denied"), std::string::npos) << expired;
}

}  // namespace
