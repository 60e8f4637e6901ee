// The quickstart gives the numbers the README states: the first thing a
// newcomer runs must reproduce exactly what they were promised; and
// `aeval view` shows its run, its 561 samples with players and alignments.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <regex>

#include "support/asterisk.hpp"
#include "support/browser.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::run_aeval;
using aeval::testing::TempDir;

TEST(QuickstartE2E, CorpusWerAndCerAreTheReadmesToTheLastEdit) {
#ifdef AEVAL_SANITIZED
  GTEST_SKIP() << "the full quickstart (561 prompts) runs in the Release build; sanitizers make it too slow";
#endif
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  const std::string readme = aeval::testing::read_bytes(std::filesystem::path(AEVAL_SOURCE_DIR) / "README.md");
  TempDir dir;
  const auto o = run_aeval(fmt::format("run --task asr-quickstart --no-cache -q --output {}", (dir / "out").string()), false);
  ASSERT_EQ(o.status, 0) << o.output;
  const auto run = aeval::testing::read_only_run(dir / "out");
  for (const char* metric : {"wer", "cer"}) {
    // README: "wer                  0.3411  hits 2514 subs 719 dels 77 ins 333 ref tokens 3310"
    std::smatch m;
    const std::regex line(std::string("\n") + metric +
                          R"( +([0-9.]+) +hits (\d+) subs (\d+) dels (\d+) ins (\d+) ref tokens (\d+)\n)");
    ASSERT_TRUE(std::regex_search(readme, m, line)) << "README.md states no " << metric << " line";
    const auto& value = run.summary["metrics"][metric];
    EXPECT_EQ(fmt::format("{:.4f}", value["value"].get<double>()), m[1].str()) << metric;
    EXPECT_EQ(value["hits"].get<long>(), std::stol(m[2])) << metric;
    EXPECT_EQ(value["substitutions"].get<long>(), std::stol(m[3])) << metric;
    EXPECT_EQ(value["deletions"].get<long>(), std::stol(m[4])) << metric;
    EXPECT_EQ(value["insertions"].get<long>(), std::stol(m[5])) << metric;
    EXPECT_EQ(value["reference_tokens"].get<long>(), std::stol(m[6])) << metric;
  }

  AEVAL_REQUIRE(!aeval::testing::chromium().empty(), "chromium");
  const aeval::testing::ViewServer view(dir / "out");
  const std::string id = std::filesystem::relative(run.dir, dir / "out").generic_string();
  const std::string samples = aeval::testing::dump_dom(view.url() + "#/run/" + id, dir / "profile");
  EXPECT_NE(samples.find("561 samples"), std::string::npos) << samples.substr(0, 3000);
  EXPECT_NE(samples.find("1–50 of 561"), std::string::npos);
  const std::string last = aeval::testing::dump_dom(view.url() + "#/run/" + id + "/sample/560", dir / "profile");
  EXPECT_NE(last.find("data-decoded=\"yes\""), std::string::npos) << last.substr(0, 3000);
  EXPECT_NE(last.find("<div class=\"alignment\" data-score=\"wer\">"), std::string::npos);
}

}  // namespace
