// Configs a dataset's README declares, read as `datasets` reads them: a config given by its
// data_dir alone has its splits inferred inside that folder, and a request that names no config
// gets the config named "default", else the one marked `default: true`, else the only one.
#include <gtest/gtest.h>

#include <string>

#include "aeval/error.hpp"
#include "datasets/hub_split.hpp"
#include "support/hub_test_server.hpp"
#include "support/parquet_writer.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace {

struct DeclaredHub {
  aeval::testing::TempDir dir;
  aeval::testing::ScopedEnv cache{"XDG_CACHE_HOME", (dir / "cache").c_str()};
  aeval::testing::ScopedEnv offline{"HF_HUB_OFFLINE", nullptr};
  aeval::testing::ScopedEnv token{"HF_TOKEN", nullptr};

  // The repository paths of config `config`, split `split` of a repository holding `paths` and
  // declaring `configs`, or the error.
  std::string fetch(const std::vector<std::string>& paths, const std::string& configs, const std::string& config,
                    const std::string& split) {
    aeval::testing::write_parquet("SELECT 'a' AS id, 'x' AS text", dir / "rows.parquet");
    aeval::testing::HubTestRepo repo;
    repo.main.commit = aeval::testing::test_commit("declared");
    for (const auto& p : paths) repo.main.files[p] = dir / "rows.parquet";
    repo.configs = nlohmann::json::parse(configs);
    aeval::testing::HubTestServer hub({{"acme/declared", repo}});
    aeval::testing::ScopedEnv endpoint("HF_ENDPOINT", hub.endpoint().c_str());
    std::filesystem::remove_all(dir / "cache");
    try {
      std::string out;
      for (const auto& p :
           aeval::datasets::fetch_hub_split({"acme/declared", config, split, "main", "HF_TOKEN", ""}).repository_paths)
        out += p + " ";
      return out;
    } catch (const aeval::Error& e) {
      return e.what();
    }
  }
};

TEST(HubConfigs, ADataDirAloneHasItsSplitsInferredInsideIt) {
  DeclaredHub hub;
  const std::vector<std::string> paths = {"clean/data/test-00000-of-00001.parquet", "clean/data/train-00000-of-00001.parquet",
                                          "other/data/test-00000-of-00001.parquet"};
  const std::string configs = R"([{"config_name": "clean", "data_dir": "clean"}, {"config_name": "other", "data_dir": "other/"}])";
  EXPECT_EQ(hub.fetch(paths, configs, "clean", "test"), "clean/data/test-00000-of-00001.parquet ");
  EXPECT_EQ(hub.fetch(paths, configs, "other", "test"), "other/data/test-00000-of-00001.parquet ");
}

TEST(HubConfigs, NamingNoConfigTakesTheOneDatasetsTakes) {
  DeclaredHub hub;
  const std::vector<std::string> paths = {"a/x.parquet", "b/y.parquet"};
  EXPECT_EQ(hub.fetch(paths, R"([{"config_name": "only", "data_files": [{"split": "test", "path": "a/*"}]}])", "default",
                      "test"),
            "a/x.parquet ");
  const std::string two = R"([{"config_name": "first", "data_files": [{"split": "test", "path": "a/*"}]},
                              {"config_name": "second", "default": true, "data_files": [{"split": "test", "path": "b/*"}]}])";
  EXPECT_EQ(hub.fetch(paths, two, "default", "test"), "b/y.parquet ");
  const std::string neither = R"([{"config_name": "first", "data_files": "a/*"}, {"config_name": "second", "data_files": "b/*"}])";
  EXPECT_NE(hub.fetch(paths, neither, "default", "train").find("no config 'default'; its configs: first, second"),
            std::string::npos);
}

// A card's YAML written by hand: a bare number is text (`config_name: 2024`), and a list where text is due is a
// malformed card, said so, not an internal error (nlohmann's type_error reached `main`).
TEST(HubConfigs, ACardsNumbersAreTextAndItsWrongTypesAreErrors) {
  DeclaredHub hub;
  const std::vector<std::string> paths = {"a/x.parquet", "b/y.parquet"};
  EXPECT_EQ(hub.fetch(paths, R"([{"config_name": 2024, "data_files": [{"split": 1, "path": "a/*"}]}])", "2024", "1"),
            "a/x.parquet ");
  const std::string wrong = hub.fetch(paths, R"([{"config_name": ["x"], "data_files": "a/*"}])", "x", "train");
  EXPECT_NE(wrong.find("the dataset card's configs: 'config_name' is array, not text"), std::string::npos) << wrong;
  const std::string data_dir = hub.fetch(paths, R"([{"config_name": "c", "data_dir": {"a": 1}}])", "c", "test");
  EXPECT_NE(data_dir.find("'data_dir' is object, not text"), std::string::npos) << data_dir;
}

}  // namespace
