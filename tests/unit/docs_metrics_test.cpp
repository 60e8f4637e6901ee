// The docs name every metric of the catalog, so that none is only found by reading `aeval score --list`:
// each text metric in docs/framework.md's evaluator row (every one is an evaluator under its name), each
// audio and embedding metric in the README's `aeval score` section; and the README's codec command scores
// the metrics of the quickstart's codec board.
#include <gtest/gtest.h>

#include "aeval/metrics/catalog.hpp"
#include "support/temp_dir.hpp"

namespace {

std::string read_doc(const std::string& file) {
  return aeval::testing::read_bytes(std::filesystem::path(AEVAL_SOURCE_DIR) / file);
}

// The line of `doc` that starts with `start`; "" when there is none.
std::string line_starting(const std::string& doc, const std::string& start) {
  const auto at = doc.find("\n" + start);
  return at == std::string::npos ? "" : doc.substr(at + 1, doc.find('\n', at + 1) - at - 1);
}

TEST(DocsMetrics, EveryTextMetricIsNamedInTheEvaluatorRow) {
  const std::string row = line_starting(read_doc("docs/framework.md"), "| evaluator |");
  ASSERT_FALSE(row.empty()) << "docs/framework.md has no evaluator row";
  ASSERT_GT(aeval::metrics::text_metrics().size(), 15u);
  for (const auto& metric : aeval::metrics::text_metrics())
    EXPECT_NE(row.find("`" + metric.name + "`"), std::string::npos)
        << "docs/framework.md's evaluator row does not name `" << metric.name << "`: " << metric.summary;
}

TEST(DocsMetrics, EveryAudioAndEmbeddingMetricIsNamedInTheReadme) {
  const std::string readme = read_doc("README.md");
  const auto section = readme.find("## Scoring text files: `aeval score`");
  ASSERT_NE(section, std::string::npos);
  const std::string text = readme.substr(section, readme.find("\n## ", section + 1) - section);
  ASSERT_GT(aeval::metrics::signal_metrics().size(), 8u);
  for (const auto& metric : aeval::metrics::signal_metrics())
    EXPECT_NE(text.find("`" + metric.name + "`"), std::string::npos)
        << "README's `aeval score` section does not name `" << metric.name << "`: " << metric.summary;
}

}  // namespace

namespace {

// The README's "add your codec" command scores what the quickstart's codec board scores (with DNSMOS), on as
// many samples: a row run otherwise would average other numbers than the board's.
TEST(DocsMetrics, TheReadmesCodecCommandScoresWhatTheQuickstartsBoardScores) {
  const std::string script = read_doc("scripts/quickstart.sh");
  const std::string codec = line_starting(script, "codec_evaluators=").substr(std::string("codec_evaluators=").size());
  const std::string dnsmos = line_starting(script, "  codec_evaluators+=").substr(std::string("  codec_evaluators+=").size());
  ASSERT_FALSE(codec.empty());
  ASSERT_FALSE(dnsmos.empty());
  const std::string readme = read_doc("README.md");
  EXPECT_NE(readme.find("  --evaluator " + codec + dnsmos + "\n"), std::string::npos)
      << "README.md's codec command does not score " << codec << dnsmos;
  const std::string samples = line_starting(script, "samples=${2:-");
  ASSERT_FALSE(samples.empty());
  const std::string limit = samples.substr(std::string("samples=${2:-").size(), samples.find('}') - std::string("samples=${2:-").size());
  EXPECT_NE(readme.find("build/aeval run --task codec-speech --model YOURS --limit " + limit + " "), std::string::npos)
      << "README.md's codec command does not run the board's " << limit << " samples";
}

}  // namespace
