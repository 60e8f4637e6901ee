// UltraEval-Audio's JsonlFile against pandas: the rows aeval's uea_jsonl class reads from
// tests/data/uea_jsonl/hostile.jsonl (numeric strings, whole floats, booleans among integers, gaps, nulls,
// nested values, a key only one row has) must be, value by value, of the Python type and repr that
// pandas.read_json(lines=True) gives UEA (golden.jsonl, written by make_golden.py there with Debian's pandas 1.5.3).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "aeval/text/python_values.hpp"
#include "datasets/dataset.hpp"
#include "uea/uea_entries.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string python_type(const Json& value) {
  if (value.is_boolean()) return "bool";
  if (value.is_number_integer()) return "int";
  if (value.is_number_float()) return "float";
  if (value.is_string()) return "str";
  if (value.is_object()) return "dict";
  if (value.is_array()) return "list";
  return "NoneType";
}

TEST(UeaJsonlConformance, RowsAreWhatPandasGivesUea) {
  const fs::path data = fs::path(AEVAL_SOURCE_DIR) / "tests/data/uea_jsonl";
  aeval::testing::TempDir dir;
  fs::create_directories(dir / "registry" / "dataset");
  fs::copy_file(data / "hostile.jsonl", dir / "hostile.jsonl");
  std::ofstream(dir / "registry" / "dataset" / "mine.yaml")
      << "mine:\n  class: audio_evals.dataset.dataset.JsonlFile\n  args:\n    f_name: hostile.jsonl\n"
         "    default_task: asr\n    ref_col: text\n";
  const auto translated = aeval::uea::translate_registry(aeval::uea::UeaRegistry(dir.path()));
  ASSERT_TRUE(translated.registry.contains(aeval::registry::Kind::dataset, "mine"));
  const auto dataset = aeval::datasets::DatasetClasses::make(
      translated.registry.get(aeval::registry::Kind::dataset, "mine"), aeval::registry::Kind::dataset,
      translated.registry);

  std::ifstream golden(data / "golden.jsonl");
  std::string line;
  std::getline(golden, line);  // the pandas version
  std::size_t row = 0;
  for (; std::getline(golden, line); ++row) {
    ASSERT_LT(row, dataset.samples.size());
    const auto& sample = dataset.samples[row];
    EXPECT_EQ(std::to_string(row), sample.id) << "UEA's EvalTask numbers rows from 0";
    const Json expected = Json::parse(line);
    EXPECT_EQ(expected.size(), sample.fields.size()) << "row " << row << ": every column of the frame";
    for (const auto& [key, type_and_repr] : expected.items()) {
      ASSERT_TRUE(sample.fields.contains(key)) << "row " << row << ": " << key;
      if (key == "WavPath") continue;  // resolved against UEA's root, below
      const Json value = Json(sample.fields[key]);
      EXPECT_EQ(type_and_repr[0], python_type(value)) << "row " << row << ": " << key;
      EXPECT_EQ(type_and_repr[1], aeval::text::python_repr(value)) << "row " << row << ": " << key;
    }
  }
  EXPECT_EQ(dataset.samples.size(), row);
  // WavPath is relative to UEA's working folder (its root); aeval gives prompts and models the file where it lies.
  EXPECT_EQ((dir / "clips" / "a.wav").string(), dataset.samples.at(0).audio.string());
  EXPECT_EQ("/abs/c.wav", dataset.samples.at(2).fields["WavPath"]);
  EXPECT_EQ("2020", dataset.samples.at(1).reference) << "the reference is str() of ref_col's value";
}

TEST(UeaJsonlConformance, AColumnAliasThatExistsIsUeasError) {
  aeval::testing::TempDir dir;
  fs::create_directories(dir / "registry" / "dataset");
  std::ofstream(dir / "rows.jsonl") << "{\"WavPath\": \"a.wav\", \"text\": \"x\", \"answer\": \"y\"}\n";
  std::ofstream(dir / "registry" / "dataset" / "mine.yaml")
      << "mine:\n  class: audio_evals.dataset.dataset.JsonlFile\n  args:\n    f_name: rows.jsonl\n"
         "    default_task: asr\n    ref_col: text\n    col_aliases: {text: answer}\n";
  const auto translated = aeval::uea::translate_registry(aeval::uea::UeaRegistry(dir.path()));
  try {
    aeval::datasets::DatasetClasses::make(translated.registry.get(aeval::registry::Kind::dataset, "mine"),
                                          aeval::registry::Kind::dataset, translated.registry);
    FAIL() << "an alias naming an existing column loaded";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("Column alias answer already exists"), std::string::npos) << e.what();
  }
}

TEST(UeaJsonlConformance, AMalformedLineNamesTheFileAndLine) {
  aeval::testing::TempDir dir;
  fs::create_directories(dir / "registry" / "dataset");
  std::ofstream(dir / "rows.jsonl") << "{\"WavPath\": \"a.wav\", \"text\": \"x\"}\n{\"WavPath\": \"b.wav\", \"text\n";
  std::ofstream(dir / "registry" / "dataset" / "mine.yaml")
      << "mine:\n  class: audio_evals.dataset.dataset.JsonlFile\n  args:\n    f_name: rows.jsonl\n"
         "    default_task: asr\n    ref_col: text\n";
  const auto translated = aeval::uea::translate_registry(aeval::uea::UeaRegistry(dir.path()));
  try {
    aeval::datasets::DatasetClasses::make(translated.registry.get(aeval::registry::Kind::dataset, "mine"),
                                          aeval::registry::Kind::dataset, translated.registry);
    FAIL() << "a malformed line loaded";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find((dir / "rows.jsonl").string() + ":2"), std::string::npos) << e.what();
  }
}

}  // namespace
