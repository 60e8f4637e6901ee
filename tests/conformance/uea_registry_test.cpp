// UltraEval-Audio's registry as aeval reads it, against what UEA's own Python gives
// (tests/data/uea_registry: every prompt entry rendered by Prompt.load(**row), every
// text process entry called on answers, by tests/data/uea_registry/make_golden.py).
// The registry itself is ../shared/uea (UEA at 9b69da6).
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
#include "aeval/metrics/bleu.hpp"
#include "aeval/text/python_values.hpp"
#include "aeval/text/unicode.hpp"
#include "aggregators/aggregator.hpp"
#include "evaluators/evaluator.hpp"
#include "post_process/post_process.hpp"
#include "prompts/prompt.hpp"
#include "registry/classes.hpp"
#include "support/reference.hpp"
#include "support/temp_dir.hpp"
#include "uea/uea_entries.hpp"
#include "uea/uea_location.hpp"

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// The records in order, objects in the order the reference wrote them.
std::vector<Json> read_ordered(const std::string& file) {
  std::ifstream in(fs::path(AEVAL_SOURCE_DIR) / "tests/data/uea_registry" / file);
  std::vector<Json> records;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) records.push_back(Json::parse(line));
  return records;
}


// A registry of the UEA entry alone, translated; fails the test when aeval does not support it.
aeval::registry::Registry single(const aeval::uea::UeaRegistry& uea, const std::string& kind, const std::string& name) {
  const auto t = aeval::uea::translate(uea, uea.get(kind, name));
  if (!t.entry) throw std::runtime_error(name + ": " + t.reason);
  aeval::registry::Registry r;
  r.add(*aeval::uea::aeval_kind(kind), *t.entry);
  return r;
}

TEST(UeaRegistry, TheSharedCopyIsThePinnedCommit) {
  AEVAL_REQUIRE_SHARED_UEA();
  EXPECT_EQ(aeval::uea::kPinnedRegistryDigest, aeval::uea::registry_digest(aeval::testing::shared_uea_dir() / "registry"));
  const aeval::uea::UeaRegistry uea(aeval::testing::shared_uea_dir());
  EXPECT_EQ(261u, uea.entries("prompt").size());
  EXPECT_EQ(116u, uea.entries("eval_task").size());
  EXPECT_EQ(13u, uea.entries("process").size());
}

TEST(UeaRegistry, EveryPromptRendersAsJinja2Does) {
  AEVAL_REQUIRE_SHARED_UEA();
  const auto records = read_ordered("prompts.jsonl");
  ASSERT_GT(records.size(), 2000u) << "tests/data/uea_registry/prompts.jsonl is missing";
  const aeval::uea::UeaRegistry uea(aeval::testing::shared_uea_dir());
  std::map<std::string, aeval::pipeline::Prompt> prompts;
  std::set<std::string> seen;
  int errors = 0;
  for (const auto& r : records) {
    const std::string name = r["prompt"], id = r["id"];
    seen.insert(name);
    if (!prompts.count(name))
      prompts.emplace(name, aeval::pipeline::Prompt::load(single(uea, "prompt", name), name));
    const auto& prompt = prompts.at(name);
    const Json& expected = r["expected"];
    if (expected.is_object() && expected.contains("error") && expected.size() <= 2 && expected.contains("missing")) {
      ++errors;
      try {
        const Json got = prompt.render_structure(r["row"]);
        ADD_FAILURE() << id << ": UEA raised " << expected["error"] << ", aeval gave " << got.dump();
      } catch (const aeval::Error& e) {
        if (expected["missing"].is_string()) {
          EXPECT_NE(std::string(e.what()).find("'" + expected["missing"].get<std::string>() + "' is undefined"),
                    std::string::npos)
              << id << ": " << e.what();
        }
      }
      continue;
    }
    EXPECT_EQ(expected, prompt.render_structure(r["row"])) << id;
  }
  EXPECT_EQ(uea.entries("prompt").size(), seen.size()) << "every prompt entry has vectors";
  EXPECT_GT(errors, 200);
}

// ContentExtract's literal_eval fallback can return Python values JSON cannot hold (tuples,
// sets, bytes, complex numbers, dicts with other keys than text); aeval reads such an answer
// as no literal at all.
const std::set<std::string> kNoJsonForm = {"json_content/024", "json_content/025", "json_content/026",
                                           "json_content/028", "json_content/029"};

TEST(UeaRegistry, EveryTextProcessAnswersAsUeaDoes) {
  AEVAL_REQUIRE_SHARED_UEA();
  const auto records = read_ordered("processes.jsonl");
  ASSERT_GT(records.size(), 1000u) << "tests/data/uea_registry/processes.jsonl is missing";
  const aeval::uea::UeaRegistry uea(aeval::testing::shared_uea_dir());
  std::map<std::string, aeval::pipeline::PostProcess> processes;
  const aeval::pipeline::Sample sample{"s", {}, std::nullopt, nlohmann::json::object()};
  int checked = 0;
  for (const auto& r : records) {
    const std::string name = r["process"], id = r["id"];
    const Json& expected = r["expected"];
    const bool error = expected.is_object() && expected.size() == 1 && expected.contains("error");
    const auto t = aeval::uea::translate(uea, uea.get("process", name));
    if (!t.entry) {  // UEA's own entry is broken (trivia_qa_normalizer): so is aeval's translation
      EXPECT_TRUE(error) << id << ": " << t.reason;
      EXPECT_NE(t.reason.find("no such module"), std::string::npos) << t.reason;
      continue;
    }
    if (!processes.count(name)) processes.emplace(name, aeval::pipeline::load_post_process(single(uea, "process", name), name));
    const auto& process = processes.at(name);
    // The text normalizers take text and give text; the extractors may give any JSON value.
    const auto run = [&](const Json& answer) {
      return process.value ? process.value(answer, sample) : Json(process.apply(answer.get<std::string>(), sample));
    };
    ++checked;
    if (error) {
      EXPECT_THROW(run(r["answer"]), aeval::Error) << id << ": UEA raised " << expected["error"];
      continue;
    }
    if (kNoJsonForm.count(id)) {  // docs/uea.md: aeval returns the answer, as for text that is no literal
      EXPECT_EQ(Json(aeval::text::strip(r["answer"].get<std::string>())), run(r["answer"])) << id;
      continue;
    }
    try {
      const Json got = run(r["answer"]);
      if (expected.is_object() && expected.size() == 1 && expected.contains("python_repr"))
        EXPECT_EQ(expected["python_repr"].get<std::string>(), aeval::text::python_repr(got)) << id;
      else
        EXPECT_EQ(expected, got) << id << ": " << r["answer"].dump();
    } catch (const aeval::Error& e) {
      ADD_FAILURE() << id << ": " << e.what();
    }
  }
  EXPECT_GT(checked, 1000);
}

// Numbers as UEA computed them, to the last bit but for summation order (1e-12 relative); NaN equals NaN.
void expect_same(const Json& expected, const Json& got, const std::string& id) {
  if (expected.is_number() && got.is_number()) {
    const double e = expected.get<double>(), g = got.get<double>();
    if (std::isnan(e)) EXPECT_TRUE(std::isnan(g)) << id;
    else EXPECT_NEAR(e, g, 1e-12 * std::max(1.0, std::abs(e))) << id;
    return;
  }
  ASSERT_EQ(expected.type(), got.type()) << id << ": " << expected.dump() << " vs " << got.dump();
  if (expected.is_object()) {
    ASSERT_EQ(expected.size(), got.size()) << id << ": " << expected.dump() << " vs " << got.dump();
    auto e = expected.begin();
    for (auto g = got.begin(); g != got.end(); ++e, ++g) {
      EXPECT_EQ(e.key(), g.key()) << id << ": keys in UEA's order";
      expect_same(e.value(), g.value(), id + "." + e.key());
    }
    return;
  }
  EXPECT_EQ(expected, got) << id;
}

TEST(UeaRegistry, EveryAggregationComputesAsUeaDoes) {
  AEVAL_REQUIRE_SHARED_UEA();
  std::ifstream in(fs::path(AEVAL_SOURCE_DIR) / "tests/data/uea_registry/aggregations.jsonl");
  std::vector<Json> records;
  for (std::string line; std::getline(in, line);)
    if (auto r = aeval::text::python_json_loads(line)) records.push_back(*r);  // NaN as Python writes it
  ASSERT_GT(records.size(), 50u) << "tests/data/uea_registry/aggregations.jsonl is missing";
  const aeval::uea::UeaRegistry uea(aeval::testing::shared_uea_dir());
  for (const auto& r : records) {
    const std::string name = r["agg"], id = r["id"];
    const auto registry = single(uea, "agg", name);
    const auto aggregator = aeval::pipeline::load_aggregator(registry, name);
    ASSERT_TRUE(aggregator.uea) << name;
    std::vector<Json> results(r["results"].begin(), r["results"].end());
    const Json got = aggregator.uea(results);
    if (r["expected"].contains("raised")) {  // UEA's own need_score_col assertion
      ASSERT_TRUE(got.contains("error")) << id << ": " << got.dump();
      EXPECT_EQ(r["expected"]["raised"], got["error"]) << id;
      continue;
    }
    expect_same(r["expected"], got, id);
  }
}

// UEA's WER aggregation (agg.base.WER, which its registry names in no entry): jiwer's corpus WER of the texts as
// they are, in percent; against jiwer's own corpus WER of the golden sets (their raw variant), and with
// ignore_case the same as of both sides lowercased.
TEST(UeaRegistry, TheWerAggregationIsJiwersCorpusWer) {
  AEVAL_REQUIRE_GOLDEN(records, "jiwer.jsonl");
  aeval::testing::TempDir dir;
  std::filesystem::create_directories(dir / "aggregators");
  aeval::testing::write_bytes(dir / "aggregators" / "a.yaml",
                              "wer:\n  class: uea-jiwer-wer\nwer-any-case:\n  class: uea-jiwer-wer\n  args: {ignore_case: true}\n");
  const aeval::registry::Registry registry({dir.path()});
  const auto aggregator = aeval::pipeline::load_aggregator(registry, "wer");
  ASSERT_TRUE(aggregator.uea);
  int checked = 0;
  for (const auto& r : records) {
    if (r["kind"] != "corpus" || r["variant"] != "raw") continue;
    std::vector<Json> results;
    for (std::size_t i = 0; i < r["input"]["references"].size(); ++i)
      results.push_back({{"pred", r["input"]["hypotheses"][i]}, {"ref", r["input"]["references"][i]}});
    const Json got = aggregator.uea(results);
    EXPECT_NEAR(got.at("wer(%)").get<double>(), r["expected"]["wer"].get<double>() * 100, 1e-9) << r["id"];
    ++checked;
  }
  EXPECT_GT(checked, 10);
  const auto any_case = aeval::pipeline::load_aggregator(registry, "wer-any-case");
  const std::vector<Json> shouted = {{{"pred", "HELLO there"}, {"ref", "hello there"}}, {{"pred", "a b"}, {"ref", "A C"}}},
                          lowered = {{{"pred", "hello there"}, {"ref", "hello there"}}, {{"pred", "a b"}, {"ref", "a c"}}};
  EXPECT_EQ(any_case.uea(shouted).at("wer(%)"), aggregator.uea(lowered).at("wer(%)"));
  EXPECT_NE(any_case.uea(shouted).at("wer(%)"), aggregator.uea(shouted).at("wer(%)"));
}

// aeval's additions on a UEA aggregation: the bootstrap interval and the groups are of UEA's own
// number (ACC in percent), not of the evaluator's per-sample mean (a fraction). Two samples, one
// match: every resample holds A twice, A and B, or B twice, so the 95 % interval is [0, 100].
TEST(UeaRegistry, AnAggregationsIntervalAndGroupsAreOfItsOwnNumber) {
  AEVAL_REQUIRE_SHARED_UEA();
  const aeval::uea::UeaRegistry uea(aeval::testing::shared_uea_dir());
  auto registry = single(uea, "agg", "acc");
  registry.add(aeval::registry::Kind::evaluator, single(uea, "evaluator", "em").get(aeval::registry::Kind::evaluator, "em"));
  for (const char* assignment : {"acc.bootstrap=1000", "acc.group_by=[part]"})
    aeval::registry::apply_assignment(registry, assignment);
  const auto aggregator = aeval::pipeline::load_aggregator(registry, "acc");
  std::vector<std::unique_ptr<aeval::pipeline::Evaluator>> evaluators;
  evaluators.push_back(aeval::pipeline::load_evaluator(registry, "em"));
  const auto record = [](const char* pred, const char* ref, const char* part) {
    return nlohmann::json{{"scores", {{"em", {{"uea", {{"pred", pred}, {"ref", ref}}}, {"uea_keys", {"pred", "ref"}}}}}},
                          {"fields", {{"part", part}}}};
  };
  const nlohmann::json a = record("cat", "cat", "first"), b = record("dog", "cat", "second");
  aeval::pipeline::AggregationSamples samples(evaluators, {&aggregator});
  for (const auto& record : {a, b}) samples.add(record);
  const nlohmann::json out = aggregator.aggregate(evaluators, samples)["em"];
  EXPECT_EQ(50.0, out["value"].get<double>()) << out.dump();
  EXPECT_EQ(0.0, out["interval"]["low"].get<double>()) << out.dump();
  EXPECT_EQ(100.0, out["interval"]["high"].get<double>()) << out.dump();
  EXPECT_EQ(100.0, out["groups"]["part"]["first"]["value"].get<double>()) << out.dump();
  EXPECT_EQ(0.0, out["groups"]["part"]["second"]["value"].get<double>()) << out.dump();
}

// UEA's BLEU aggregation tokenizes each text once and scores the tokens; the score must be sacreBLEU's
// on the texts themselves (aeval's corpus_bleu, checked against sacreBLEU 2.6.0), trailing spaces,
// CJK and a reference of spaces alone (which sacreBLEU keeps) included.
TEST(UeaRegistry, TheBleuAggregationScoresTheTextsAsSacrebleuDoes) {
  AEVAL_REQUIRE_SHARED_UEA();
  const aeval::uea::UeaRegistry uea(aeval::testing::shared_uea_dir());
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"The weather is nice today, isn't it?  ", "The weather today is very nice, isn't it."},
      {"今天天气很好。", "今天的天气很好！ "},
      {"a cat sat on the mat", "   "},
      {"two dogs (running) in the park\t", "Two dogs are running in a park."}};
  for (const char* name : {"bleu", "bleu-zh"}) {
    const auto registry = single(uea, "agg", name);
    const auto aggregator = aeval::pipeline::load_aggregator(registry, name);
    aeval::metrics::BleuOptions options;
    options.tokenize = std::string(name) == "bleu-zh" ? "zh" : "13a";
    std::vector<Json> results;
    std::vector<std::string> hyps, refs;
    for (const auto& [pred, ref] : pairs) {
      results.push_back({{"pred", pred}, {"ref", ref}});
      hyps.push_back(pred);
      refs.push_back(ref);
    }
    for (int twice = 0; twice < 2; ++twice)  // the second time from the tokens kept
      EXPECT_DOUBLE_EQ(aeval::metrics::corpus_bleu(hyps, {refs}, options).score, aggregator.uea(results)["bleu"].get<double>())
          << name;
  }
}

}  // namespace
