// Published numbers and prompt variants: `aeval report` holds each run against
// the numbers its task entry publishes and flags a setup that does not reproduce
// them; `aeval run --prompt-variants` runs every wording of the prompt and the
// report shows how far the wordings move the metric.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>

#include "aeval/audio_io.hpp"
#include "support/run_aeval.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

// References as a corpus prints them, answers as a recognizer writes them: after Whisper's
// English normalizer (lower case, no punctuation, "don't" → "do not") they are the same words,
// so the right setup's WER is known to be 0. Left raw, 7 edits against the 12 reference words.
void write_registry(const TempDir& dir) {
  // The echo model is a process model, which is sent each sample's audio: a quiet half second.
  for (const char* clip : {"a.wav", "b.wav", "c.wav"})
    aeval::write_wav(dir / clip, aeval::Audio{std::vector<float>(8000, 0.01f), 16000, 1});
  write_bytes(dir / "d.jsonl", R"({"id": "1", "audio": "a.wav", "text": "The cat sat on the mat."})" "\n"
                               R"({"id": "2", "audio": "b.wav", "text": "Don't stop!"})" "\n"
                               R"({"id": "3", "audio": "c.wav", "text": "Rain, wind and snow."})" "\n");
  write_bytes(dir / "p.jsonl", R"({"id": "1", "prediction": "the cat sat on the mat"})" "\n"
                               R"({"id": "2", "prediction": "do not stop"})" "\n"
                               R"({"id": "3", "prediction": "rain wind and snow"})" "\n");
  for (const char* folder : {"datasets", "models", "tasks", "prompts"})
    std::filesystem::create_directories(dir / "registry" / folder);
  write_bytes(dir / "registry" / "datasets" / "d.yaml",
              fmt::format("my-data:\n  class: jsonl\n  args:\n    path: {}\n", (dir / "d.jsonl").string()));
  write_bytes(dir / "registry" / "models" / "m.yaml",
              fmt::format("my-answers:\n  class: predictions_file\n  args:\n    path: {}\n"
                          "echo:\n  class: process\n  args:\n    command: [python3, {}]\n",
                          (dir / "p.jsonl").string(),
                          (std::filesystem::path(AEVAL_SOURCE_DIR) / "examples/process-models/echo_model.py").string()));
  write_bytes(dir / "registry" / "tasks" / "t.yaml",
              "my-asr:\n  class: task\n  args:\n    dataset: my-data\n    post_process: [whisper-english]\n"
              "    evaluators: [wer]\n"
              "    published:\n"
              "      - {model: my-answers, metric: wer, value: 0.0, tolerance: 0.005, source: the test's own data}\n"
              "      - {model: unseen-model, metric: wer, value: 0.05, tolerance: 0.01, source: a paper}\n"
              // The echo model repeats the prompt's text: the reference alone, or with a word more.
              "my-echo:\n  class: task\n  args:\n    dataset: my-data\n    prompt: say-it\n"
              "    prompt_variants: [say-it-politely]\n    model: echo\n    post_process: [whisper-english]\n"
              "    evaluators: [wer]\n"
              // A number of each wording: the plain one's, and the polite one's (3 insertions in 13 words).
              "    published:\n"
              "      - {model: echo, metric: wer, value: 0.0, tolerance: 0.001, source: the plain wording}\n"
              "      - {model: echo, metric: wer, prompt: say-it-politely, value: 0.2308, source: the polite wording}\n");
  write_bytes(dir / "registry" / "prompts" / "p.yaml",
              "say-it:\n  class: chat\n  args:\n    messages:\n      - role: user\n        content:\n"
              "          - {type: audio, value: \"{{ audio }}\"}\n          - {type: text, value: \"{{ text }}\"}\n"
              "say-it-politely:\n  class: chat\n  args:\n    messages:\n      - role: user\n        content:\n"
              "          - {type: audio, value: \"{{ audio }}\"}\n          - {type: text, value: \"{{ text }} please\"}\n");
}

TEST(PublishedE2E, TheRightSetupReproducesThePublishedNumberAndAWrongOneIsFlagged) {
  TempDir dir;
  write_registry(dir);
  const std::string registry = (dir / "registry").string(), right = (dir / "right").string(),
                    wrong = (dir / "wrong").string();
  ASSERT_EQ(run_aeval(fmt::format("--registry {} run --task my-asr --model my-answers -q -o {}", registry, right)).status, 0);
  const auto good = run_aeval(fmt::format("--registry {} report {} --fail-on-deviation", registry, right), false);
  EXPECT_EQ(good.status, 0) << good.output;
  EXPECT_NE(good.output.find("| my-answers | wer | 0 | 0 | +0 | 0.005 | reproduced | the test's own data |"),
            std::string::npos)
      << good.output;
  EXPECT_NE(good.output.find("| unseen-model | wer | 0.05 | – | – | 0.01 | not run | a paper |"), std::string::npos)
      << good.output;

  // The same answers with the normalizer switched off: 7 edits against 12 words.
  ASSERT_EQ(run_aeval(fmt::format("--registry {} run --task my-asr --model my-answers --post-process strip -q -o {}",
                                  registry, wrong))
                .status,
            0);
  const auto bad = run_aeval(fmt::format("--registry {} report {} --fail-on-deviation", registry, wrong));
  EXPECT_EQ(bad.status, 3) << bad.output;
  EXPECT_NE(bad.output.find(fmt::format("| my-answers | wer | 0 | {:.4g} | +{:.4g} | 0.005 | DEVIATES |", 7.0 / 12, 7.0 / 12)),
            std::string::npos)
      << bad.output;
  EXPECT_NE(bad.output.find("aeval: my-asr: my-answers's wer is 0.5833, published 0 ± 0.005 (the test's own data)"),
            std::string::npos)
      << bad.output;
  EXPECT_EQ(run_aeval(fmt::format("--registry {} report {}", registry, wrong), false).status, 0)
      << "without --fail-on-deviation the flag is in the table, the status stays 0";

  const auto html = run_aeval(fmt::format("--registry {} report {} --format html", registry, wrong), false);
  EXPECT_NE(html.output.find("<tr class=\"deviates\"><td>my-answers</td>"), std::string::npos) << html.output;

  // A published number must name one of the task's evaluators.
  write_bytes(dir / "registry" / "tasks" / "u.yaml",
              "my-typo:\n  class: task\n  args:\n    dataset: my-data\n    evaluators: [wer]\n    published:\n"
              "      - {model: m, metric: cer, value: 0.1, tolerance: 0.01, source: s}\n");
  const auto typo = run_aeval(fmt::format("--registry {} run --task my-typo --model my-answers -q -o {}", registry, wrong));
  EXPECT_EQ(typo.status, 1);
  EXPECT_NE(typo.output.find("published: metric 'cer' is none of the task's evaluators (wer)"), std::string::npos)
      << typo.output;
}

TEST(PublishedE2E, PromptVariantsRunEachWordingOnceAndTheReportShowsTheSpread) {
  TempDir dir;
  write_registry(dir);
  const std::string registry = (dir / "registry").string(), out = (dir / "out").string();
  // Run with its own wording only, the report lists that wording's number, not the other's.
  const std::string plain = (dir / "plain").string();
  ASSERT_EQ(run_aeval(fmt::format("--registry {} run --task my-echo -q -o {}", registry, plain)).status, 0);
  const auto one = run_aeval(fmt::format("--registry {} report {}", registry, plain), false);
  EXPECT_NE(one.output.find("| echo | wer | 0 | 0 | +0 | 0.001 | reproduced | the plain wording |"), std::string::npos)
      << one.output;
  EXPECT_EQ(one.output.find("the polite wording"), std::string::npos) << one.output;

  const auto ran = run_aeval(fmt::format("--registry {} run --task my-echo --prompt-variants -q -o {}", registry, out));
  ASSERT_EQ(ran.status, 0) << ran.output;
  EXPECT_NE(ran.output.find("== my-echo (prompt say-it) (1 in task my-echo)"), std::string::npos) << ran.output;
  EXPECT_NE(ran.output.find("== my-echo (prompt say-it-politely) (2 in task my-echo)"), std::string::npos) << ran.output;

  // "please" is one insertion per sample: 3 in 13 words; the plain wording is exact.
  const auto report = run_aeval(fmt::format("--registry {} report {}", registry, out), false);
  ASSERT_EQ(report.status, 0) << report.output;
  EXPECT_NE(report.output.find("| echo (prompt say-it) | 0 |"), std::string::npos) << report.output;
  EXPECT_NE(report.output.find(fmt::format("| echo (prompt say-it-politely) | {:.4g} |", 3.0 / 13)), std::string::npos)
      << report.output;
  EXPECT_NE(report.output.find(fmt::format("| echo | wer | 2 | 0 | {0:.4g} | {0:.4g} | {1:.4g} |", 3.0 / 13,
                                           std::sqrt(2 * (1.5 / 13) * (1.5 / 13)))),
            std::string::npos)
      << report.output;

  // Each wording's number is held against its own row only: the plain one's 0 would flag the polite row.
  EXPECT_EQ(report.status, 0) << report.output;
  EXPECT_NE(report.output.find("| echo (prompt say-it) | wer | 0 | 0 | +0 | 0.001 | reproduced | the plain wording |"),
            std::string::npos)
      << report.output;
  EXPECT_NE(report.output.find(fmt::format("| echo (prompt say-it-politely) | wer | 0.2308 | {:.4g} |", 3.0 / 13)),
            std::string::npos)
      << report.output;
  EXPECT_EQ(report.output.find("| DEVIATES |"), std::string::npos) << report.output;
  const auto strict = run_aeval(fmt::format("--registry {} report {} --fail-on-deviation", registry, out), false);
  EXPECT_EQ(strict.status, 0) << strict.output;

  // Again: every answer comes from the response cache, nothing is asked twice.
  const auto again = run_aeval(fmt::format("--registry {} run --task my-echo --prompt-variants -o {}", registry, out));
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find("3 samples run (3 from the response cache)"), std::string::npos) << again.output;
  EXPECT_EQ(again.output.find("(0 from the response cache)"), std::string::npos) << again.output;

  const auto none = run_aeval(fmt::format("--registry {} run --task my-asr --model my-answers --prompt-variants", registry));
  EXPECT_EQ(none.status, 1);
  EXPECT_NE(none.output.find("task 'my-asr' lists no prompt_variants"), std::string::npos) << none.output;
}

}  // namespace
