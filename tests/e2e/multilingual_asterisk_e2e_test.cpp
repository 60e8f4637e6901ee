// The Asterisk prompts in Spanish, French, Italian and Russian (Debian's
// asterisk-core-sounds-LANG packages): real speech with published transcripts,
// run through the multilingual ASR tasks. Debian has no recognizer for these
// languages, so a scripted model answers as one writes: lowercase, without
// punctuation. Whisper's basic normalizer must then find every word (accents and
// Cyrillic intact), and words left out must count as deletions and nothing else.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <nlohmann/json.hpp>

#include "aeval/text/regex.hpp"
#include "aeval/text/unicode.hpp"
#include "support/run_aeval.hpp"
#include "support/run_results.hpp"
#include "support/temp_dir.hpp"
#include "support/require.hpp"

namespace {

using aeval::testing::TempDir;

struct Language {
  const char* code;
  const char* voice;
};
#ifdef AEVAL_SANITIZED
// The sanitizers check the path once (one language's whole prompt set); the Release build runs all four.
constexpr Language kLanguages[] = {{"ru", "ru_RU_f_IvrvoiceRU"}};
#else
constexpr Language kLanguages[] = {{"es", "es_MX_f_Allison"}, {"fr", "fr_CA_f_June"}, {"it", "it_IT_m_Carlo"},
                                   {"ru", "ru_RU_f_IvrvoiceRU"}};
#endif

std::filesystem::path transcripts(const Language& l) {
  return fmt::format("/usr/share/doc/asterisk-core-sounds-{0}/core-sounds-{0}.txt.gz", l.code);
}

// name → transcript, as the package lists them.
std::vector<std::pair<std::string, std::string>> read_transcripts(const Language& l) {
  std::vector<std::pair<std::string, std::string>> out;
  std::FILE* zcat = popen(fmt::format("zcat '{}'", transcripts(l).string()).c_str(), "r");
  char line[4096];
  while (zcat && std::fgets(line, sizeof line, zcat)) {
    const std::string s = aeval::text::strip(line);
    const auto colon = s.find(':');
    if (s.empty() || s[0] == ';' || colon == std::string::npos) continue;
    out.emplace_back(aeval::text::strip(s.substr(0, colon)), aeval::text::strip(s.substr(colon + 1)));
  }
  if (zcat) pclose(zcat);
  return out;
}

TEST(MultilingualAsteriskE2E, EveryWordIsFoundAndMissingWordsAreDeletionsInFourLanguages) {
  for (const auto& language : kLanguages) {
    SCOPED_TRACE(language.code);
    AEVAL_REQUIRE(std::filesystem::exists(transcripts(language)) &&
                      std::filesystem::is_directory(fmt::format("/usr/share/asterisk/sounds/{}", language.voice)),
                  "asterisk-core-sounds-" << language.code << "(-g722)");
    TempDir dir;
    // A recognizer says neither stage directions nor punctuation.
    const aeval::text::Regex directions(R"(\[[^\]]*\]|\([^)]*\)|<[^>]*>)"), punctuation(R"([^\w\s'])"),
        letters(R"([^\W\d_]+$)");
    const auto prompts = read_transcripts(language);
    ASSERT_GT(prompts.size(), 200u);
    std::ofstream exact(dir / "exact.jsonl"), shortened(dir / "shortened.jsonl");
    int dropped = 0;
    std::set<std::string> answered;
    for (const auto& [id, text] : prompts) {
      if (!answered.insert(id).second) continue;  // Spanish lists digits/0 twice: the dataset keeps the first
      const std::string answer = aeval::text::lower(punctuation.sub(directions.sub(text, " "), " "));
      exact << nlohmann::json{{"id", id}, {"prediction", answer}}.dump() << "\n";
      // The first twenty answers of several words lose their last word.
      const auto last = aeval::text::strip(answer).rfind(' ');
      const bool spoken = std::filesystem::exists(fmt::format("/usr/share/asterisk/sounds/{}/{}.g722", language.voice, id));
      // A last word of letters alone (not "l'agent", which the normalizer makes two words).
      const bool drop = dropped < 20 && spoken && last != std::string::npos &&
                        letters.match(aeval::text::strip(answer).substr(last + 1));
      dropped += drop;
      shortened << nlohmann::json{{"id", id}, {"prediction", drop ? aeval::text::strip(answer).substr(0, last) : answer}}.dump()
                << "\n";
    }
    exact.close();
    shortened.close();
    std::filesystem::create_directories(dir / "registry" / "models");
    aeval::testing::write_bytes(
        dir / "registry" / "models" / "m.yaml",
        fmt::format("exact:\n  class: predictions_file\n  args:\n    path: {}\nshortened:\n  class: predictions_file\n"
                    "  args:\n    path: {}\n",
                    (dir / "exact.jsonl").string(), (dir / "shortened.jsonl").string()));
    for (const char* model : {"exact", "shortened"}) {
      const auto out = dir / "out" / model;
      const auto run = aeval::testing::run_aeval(fmt::format("--registry {} run --task asterisk-asr-{} --model {} -q -o {}",
                                                             (dir / "registry").string(), language.code, model, out.string()));
      ASSERT_EQ(run.status, 0) << run.output;
      const auto r = aeval::testing::read_only_run(out);
      EXPECT_EQ(r.summary["counts"]["failed"], 0);
      EXPECT_GT(r.summary["counts"]["samples"].get<int>(), 200);
      const auto& wer = r.summary["metrics"]["wer"];
      EXPECT_EQ(wer["substitutions"], 0) << model;
      EXPECT_EQ(wer["insertions"], 0) << model;
      EXPECT_EQ(wer["deletions"], std::string(model) == "exact" ? 0 : 20) << model;
    }
  }
}

}  // namespace
