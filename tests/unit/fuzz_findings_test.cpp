// What the fuzzers of fuzz/ found (docs/fuzzing.md), one test per finding,
// each named after the fuzzer that found it.
#include <gtest/gtest.h>

#include <string>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "aeval/npy.hpp"
#include "aeval/text/json_in_text.hpp"
#include "aeval/text/python_values.hpp"
#include "models/process_model.hpp"
#include "datasets/archive_extract.hpp"
#include "datasets/asterisk_prompts.hpp"
#include "datasets/class_labels.hpp"
#include "datasets/manifest.hpp"
#include "datasets/parquet_clips.hpp"
#include "datasets/table_reader.hpp"
#include "run/run_store.hpp"
#include "prompts/template.hpp"
#include "registry/registry.hpp"
#include "support/config_error.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::models::ProcessReply;
using aeval::models::read_process_reply;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

// json_in_text: every pair of brackets was a candidate, so prose full of
// braces (a judge writing LaTeX) took minutes before its JSON was found.
TEST(FuzzFindings, JsonInTextAfterProseFullOfBraces) {
  std::string answer;
  for (int i = 0; i < 500; ++i) answer += "\\frac{a_" + std::to_string(i) + "}{b} + ";
  answer += "so: {\"score\": 7, \"note\": \"} and { in a string\"}";
  const auto object = aeval::text::find_json(answer);
  ASSERT_TRUE(object.has_value());
  EXPECT_EQ(object->dump(), R"({"note":"} and { in a string","score":7})");
  EXPECT_EQ(aeval::text::find_json(std::string(2000, '{') + std::string(2000, '}'))->dump(), "{}");
}

// python_values: a '.' at the very end of a literal ("{.") was looked past to see whether a digit followed.
TEST(FuzzFindings, PythonLiteralEndingInADot) {
  for (const char* text : {"{.", ".", "[1, .", "{'a': ."}) EXPECT_FALSE(aeval::text::python_literal_eval(text)) << text;
  EXPECT_EQ(0.5, aeval::text::python_literal_eval(".5")->get<double>());
}

// process_reply: {"type": 1} threw nlohmann's type_error on the reader
// thread, which ended aeval (std::terminate).
TEST(FuzzFindings, ProcessReplyFieldsOfAnyType) {
  EXPECT_EQ(read_process_reply(R"({"type": 1})").type, ProcessReply::Type::other);
  EXPECT_EQ(read_process_reply(R"({"type": ["ready"]})").type, ProcessReply::Type::other);
  const auto reply = read_process_reply(R"({"type": "error", "id": 7, "message": {"text": "x"}})");
  EXPECT_EQ(reply.type, ProcessReply::Type::error);
  EXPECT_EQ(reply.id, "");  // answers no request
  EXPECT_EQ(read_process_reply("not json").type, ProcessReply::Type::other);
}

// (Met while writing process_reply.) An error with an empty message passed
// for an answer with empty text.
TEST(FuzzFindings, ProcessReplyErrorWithoutMessageIsAnError) {
  const auto reply = read_process_reply(R"({"type": "error", "id": "3", "message": ""})");
  EXPECT_EQ(reply.id, "3");
  EXPECT_EQ(reply.error, "an error reply without a message");
  EXPECT_FALSE(reply.text || reply.audio);
}

// (Met while writing process_reply.) A process model's stderr line that is
// not UTF-8 went to the run log through a strict JSON dump: aeval aborted.
TEST(FuzzFindings, RunLogTakesBytesThatAreNotUtf8) {
  TempDir dir;
  aeval::pipeline::RunStore store(dir / "run.sqlite");
  EXPECT_NO_THROW(store.log({{"event", "model_stderr"}, {"line", "caf\xE9 loading"}}));
  EXPECT_NE(aeval::testing::read_bytes(dir / "run.log").find("caf\xEF\xBF\xBD loading"), std::string::npos);
}

// The error of loading a registry whose one file, prompts/p.yaml, holds `text`.
std::string prompts_file_error(const std::string& text) {
  TempDir dir;
  std::filesystem::create_directories(dir / "prompts");
  write_bytes(dir / "prompts" / "p.yaml", text);
  return aeval::testing::config_error([&] { aeval::registry::Registry({dir.path()}); });
}

// registry_yaml: bytes that are not UTF-8 loaded, then broke the strict JSON
// of `aeval describe` and of the run's provenance ("internal error").
TEST(FuzzFindings, RegistryFileThatIsNotUtf8NamesItsLine) {
  const std::string message = prompts_file_error("p:\n  class: fields\n  args:\n    fields: {text: \"caf\xE9\"}\n");
  EXPECT_NE(message.find("p.yaml:4: not UTF-8"), std::string::npos) << message;
}

// registry_yaml: an entry named by a list or a map threw yaml-cpp's
// TypedBadConversion, which no caller expects (std::terminate).
TEST(FuzzFindings, RegistryEntryNamedByAListIsAnError) {
  const std::string message = prompts_file_error("ok:\n  class: audio\n[a, b]:\n  class: audio\n");
  EXPECT_NE(message.find("p.yaml:3: an entry's name must be plain text"), std::string::npos) << message;
}

// registry_yaml: an argument named by a list (`? - ...` inside an entry's args)
// threw yaml-cpp's TypedBadConversion while the registry was checked (std::terminate).
TEST(FuzzFindings, RegistryArgumentNamedByAListIsAnError) {
  const std::string message = prompts_file_error("p:\n  class: fields\n  args:\n    ? [a, b]\n    : x\n");
  EXPECT_NE(message.find("p.yaml:4: an argument's name must be plain text"), std::string::npos) << message;
}

// registry_yaml (in CI): a NUL inside a plain scalar loaded as the byte 0xA0 (yaml-cpp), which is not UTF-8,
// so the JSON of the entry's arguments threw nlohmann's type_error: std::terminate in the provenance.
TEST(FuzzFindings, RegistryFileWithAControlCharacterNamesItsLine) {
  const std::string message = prompts_file_error(std::string("p:\n  class: fields\n  args:\n    fields: {text: a") +
                                                 '\0' + "b}\n");
  EXPECT_NE(message.find("p.yaml:4: a control character (byte 0x00 at offset 47)"), std::string::npos) << message;
}

// manifest: a number too large for a double threw nlohmann's out_of_range,
// which the manifest reader did not catch.
TEST(FuzzFindings, ManifestNumberTooLargeIsMalformedJson) {
  TempDir dir;
  write_bytes(dir / "m.jsonl", "{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": 555e55000}\n");
  try {
    aeval::datasets::read_manifest(dir / "m.jsonl", {});
    ADD_FAILURE() << "the manifest was read";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("m.jsonl:2: malformed JSON"), std::string::npos) << e.what();
  }
}

// template: a number literal too large for a long long (or a double) threw
// std::out_of_range from std::stoll; "1.2.3" read as 1.2.
TEST(FuzzFindings, TemplateNumbersTooLargeAreSyntaxErrors) {
  using aeval::pipeline::Template;
  const std::string too_large_for_a_double = std::string(400, '9') + ".5";
  for (const std::string& source : {std::string("{{ 99999999999999999999 }}"), std::string("{{ 1.2.3 }}"),
                                    "{% if x %}\n{{ " + too_large_for_a_double + " }}{% endif %}"}) {
    const std::string message = aeval::testing::config_error([&] { Template(source, "t"); });
    EXPECT_NE(message.find("is not a number aeval can read"), std::string::npos) << source << ": " << message;
  }
  EXPECT_EQ(Template("{{ -9223372036854775807 }} {{ 2.5 }}", "t").render(nlohmann::json::object()), "-9223372036854775807 2.5");
}

// asterisk_transcripts: a name too long for a file name threw
// std::filesystem::filesystem_error from the audio file's existence check.
TEST(FuzzFindings, AsteriskTranscriptWithANameTooLongForAFile) {
  TempDir dir;
  aeval::datasets::AsteriskPromptsConfig config;
  config.sounds_dir = dir.path();
  config.transcripts = dir / "core-sounds-en.txt";
  write_bytes(config.transcripts, std::string(5000, 'x') + ": Hello there.\n");
  const auto built = aeval::datasets::build_asterisk_manifest(config, dir / "m.jsonl");
  ASSERT_EQ(built.skipped.size(), 1u);
  EXPECT_EQ(built.skipped[0].second, "no audio file");
}

// npy: a dimension too large for an integer threw std::out_of_range from
// std::stoul; dimensions whose product overflows passed the size check.
TEST(FuzzFindings, NpyShapeLargerThanAnyFile) {
  TempDir dir;
  const auto npy = [&](const std::string& shape) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
    header.resize(118, ' ');
    header += '\n';
    write_bytes(dir / "a.npy", std::string("\x93NUMPY\x01\x00\x76\x00", 10) + header + std::string(16, '\0'));
    return dir / "a.npy";
  };
  for (const std::string shape : {"(99999999999999999999999,)", "(4294967296, 4294967296)", "(4611686018427387904,)"}) {
    try {
      aeval::read_npy(npy(shape));
      ADD_FAILURE() << shape << " was read";
    } catch (const aeval::Error& e) {
      EXPECT_EQ(e.category(), aeval::ErrorCategory::data) << e.what();
    }
  }
  EXPECT_EQ(aeval::read_npy(npy("(2, 2)")).values.size(), 4u);
}

// npy: an empty Fortran-order array of very many rows (shape (23333333333333, 0)) spun through every
// row to transpose nothing, for hours.
TEST(FuzzFindings, NpyEmptyFortranArrayOfManyRows) {
  TempDir dir;
  std::string header = "{'descr': '<f2', 'fortran_order': True, 'shape': (23333333333333, 0), }";
  header.resize(118, ' ');
  header += '\n';
  write_bytes(dir / "a.npy", std::string("\x93NUMPY\x01\x00\x76\x00", 10) + header);
  const aeval::NpyArray array = aeval::read_npy(dir / "a.npy");
  EXPECT_TRUE(array.values.empty());
  EXPECT_EQ((std::vector<std::size_t>{23333333333333u, 0}), array.shape);
}

// audio_locator: a Parquet clip's row number too large for 64 bits
// ("FILE#row=666666666666666666666&column=audio") threw std::out_of_range from
// std::stoull: std::terminate.
TEST(FuzzFindings, AudioLocatorRowNumberTooLargeIsAnError) {
  const std::string file = aeval::datasets::parquet_clip_locator("clips.parquet", 0, "audio");
  const std::string clips = file.substr(0, file.find('#'));
  for (const std::string fragment : {"row=666666666666666666666&column=audio", "row=18446744073709551616&column=audio"}) {
    try {
      aeval::decode_audio(clips + "#" + fragment);
      ADD_FAILURE() << fragment << " was read";
    } catch (const aeval::Error& e) {
      EXPECT_EQ(e.category(), aeval::ErrorCategory::audio) << e.what();
      EXPECT_NE(std::string(e.what()).find("FILE#row=N&column=NAME"), std::string::npos) << e.what();
    }
  }
}

// class_labels: a feature whose `_type` is a list (`{"_type": ["dog"], ...}` in a Parquet file's
// `huggingface` metadata) threw nlohmann's type_error from json::value: std::terminate.
TEST(FuzzFindings, ClassLabelTypeOfAnotherKindLeavesTheColumnPlain) {
  const auto labels = aeval::datasets::class_labels_in_metadata(
      R"({"info": {"features": {"label": {"_type": ["dog", "cat"], "names": ["dog", "cat"]},)"
      R"( "kind": {"_type": "ClassLabel", "names": ["a", "b"]}}}})");
  EXPECT_EQ(labels.count("label"), 0u);
  ASSERT_EQ(labels.count("kind"), 1u);
  EXPECT_EQ(labels.at("kind"), (std::vector<std::string>{"a", "b"}));
}

// archive (in CI): a gzip stream libarchive refuses without saying why (a null error string), which
// the error message appended to a std::string: a null dereference.
TEST(FuzzFindings, ArchiveThatLibarchiveRefusesWithoutAReason) {
  TempDir dir;
  const auto input = std::filesystem::path(AEVAL_SOURCE_DIR) / "fuzz" / "findings" / "archive" / "no-error-string";
  std::filesystem::copy_file(input, dir / "input.tar");
  try {
    aeval::datasets::extract_archive(dir / "input.tar", dir / "out");
    ADD_FAILURE() << "a 54-byte broken gzip stream unpacked";
  } catch (const aeval::Error& e) {
    EXPECT_EQ(e.category(), aeval::ErrorCategory::data) << e.what();
    EXPECT_FALSE(std::filesystem::exists(dir / "out")) << e.what();
  }
}

// parquet: a file whose BROTLI-compressed page is corrupt (made with DuckDB's COPY, bytes of its first
// page flipped). DuckDB 1.4.4 leaks its Brotli decoder when the page fails to decompress, which is not
// aeval's to fix (fuzz/lsan-suppressions.txt); what aeval promises is a clear error naming the file.
TEST(FuzzFindings, ParquetWithACorruptBrotliPageIsADataError) {
  const auto file = std::filesystem::path(AEVAL_SOURCE_DIR) / "fuzz" / "findings" / "parquet" / "corrupt-brotli-page";
  try {
    const auto table = aeval::datasets::TableReader::parquet({file});
    table.scan({"text"}, [](aeval::datasets::TableRow&) {});
    ADD_FAILURE() << "a corrupt page was read";
  } catch (const aeval::Error& e) {
    EXPECT_EQ(e.category(), aeval::ErrorCategory::data) << e.what();
    EXPECT_NE(std::string(e.what()).find("corrupt-brotli-page"), std::string::npos) << e.what();
  }
}

}  // namespace
