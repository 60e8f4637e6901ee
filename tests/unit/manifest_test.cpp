#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "datasets/asterisk_prompts.hpp"
#include "datasets/manifest.hpp"
#include "support/temp_dir.hpp"
#include "support/require.hpp"

namespace {

using aeval::testing::TempDir;

TEST(Manifest, ResolvesAudioRelativeToTheManifest) {
  TempDir dir;
  aeval::testing::write_bytes(dir / "m.jsonl",
                              "{\"id\": \"a\", \"audio\": \"clips/a.wav\", \"text\": \"hello\", \"speaker\": 3}\n\n"
                              "{\"id\": 7, \"audio\": \"/abs/b.wav\", \"text\": \"bye\"}\n");
  const auto samples = aeval::datasets::read_manifest(dir / "m.jsonl");
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].audio, dir / "clips/a.wav");
  EXPECT_EQ(samples[0].fields["speaker"], 3);
  EXPECT_EQ(samples[1].id, "7");
  EXPECT_EQ(samples[1].audio, "/abs/b.wav");
}

TEST(Manifest, OtherAudioFieldsResolveAndTextMayBeAbsent) {
  TempDir dir;
  aeval::testing::write_bytes(dir / "m.jsonl", "{\"id\": \"a\", \"audio\": \"a.wav\", \"audio_b\": \"b.wav\", "
                                               "\"captions\": [\"a dog\", \"a barking dog\"]}\n");
  const auto samples = aeval::datasets::read_manifest(dir / "m.jsonl");
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].fields["audio_b"], (dir / "b.wav").string());
  EXPECT_FALSE(samples[0].reference.has_value()) << "a row without the field has no reference, not an empty one";
}

TEST(Manifest, ALinkToAManifestKeepsItsPathsTheManifests) {
  TempDir dir;
  std::filesystem::create_directories(dir / "corpus");
  std::filesystem::create_directories(dir / "work");
  aeval::testing::write_bytes(dir / "corpus" / "m.jsonl", "{\"id\": \"a\", \"audio\": \"clips/a.wav\"}\n");
  std::filesystem::create_symlink(dir / "corpus" / "m.jsonl", dir / "work" / "m.jsonl");
  const auto samples = aeval::datasets::read_manifest(dir / "work" / "m.jsonl");
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].audio, std::filesystem::canonical(dir / "corpus") / "clips/a.wav");
}

TEST(Manifest, ANullTextOrAudioIsNoValue) {
  TempDir dir;
  aeval::testing::write_bytes(dir / "m.jsonl", "{\"id\": \"a\", \"audio\": \"a.wav\", \"text\": null}\n"
                                               "{\"id\": \"b\", \"audio\": null, \"text\": \"x\"}\n");
  const auto samples = aeval::datasets::read_manifest(dir / "m.jsonl");
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_FALSE(samples[0].reference.has_value());
  EXPECT_TRUE(samples[1].audio.empty());
  EXPECT_EQ(samples[1].reference, "x");
}

TEST(Manifest, ErrorsNameFileAndLine) {
  TempDir dir;
  const auto expect_error = [&](const std::string& content, const std::string& fragment) {
    aeval::testing::write_bytes(dir / "m.jsonl", content);
    try {
      aeval::datasets::read_manifest(dir / "m.jsonl");
      ADD_FAILURE() << "no error for " << content;
    } catch (const aeval::Error& e) {
      EXPECT_EQ(e.category(), aeval::ErrorCategory::data);
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  const std::string good = "{\"id\": \"a\", \"audio\": \"a.wav\", \"text\": \"x\"}\n";
  expect_error(good + "{\"id\": \"b\", \"audio\": \n", "m.jsonl:2: malformed JSON");
  expect_error(good + "{\"id\": \"b\", \"audio\": 3, \"text\": \"x\"}\n", "m.jsonl:2: field 'audio' must be a string");
  expect_error(good + good, "m.jsonl:2: duplicate id 'a'");
  // The first line where an id comes again, past a blank line, though a later row repeats an earlier id.
  const std::string b = "{\"id\": \"b\", \"audio\": \"b.wav\", \"text\": \"x\"}\n";
  expect_error(good + "\n" + b + b + good, "m.jsonl:4: duplicate id 'b'");
  expect_error("[1, 2]\n", "m.jsonl:1: a manifest row must be a JSON object");
}

TEST(AsteriskPrompts, TranscriptUsability) {
  using aeval::datasets::unusable_transcript_reason;
  EXPECT_EQ(unusable_transcript_reason("Thank you."), "");
  EXPECT_EQ(unusable_transcript_reason("dash [-]"), "");
  EXPECT_EQ(unusable_transcript_reason("[this is a simple beep tone]"), "stage direction only");
  EXPECT_EQ(unusable_transcript_reason("<beep ascending>"), "stage direction only");
  EXPECT_EQ(unusable_transcript_reason("..."), "no words");
}

TEST(AsteriskPrompts, BuildsManifestFromDebianPackages) {
  aeval::datasets::AsteriskPromptsConfig config;
  AEVAL_REQUIRE(std::filesystem::exists(config.transcripts) && std::filesystem::exists(config.sounds_dir),
                "asterisk-core-sounds-en(-g722)");
  TempDir dir;
  const auto built = aeval::datasets::build_asterisk_manifest(config, dir / "m.jsonl");
  const auto samples = aeval::datasets::read_manifest(built.path);
  EXPECT_EQ(samples.size(), built.samples);
  EXPECT_GT(samples.size(), 300u);
  EXPECT_FALSE(built.skipped.empty());
  for (const auto& s : samples) ASSERT_TRUE(std::filesystem::exists(s.audio)) << s.id;
}

}  // namespace
