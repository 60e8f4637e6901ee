// UltraEval-Audio's Chinese, Cantonese and Japanese text pieces against
// tests/data/uea_text (cn_tn.py TextNorm, sacreBLEU ja-mecab, OpenCC plumbing).
// The vectors live in the repository; the MeCab and OpenCC data come from
// Debian packages, and their tests skip (fail under CI) when those are absent.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "aeval/error.hpp"
#include "aeval/text/chinese_script.hpp"
#include "aeval/text/chinese_text_norm.hpp"
#include "aeval/text/japanese_tokenizer.hpp"
#include "support/temp_dir.hpp"
#include "support/reference.hpp"

namespace {

const std::filesystem::path kDebianIpadic = "/var/lib/mecab/dic/ipadic-utf8";

std::vector<nlohmann::json> read_vectors(const std::string& file) { return aeval::testing::read_test_data("uea_text/" + file); }

#define AEVAL_REQUIRE_VECTORS(records, file)                          \
  const auto records = read_vectors(file);                            \
  ASSERT_FALSE(records.empty()) << "tests/data/uea_text/" << (file) << " is missing"


bool expects_error(const nlohmann::json& value) { return value.is_object() && value.contains("error"); }

TEST(UeaTextConformance, ChineseTextNorm) {
  AEVAL_REQUIRE_VECTORS(records, "cn_tn.jsonl");
  int checked = 0;
  for (const auto& r : records) {
    if (r["kind"] != "text_norm") continue;
    const std::string input = r["input"];
    EXPECT_EQ(r["expected"]["normalize_nsw"].get<std::string>(), aeval::text::chinese_normalize_nsw(input)) << r["id"];
    EXPECT_EQ(r["expected"]["text_norm"].get<std::string>(), aeval::text::chinese_text_normalize(input)) << r["id"];
    ++checked;
  }
  EXPECT_GT(checked, 400);
}

TEST(UeaTextConformance, ChineseNumbers) {
  AEVAL_REQUIRE_VECTORS(records, "cn_tn.jsonl");
  int checked = 0;
  for (const auto& r : records) {
    if (r["kind"] != "num2chn") continue;
    const std::string input = r["input"];
    const auto& e = r["expected"];
    if (expects_error(e["cardinal"]))
      EXPECT_THROW(aeval::text::chinese_cardinal(input), aeval::Error) << r["id"];
    else
      EXPECT_EQ(e["cardinal"].get<std::string>(), aeval::text::chinese_cardinal(input)) << r["id"];
    if (expects_error(e["digits"]))
      EXPECT_THROW(aeval::text::chinese_digits(input), aeval::Error) << r["id"];
    else
      EXPECT_EQ(e["digits"].get<std::string>(), aeval::text::chinese_digits(input)) << r["id"];
    ++checked;
  }
  EXPECT_GT(checked, 200);
}

// Bytes Python could never hold, NULs and lone sentinels do not throw.
TEST(UeaTextConformance, ChineseTextNormOddInput) {
  EXPECT_EQ(aeval::text::chinese_text_normalize("\xff" "2024年"), "\xEF\xBF\xBD二零二四年");
  EXPECT_EQ(aeval::text::chinese_text_normalize(std::string("3个\0" "5个", 9)), std::string("三个\0五个", 13));
  EXPECT_EQ(aeval::text::chinese_text_normalize("^^^"), "");
  EXPECT_EQ(aeval::text::chinese_text_normalize("$"), "");
}

// The exact dictionary (392126 entries), built from Debian's IPAdic sources by
// scripts/build_sacrebleu_ipadic.sh, reproduces sacreBLEU on every vector.
TEST(UeaTextConformance, JapaneseMecabSacrebleuDictionary) {
  AEVAL_REQUIRE_VECTORS(records, "ja_mecab.jsonl");
  AEVAL_REQUIRE(std::filesystem::exists("/usr/share/mecab/dic/ipadic/Noun.proper.csv") &&
                            std::filesystem::exists("/usr/lib/mecab/mecab-dict-index"),
                        "mecab-ipadic (dictionary sources) or mecab-utils");
  const aeval::testing::TempDir dir;
  const auto script = std::filesystem::path(AEVAL_SOURCE_DIR) / "scripts" / "build_sacrebleu_ipadic.sh";
  const std::string command = "'" + script.string() + "' '" + (dir / "ipadic").string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const aeval::text::JapaneseTokenizer tokenizer({.dictionary = dir / "ipadic"});
  EXPECT_TRUE(tokenizer.is_sacrebleu_dictionary()) << tokenizer.dictionary_entries();
  EXPECT_EQ(tokenizer.signature(), "ja-mecab-0.996-IPA");
  int checked = 0;
  for (const auto& r : records) {
    EXPECT_EQ(r["expected"]["ja_mecab"].get<std::string>(), tokenizer(r["input"].get<std::string>())) << r["id"];
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

// Debian's compiled dictionary: the same outputs but for 令和, which Debian added.
TEST(UeaTextConformance, JapaneseMecabDebianDictionary) {
  AEVAL_REQUIRE_VECTORS(records, "ja_mecab.jsonl");
  AEVAL_REQUIRE(std::filesystem::exists(kDebianIpadic / "sys.dic"), "mecab-ipadic-utf8");
  const aeval::text::JapaneseTokenizer tokenizer;
  EXPECT_EQ(tokenizer.dictionary_entries(), aeval::text::kSacrebleuIpadicEntries + 1);
  EXPECT_FALSE(tokenizer.is_sacrebleu_dictionary());
  int differing = 0;
  for (const auto& r : records) {
    const std::string input = r["input"], expected = r["expected"]["ja_mecab"];
    EXPECT_EQ(r["expected"]["ja_mecab_debian_ipadic"].get<std::string>(), tokenizer(input)) << r["id"];
    if (r["expected"]["ja_mecab_debian_ipadic"] != expected) {
      ++differing;
      EXPECT_NE(input.find("令和"), std::string::npos) << r["id"] << ": differs without 令和";
    }
  }
  EXPECT_GT(differing, 0);
}

TEST(UeaTextConformance, JapaneseMecabOddInput) {
  AEVAL_REQUIRE(std::filesystem::exists(kDebianIpadic / "sys.dic"), "mecab-ipadic-utf8");
  const aeval::text::JapaneseTokenizer tokenizer;
  EXPECT_EQ(tokenizer(""), "");
  EXPECT_EQ(tokenizer(std::string("今日は\0晴れ", 16)), "今日 は");  // Python hands MeCab a C string
  EXPECT_EQ(tokenizer("\xff今日"), "\xEF\xBF\xBD 今日");
  EXPECT_THROW(aeval::text::JapaneseTokenizer({.dictionary = "/nonexistent"}), aeval::Error);
}

// One tokenizer, many threads: the same outputs as one thread.
TEST(UeaTextConformance, JapaneseMecabSharedAcrossThreads) {
  AEVAL_REQUIRE_VECTORS(records, "ja_mecab.jsonl");
  AEVAL_REQUIRE(std::filesystem::exists(kDebianIpadic / "sys.dic"), "mecab-ipadic-utf8");
  const aeval::text::JapaneseTokenizer tokenizer;
  std::vector<std::string> inputs, expected;
  for (const auto& r : records) {
    inputs.push_back(r["input"]);
    expected.push_back(r["expected"]["ja_mecab_debian_ipadic"]);
  }
  std::vector<int> mismatches(8, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round)
        for (std::size_t i = 0; i < inputs.size(); ++i)
          if (tokenizer(inputs[(i + t * 7) % inputs.size()]) != expected[(i + t * 7) % inputs.size()]) ++mismatches[t];
    });
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

// OpenCC plumbing only: aeval's calls give what Debian's `opencc` tool gives.
// (zhconv, the reference UltraEval-Audio uses, is not available to compare.)
TEST(UeaTextConformance, OpenccMatchesCommandLineTool) {
  AEVAL_REQUIRE_VECTORS(records, "opencc_cli.jsonl");
  AEVAL_REQUIRE(std::filesystem::exists("/usr/share/opencc/t2s.json"), "libopencc1.1 / opencc data");
  for (const std::string config : {"t2s.json", "hk2s.json", "tw2sp.json"}) {
    const aeval::text::ChineseScriptConverter convert(config);
    EXPECT_EQ(convert.config(), config);
    for (const auto& r : records)
      EXPECT_EQ(r["expected"][config].get<std::string>(), convert(r["input"].get<std::string>()))
          << r["id"] << " " << config;
  }
}

TEST(UeaTextConformance, OpenccOddInputAndThreads) {
  AEVAL_REQUIRE_VECTORS(records, "opencc_cli.jsonl");
  AEVAL_REQUIRE(std::filesystem::exists("/usr/share/opencc/t2s.json"), "libopencc1.1 / opencc data");
  const aeval::text::ChineseScriptConverter convert;
  EXPECT_EQ(convert(""), "");
  EXPECT_EQ(convert(std::string("學習\0語言", 13)), std::string("学习\0语言", 13));
  EXPECT_EQ(convert("\xff" "學"), "\xEF\xBF\xBD学");
  EXPECT_THROW(aeval::text::ChineseScriptConverter("no-such-config.json"), aeval::Error);
  std::vector<int> mismatches(8, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round)
        for (const auto& r : records)
          if (convert(r["input"].get<std::string>()) != r["expected"]["t2s.json"].get<std::string>()) ++mismatches[t];
    });
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

}  // namespace
