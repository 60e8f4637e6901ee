// UltraEval-Audio's evaluators ChoicesEval, Harm, MCQ, RTFExtractor and NaiveWER as aeval runs them, against
// what UEA's own classes returned on the same answers and rows (tests/data/uea_registry/evaluators.jsonl, by
// make_evaluator_golden.py there): the per-sample dict, its keys in UEA's order and its values with their
// Python types, or UEA's exception.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "evaluators/evaluator.hpp"
#include "registry/registry.hpp"
#include "uea/uea_entries.hpp"
#include "support/reference.hpp"
#include "support/temp_dir.hpp"

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

const std::set<std::string> kNativeClasses = {"uea-choices", "uea-harm", "uea-mcq", "uea-rtf", "uea-naive-wer"};

std::vector<Json> golden_records() {
  std::ifstream in(fs::path(AEVAL_SOURCE_DIR) / "tests/data/uea_registry/evaluators.jsonl");
  std::vector<Json> records;
  for (std::string line; std::getline(in, line);)
    if (auto r = aeval::text::python_json_loads(line)) records.push_back(*r);  // NaN and Infinity as Python writes them
  return records;
}

// Equal as Python values: an int is not a float (1 is not 1.0), NaN equals NaN. Dicts nested in the
// sample's dict are compared by key alone: aeval keeps a sample's dict as JSON, whose objects are sorted.
bool same(const Json& expected, const Json& got) {
  if (expected.is_number() && got.is_number()) {
    if (expected.is_number_float() != got.is_number_float()) return false;
    if (!expected.is_number_float()) return expected == got;
    const double e = expected.get<double>(), g = got.get<double>();
    return std::isnan(e) ? std::isnan(g) : e == g && std::signbit(e) == std::signbit(g);
  }
  if (expected.type() != got.type() || expected.size() != got.size()) return false;
  if (expected.is_object()) {
    for (const auto& [key, value] : expected.items())
      if (!got.contains(key) || !same(value, got.at(key))) return false;
    return true;
  }
  if (expected.is_array()) {
    for (std::size_t i = 0; i < expected.size(); ++i)
      if (!same(expected[i], got[i])) return false;
    return true;
  }
  return expected == got;
}

// The sample's dict as UEA's aggregations see it: UeaEvaluator's "uea" in the order of its "uea_keys".
Json uea_dict(const nlohmann::json& score) {
  Json dict = Json::object();
  for (const auto& key : score.at("uea_keys")) {
    const std::string k = key.get<std::string>();
    dict[k] = Json(score.at("uea").at(k));
  }
  return dict;
}

// The golden file's entries (UEA's own and the argument sets of its generator) as a UEA registry folder, each
// translated and loaded as `aeval uea run` loads it, its label read from the row's `answer`.
class GoldenEvaluators {
 public:
  explicit GoldenEvaluators(const std::vector<Json>& records) {
    std::map<std::string, Json> specs;
    for (const auto& r : records) specs.emplace(r["evaluator"], Json{{"class", r["class"]}, {"args", r["args"]}});
    std::string yaml;  // JSON is YAML, and keeps each value's type as the generator gave it to Python
    for (const auto& [name, spec] : specs) yaml += Json(name).dump() + ": " + spec.dump() + "\n";
    fs::create_directories(dir_ / "registry" / "evaluator");
    aeval::testing::write_bytes(dir_ / "registry" / "evaluator" / "golden.yaml", yaml);
    const aeval::uea::UeaRegistry uea(dir_.path());
    for (const auto& [name, spec] : specs) {
      const auto t = aeval::uea::translate(uea, uea.get("evaluator", name));
      if (!t.entry) throw std::runtime_error(name + ": " + t.reason);
      classes_[name] = t.entry->class_id;
      aeval::registry::Registry registry({aeval::registry::builtin_registry_dir()});  // Seed-TTS-Eval's punctuation
      registry.add(aeval::registry::Kind::evaluator, *t.entry);
      aeval::registry::apply_assignment(registry, "evaluator:" + name + ".label_field=answer");
      evaluators_[name] = aeval::pipeline::load_evaluator(registry, name);
    }
  }
  const aeval::pipeline::Evaluator& operator[](const std::string& name) const { return *evaluators_.at(name); }
  const std::map<std::string, std::string>& classes() const { return classes_; }

 private:
  aeval::testing::TempDir dir_;
  std::map<std::string, std::string> classes_;
  std::map<std::string, std::unique_ptr<aeval::pipeline::Evaluator>> evaluators_;
};

TEST(UeaEvaluators, EachGivesUeasDictOrUeasError) {
  const auto records = golden_records();
  ASSERT_GT(records.size(), 800u) << "tests/data/uea_registry/evaluators.jsonl is missing";
  const GoldenEvaluators evaluators(records);
  for (const auto& [name, class_id] : evaluators.classes())
    EXPECT_TRUE(kNativeClasses.count(class_id)) << name << ": " << class_id;
  const std::vector<std::string> no_references;
  const fs::path no_audio;
  const nlohmann::json earlier = nlohmann::json::object();
  int errors = 0;
  for (const auto& r : records) {
    const std::string id = r["id"], prediction = r["pred"];
    const Json& expected = r["expected"];
    const aeval::pipeline::Sample sample{id, {}, std::nullopt, nlohmann::json(r["row"])};
    const aeval::pipeline::Scored scored{prediction, no_references, sample, no_audio, earlier};
    const auto& evaluator = evaluators[r["evaluator"]];
    if (expected.contains("error")) {
      ++errors;
      const std::string error = expected["error"];
      try {
        const Json got = uea_dict(evaluator.score(scored));
        ADD_FAILURE() << id << ": UEA raised " << error << ", aeval gave " << got.dump();
      } catch (const aeval::Error& e) {
        // json.loads' message says where its own parser stopped; aeval's names the error alone.
        if (error.starts_with("JSONDecodeError: "))
          EXPECT_TRUE(std::string(e.what()).starts_with("JSONDecodeError: ")) << id << ": " << e.what();
        else
          EXPECT_EQ(error, e.what()) << id;
      }
      continue;
    }
    try {
      const Json got = uea_dict(evaluator.score(scored));
      std::vector<std::string> expected_keys, got_keys;
      for (const auto& [key, _] : expected.items()) expected_keys.push_back(key);
      for (const auto& [key, _] : got.items()) got_keys.push_back(key);
      EXPECT_EQ(expected_keys, got_keys) << id << ": keys in UEA's order";
      EXPECT_TRUE(same(expected, got)) << id << ": " << Json(r["pred"]).dump() << "\n  UEA:   " << expected.dump()
                                       << "\n  aeval: " << got.dump();
    } catch (const aeval::Error& e) {
      ADD_FAILURE() << id << ": UEA gave " << expected.dump() << ", aeval raised " << e.what();
    }
  }
  EXPECT_GT(errors, 100);
}

// Every entry of UEA's registry naming one of the five classes has golden vectors, and runs as aeval's own
// class (not UEA's Python through the bridge).
TEST(UeaEvaluators, UeasEntriesOfTheseClassesAreAevalsOwn) {
  AEVAL_REQUIRE_SHARED_UEA();
  std::set<std::string> golden;
  for (const auto& r : golden_records()) golden.insert(r["evaluator"]);
  const aeval::uea::UeaRegistry uea(aeval::testing::shared_uea_dir());
  const std::set<std::string> classes = {
      "audio_evals.evaluator.choices.ChoicesEval", "audio_evals.evaluator.harm.Harm", "audio_evals.evaluator.mcq.MCQ",
      "audio_evals.evaluator.rtf.RTFExtractor", "audio_evals.evaluator.wer.NaiveWER"};
  int entries = 0;
  for (const auto& [name, entry] : uea.entries("evaluator")) {
    if (!classes.count(entry.class_path)) continue;
    ++entries;
    EXPECT_TRUE(golden.count(name)) << name << " has no golden vectors";
    const auto t = aeval::uea::translate(uea, entry);
    ASSERT_TRUE(t.entry) << name << ": " << t.reason;
    EXPECT_TRUE(kNativeClasses.count(t.entry->class_id)) << name << ": " << t.entry->class_id;
  }
  EXPECT_EQ(8, entries);
}

}  // namespace
