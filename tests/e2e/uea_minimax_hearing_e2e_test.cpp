// UltraEval-Audio's MiniMax TTS scoring (its SeedTTSEvalASRWER entries minimax-eval-asr-wer-<lang>, which hear the
// spoken answer with UEA's own `seed-tts-whisper` entry asked with its `whisper-asr-<lang>` prompt) proved against
// UEA's own main.py on the same tree: UEA's real SeedTTSWhisperModel class (@isolated) with a script of ours in place
// of Whisper, speaking the real script's protocol and hearing the text our TTS model wrote into each WAV
// (tests/support/uea_python/whisper_standin.py), the TTS model a user's class in the tree. Both runs must send the
// script the same requests and write the same --save files, byte for byte. jiwer, which Debian lacks, is a stand-in
// for UEA's main.py (word-level Levenshtein after jiwer's default transform), so the WER's alignment is the
// stand-in's; everything around it (punctuation, case, the language UEA forces, the Whisper class's protocol, the
// result files) is UEA's own code.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "support/reference.hpp"
#include "support/require.hpp"
#include "support/run_aeval.hpp"
#include "support/uea_python.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::testing::lines_of;
using aeval::testing::read_bytes;
using aeval::testing::run_aeval;
using aeval::testing::run_shell;

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

class UeaMinimaxHearingE2E : public aeval::testing::UeaTreeTest {
 protected:
  void SetUp() override {
    UeaTreeTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    make_tree();
    ASSERT_FALSE(HasFatalFailure());
    const auto added = run_shell(fmt::format("{} {}/tests/support/uea_python/whisper_standin.py {} 2>&1",
                                             aeval::testing::kDebianPython, AEVAL_SOURCE_DIR, quoted(dir_.path())));
    ASSERT_EQ(0, added.status) << added.output;
    // The jiwer stand-in first, for UEA's main.py (aeval's SeedTTSEvalASRWER is its own).
    const std::string path = (dir_ / "python").string() + ":" + python_path_;
    python_path_env_.emplace("PYTHONPATH", path.c_str());
  }

  // aeval, then UEA's main.py, on `dataset` with the TTS stand-in and minimax-eval-asr-wer-de; the requests the
  // Whisper stand-in got from each, sorted.
  void run_both(const std::string& dataset) {
    const fs::path log = dir_ / "whisper" / "requests.log";
    const auto ours = run_aeval(fmt::format("uea run --uea-dir {} --dataset {} --model tts-standin --evaluator "
                                            "minimax-eval-asr-wer-de --output {} --quiet --save {}",
                                            quoted(dir_ / "uea"), dataset, quoted(dir_ / "results"),
                                            quoted(dir_ / "aeval.jsonl")));
    ASSERT_EQ(0, ours.status) << ours.output;
    by_aeval_ = lines_of(log);
    fs::remove(log);
    const auto theirs = uea_main(fmt::format("--dataset {} --model tts-standin --evaluator minimax-eval-asr-wer-de "
                                             "--save {}",
                                             dataset, quoted(dir_ / "uea.jsonl")));
    ASSERT_EQ(0, theirs.status) << theirs.output;
    by_uea_ = lines_of(log);
    std::sort(by_aeval_.begin(), by_aeval_.end());
    std::sort(by_uea_.begin(), by_uea_.end());
  }

  void expect_what_uea_gives() const {
    ASSERT_EQ(5u, by_uea_.size());
    EXPECT_EQ(by_uea_, by_aeval_) << "Whisper's script got other requests from aeval than from UEA's main.py";
    EXPECT_EQ(read_bytes(dir_ / "uea.jsonl"), read_bytes(dir_ / "aeval.jsonl"));
    EXPECT_EQ(read_bytes(dir_ / "uea-overall.json"), read_bytes(dir_ / "aeval-overall.json"));
    // Two of the five texts have an odd number of words, whose last the stand-in mishears: 1 of 5 words wrong in
    // each, so UEA's mean of the samples' wer% is 8.
    EXPECT_NE(read_bytes(dir_ / "uea-overall.json").find("'wer%': 8.0,"), std::string::npos)
        << read_bytes(dir_ / "uea-overall.json");
  }

  std::vector<std::string> by_aeval_, by_uea_;
};

// Rows as UEA's MiniMaxTTSDataset gives them, with `language` ("german", one "english"): UEA's evaluator asks
// Whisper for each row's language rather than the entry's `lang`.
TEST_F(UeaMinimaxHearingE2E, MinimaxRowsAreHeardInTheRowsLanguageAsInUea) {
  run_both("minimax-standin-lang");
  ASSERT_FALSE(HasFatalFailure());
  expect_what_uea_gives();
  EXPECT_NE(by_uea_.front().find("\"generate_kwargs\": {\"language\": \"german\"}"), std::string::npos) << by_uea_.front();
}

// Rows without `language`: UEA asks Whisper for the entry's `lang` (de), in place of the prompt's "german".
TEST_F(UeaMinimaxHearingE2E, RowsWithoutLanguageAreHeardInTheEntrysLangAsInUea) {
  run_both("minimax-standin");
  ASSERT_FALSE(HasFatalFailure());
  expect_what_uea_gives();
  EXPECT_NE(by_uea_.front().find("\"generate_kwargs\": {\"language\": \"de\"}"), std::string::npos) << by_uea_.front();
}

}  // namespace
