// Differential tests: the same random and real inputs through aeval and
// through the reference implementations Debian ships (python3-nltk 3.8,
// python3-scipy 1.10, python3-sklearn 1.2). Skipped when those are absent.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>

#include "aeval/metrics/classification.hpp"
#include "aeval/metrics/correlation.hpp"
#include "aeval/metrics/meteor.hpp"
#include "aeval/metrics/nltk_bleu.hpp"
#include "datasets/asterisk_prompts.hpp"
#include "datasets/manifest.hpp"
#include "aeval/text/porter_stemmer.hpp"
#include "aeval/text/unicode.hpp"
#include "support/python_references.hpp"
#include "support/reference.hpp"
#include "support/temp_dir.hpp"
#include "support/require.hpp"

namespace {

using nlohmann::json;
using Tokens = std::vector<std::string>;

using aeval::testing::python_references;
using aeval::testing::python_references_available;

// Real sentences: the Asterisk prompt transcripts Debian ships (when installed).
std::vector<Tokens> real_sentences() {
  std::vector<Tokens> out;
  const aeval::datasets::AsteriskPromptsConfig config;
  if (!std::filesystem::exists(config.transcripts) || !std::filesystem::exists(config.sounds_dir)) return out;
  aeval::testing::TempDir dir;
  const auto built = aeval::datasets::build_asterisk_manifest(config, dir / "manifest.jsonl");
  for (const auto& sample : aeval::datasets::read_manifest(built.path)) {
    out.push_back(aeval::metrics::lower_split(sample.reference.value_or("")));
    if (out.size() >= 200) break;
  }
  return out;
}

std::vector<Tokens> random_sentences(std::mt19937& rng, std::size_t count) {
  const std::vector<std::string> vocabulary{
      "a",       "dog",     "dogs",    "barking", "barks",    "man",     "men",     "speaking", "speaks",
      "spoke",   "car",     "cars",    "engine",  "running",  "runs",    "ran",     "water",    "flowing",
      "flows",   "bird",    "birds",   "chirping", "chirps",  "loudly",  "quickly", "quick",    "the",
      "in",      "of",      "and",     "then",    "while",    "background", "music", "playing", "plays",
      "woman",   "women",   "talking", "talks",   "crowd",    "cheering", "cheers", "rain",     "falling",
      "wind",    "blowing", "blows",   "door",    "closing",  "closes",  "vehicle", "motor",    "noise",
      "noises",  "sound",   "sounds",  "happy",   "happily",  "children", "child",  "shouting", "shout"};
  std::uniform_int_distribution<std::size_t> length(0, 14), word(0, vocabulary.size() - 1);
  std::vector<Tokens> out;
  for (std::size_t i = 0; i < count; ++i) {
    Tokens t;
    for (std::size_t n = length(rng); n > 0; --n) t.push_back(vocabulary[word(rng)]);
    out.push_back(t);
  }
  return out;
}

std::vector<Tokens> sentences() {
  std::mt19937 rng(20261122);
  auto all = random_sentences(rng, 300);
  for (auto& s : real_sentences()) all.push_back(std::move(s));
  return all;
}

::testing::AssertionResult close(double expected, double actual, double relative) {
  if (std::isnan(expected) && std::isnan(actual)) return ::testing::AssertionSuccess();
  if (std::fabs(expected - actual) <= std::max(relative * std::fabs(expected), 1e-300))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "reference " << expected << " aeval " << actual;
}

TEST(Differential, NltkBleuMatchesNltk) {
  AEVAL_REQUIRE(python_references_available(), "python3-nltk, python3-scipy or python3-sklearn");
  const auto all = sentences();
  json cases = json::array();
  std::vector<std::pair<std::vector<Tokens>, Tokens>> inputs;
  for (std::size_t i = 0; i + 3 < all.size(); i += 3) {
    inputs.push_back({{all[i + 1], all[i + 2]}, all[i]});
    for (const bool method1 : {true, false})
      cases.push_back({{"refs", inputs.back().first}, {"hyp", inputs.back().second},
                       {"weights", {0.25, 0.25, 0.25, 0.25}}, {"method1", method1}});
  }
  const json expected = python_references("nltk_bleu", cases);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    aeval::metrics::NltkBleuOptions o;
    o.smoothing = cases[k]["method1"] ? aeval::metrics::NltkSmoothing::method1 : aeval::metrics::NltkSmoothing::method0;
    const auto& [refs, hyp] = inputs[k / 2];
    EXPECT_TRUE(close(expected[k].get<double>(), aeval::metrics::nltk_sentence_bleu(refs, hyp, o), 1e-9)) << k;
  }
}

TEST(Differential, MeteorMatchesNltk) {
  AEVAL_REQUIRE(python_references_available(), "python3-nltk, python3-scipy or python3-sklearn");
  AEVAL_REQUIRE(std::filesystem::exists("/usr/share/wordnet/index.noun"), "wordnet-base");
  const auto all = sentences();
  json cases = json::array();
  for (std::size_t i = 0; i + 2 < all.size(); i += 2) cases.push_back({{"refs", json::array({json(all[i + 1])})}, {"hyp", all[i]}});
  const json expected = python_references("meteor", cases);
  const auto& wordnet = aeval::text::default_wordnet();
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const auto refs = cases[k]["refs"].get<std::vector<Tokens>>();
    const auto hyp = cases[k]["hyp"].get<Tokens>();
    EXPECT_TRUE(close(expected[k].get<double>(), aeval::metrics::meteor_score(refs, hyp, wordnet), 1e-9))
        << cases[k].dump();
  }
}

TEST(Differential, PorterMatchesNltk) {
  AEVAL_REQUIRE(python_references_available(), "python3-nltk, python3-scipy or python3-sklearn");
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> length(1, 12), letter(0, 25);
  json words = json::array();
  for (int i = 0; i < 3000; ++i) {  // random letter strings stress every rule
    std::string w;
    for (int n = length(rng); n > 0; --n) w += char('a' + letter(rng));
    words.push_back(w);
  }
  for (const auto& s : sentences())
    for (const auto& w : s) words.push_back(w);
  const json expected = python_references("porter", words);
  using aeval::text::PorterMode;
  for (std::size_t k = 0; k < words.size(); ++k) {
    const std::string w = words[k];
    EXPECT_EQ(expected[k][0].get<std::string>(), aeval::text::porter_stem(w)) << w;
    EXPECT_EQ(expected[k][1].get<std::string>(), aeval::text::porter_stem(w, PorterMode::martin_extensions)) << w;
    EXPECT_EQ(expected[k][2].get<std::string>(), aeval::text::porter_stem(w, PorterMode::original_algorithm)) << w;
  }
}

TEST(Differential, StatisticsMatchScipyAndSklearn) {
  AEVAL_REQUIRE(python_references_available(), "python3-nltk, python3-scipy or python3-sklearn");
  std::mt19937 rng(11);
  json cases = json::array();
  for (int i = 0; i < 120; ++i) {
    const int n = 2 + i % 40 + (i % 7 == 0 ? 200 : 0);
    std::normal_distribution<double> noise(0, 1);
    std::uniform_int_distribution<int> coarse(0, 4);
    std::vector<double> x, y, labels;
    for (int k = 0; k < n; ++k) {
      // every third case is coarse (many ties), the others continuous
      const double a = i % 3 == 0 ? double(coarse(rng)) : noise(rng);
      x.push_back(a);
      y.push_back(i % 3 == 0 ? double(coarse(rng)) : 0.6 * a + noise(rng));
      labels.push_back(k % 2);
    }
    cases.push_back({{"x", x}, {"y", y}, {"labels", labels}});
  }
  const json expected = python_references("stats", cases);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const auto x = cases[k]["x"].get<std::vector<double>>(), y = cases[k]["y"].get<std::vector<double>>();
    const auto& e = expected[k];
    const std::pair<const char*, aeval::metrics::Correlation> ours[] = {
        {"pearson", aeval::metrics::pearson(x, y)},
        {"spearman", aeval::metrics::spearman(x, y)},
        {"kendall_b", aeval::metrics::kendall(x, y)},
        {"kendall_c", aeval::metrics::kendall(x, y, aeval::metrics::KendallVariant::c)}};
    for (const auto& [name, c] : ours) {
      EXPECT_TRUE(close(aeval::testing::as_double(e[name][0]), c.statistic, 1e-9)) << k << " " << name;
      EXPECT_TRUE(close(aeval::testing::as_double(e[name][1]), c.pvalue, 1e-6)) << k << " " << name << " p";
    }
    const auto positive = aeval::metrics::positive_labels(cases[k]["labels"].get<std::vector<double>>());
    EXPECT_TRUE(close(aeval::testing::as_double(e["auc"]), aeval::metrics::roc_auc(positive, x), 1e-9)) << k;
  }
}

}  // namespace
