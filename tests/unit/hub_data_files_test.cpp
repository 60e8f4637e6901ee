// Which files make which split of a Hub repository that declares no configs, as `datasets`
// (data_files.py: SPLIT_PATTERN_SHARDED, SPLIT_KEYWORDS, KEYWORDS_IN_*_BASE_PATTERNS with fsspec's
// glob) infers them, and declared patterns matched as fsspec matches them.
#include <gtest/gtest.h>

#include <regex>

#include "datasets/hub_data_files.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::datasets::hub_glob;
using aeval::datasets::inferred_splits;
using Splits = std::vector<std::pair<std::string, std::vector<std::string>>>;

TEST(HubDataFiles, ShardNamesGiveExactSplitsAndNoOtherTakesTheirFiles) {
  const Splits splits = inferred_splits({"README.md", "data/test-00000-of-00001.parquet",
                                         "data/test_other-00000-of-00002.parquet", "data/test_other-00001-of-00002.parquet",
                                         "data/test.clean-00000-of-00001.parquet", "data/train-00000-of-00001.parquet"});
  EXPECT_EQ(splits, (Splits{{"train", {"data/train-00000-of-00001.parquet"}},
                            {"test", {"data/test-00000-of-00001.parquet"}},
                            {"test.clean", {"data/test.clean-00000-of-00001.parquet"}},
                            {"test_other", {"data/test_other-00000-of-00002.parquet", "data/test_other-00001-of-00002.parquet"}}}));
}

TEST(HubDataFiles, KeywordsInFolderNamesComeBeforeKeywordsInFileNames) {
  EXPECT_EQ(inferred_splits({"dev/a.parquet", "eval/b.parquet", "train.parquet"}),
            (Splits{{"validation", {"dev/a.parquet"}}, {"test", {"eval/b.parquet"}}}));
  EXPECT_EQ(inferred_splits({"valid.parquet", "my_test-1.parquet", "training_set.parquet", "notes/latest.parquet"}),
            (Splits{{"train", {"training_set.parquet"}}, {"validation", {"valid.parquet"}}, {"test", {"my_test-1.parquet"}}}));
}

TEST(HubDataFiles, WithoutAKeywordEveryVisibleFileIsTrain) {
  EXPECT_EQ(inferred_splits({".gitattributes", "clips/a.parquet", "__pycache__/x.parquet", "latest.parquet"}),
            (Splits{{"train", {"clips/a.parquet", "latest.parquet"}}}));
}

TEST(HubDataFiles, DoubleStarsMatchNoFolderToo) {
  const std::vector<std::string> paths = {"data/test-0.parquet", "data/x/test-1.parquet", "data/x/y/test-2.parquet",
                                          "test-3.parquet", "data/x/other.parquet"};
  EXPECT_EQ(hub_glob({"data/**/test-*.parquet"}, paths),
            (std::vector<std::string>{"data/test-0.parquet", "data/x/test-1.parquet", "data/x/y/test-2.parquet"}));
  EXPECT_EQ(hub_glob({"data/*.parquet"}, paths), (std::vector<std::string>{"data/test-0.parquet"}));
  EXPECT_EQ(hub_glob({"**/test-[0-2].parquet"}, paths),
            (std::vector<std::string>{"data/test-0.parquet", "data/x/test-1.parquet", "data/x/y/test-2.parquet"}));
  EXPECT_EQ(hub_glob({"test-?.parquet", "data/x/[!t]*"}, paths),
            (std::vector<std::string>{"data/x/other.parquet", "test-3.parquet"}));
}

// docs/datasets.md's examples ("`FILE` is split `S`", "`FILE` is part of split `S`") are what the code infers
// for that file.
TEST(HubDataFiles, TheDocsExamplesOfInferredSplitsAreTheCodes) {
  const std::string doc = aeval::testing::read_bytes(std::filesystem::path(AEVAL_SOURCE_DIR) / "docs" / "datasets.md");
  const std::regex example(R"(`([^`\s]+\.parquet)`\s+is\s+(?:part\s+of\s+)?split\s+`([^`]+)`)");
  int examples = 0, at_root = 0;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), example); it != std::sregex_iterator();
       ++it, ++examples) {
    const std::string file = (*it)[1], split = (*it)[2];
    at_root += file.find('/') == std::string::npos;
    const Splits splits = inferred_splits({file});
    ASSERT_EQ(splits.size(), 1u) << file;
    EXPECT_EQ(splits[0].first, split) << "docs/datasets.md says " << file << " is in split " << split;
  }
  EXPECT_GE(examples, 2) << "docs/datasets.md gives a shard under data/ and one at the root";
  EXPECT_GE(at_root, 1) << "docs/datasets.md gives a file at the repository's root";
}

}  // namespace
