// What aggregation keeps of a run's samples (issue 54): an evaluator whose statistics give its whole corpus
// result keeps a few numbers a sample and no record, with the result its records give; a record without
// what those statistics read (a run stored by an older aeval) is refused with the evaluator's name.
#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "aggregators/aggregator.hpp"
#include "registry/registry.hpp"

namespace {

using aeval::pipeline::AggregationSamples;
using aeval::pipeline::Aggregator;
using aeval::pipeline::Evaluator;
using nlohmann::json;

std::vector<std::unique_ptr<Evaluator>> evaluators(std::initializer_list<const char*> names) {
  const aeval::registry::Registry builtin({aeval::registry::builtin_registry_dir()});
  std::vector<std::unique_ptr<Evaluator>> out;
  for (const char* name : names) out.push_back(aeval::pipeline::load_evaluator(builtin, name));
  return out;
}

// A sample's record as a run keeps it for aggregation: its WER's edit counts and an exact-match score.
json record(int hits, int substitutions, int deletions, int insertions, double match, const char* kind) {
  return {{"scores",
           {{"wer", {{"value", double(substitutions + deletions + insertions) / (hits + substitutions + deletions)},
                     {"hits", hits}, {"substitutions", substitutions}, {"deletions", deletions},
                     {"insertions", insertions}, {"reference_tokens", hits + substitutions + deletions},
                     {"hypothesis_tokens", hits + substitutions + insertions}}},
            {"match", {{"value", match}}}}},
          {"fields", {{"kind", kind}}}};
}

TEST(AggregationSamples, StatisticsGivingTheWholeCorpusKeepNoRecordAndGiveTheRecordsResult) {
  auto scoring = evaluators({"wer"});
  scoring[0]->name = "wer";
  Aggregator grouped;
  grouped.group_by = {"kind"};
  AggregationSamples samples(scoring, {&grouped});
  EXPECT_FALSE(samples.keeps_records());
  const std::vector<json> records{record(5, 1, 0, 2, 1, "read"), record(3, 0, 1, 0, 0, "chat"),
                                  record(8, 2, 1, 1, 1, "read")};
  std::vector<const json*> pointers;
  for (const auto& r : records) {
    samples.add(r);
    pointers.push_back(&r);
  }
  const json out = grouped.aggregate(scoring, samples)["wer"];
  json expected = scoring[0]->corpus(pointers);
  expected["samples"] = 3;
  expected["groups"]["kind"] = {{"chat", {{"value", 1.0 / 4.0}, {"samples", 1}}},
                                {"read", {{"value", 7.0 / 17.0}, {"samples", 2}}}};
  EXPECT_EQ(out, expected);
  EXPECT_EQ(out["hits"], 16);
}

TEST(AggregationSamples, ARecordWithoutWhatTheStatisticsReadIsRefusedNamingTheEvaluator) {
  auto scoring = evaluators({"wer"});
  scoring[0]->name = "wer";
  json old = record(5, 1, 0, 2, 1, "read");
  old["scores"]["wer"].erase("hits");  // as no aeval stores it
  const Aggregator corpus;
  AggregationSamples samples(scoring, {&corpus});
  try {
    samples.add(old);
    FAIL() << "taken";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("sample 1: its record lacks what evaluator 'wer' is aggregated from"),
              std::string::npos) << e.what();
  }
}

// An evaluator whose corpus result does not follow from numbers per sample (CIDEr-D's idf) keeps the records.
TEST(AggregationSamples, AnEvaluatorWithoutTheWholeCorpusFromStatisticsKeepsTheRecords) {
  auto scoring = evaluators({"wer", "cider-d"});
  const Aggregator corpus;
  EXPECT_TRUE(AggregationSamples(scoring, {&corpus}).keeps_records());
  EXPECT_FALSE(AggregationSamples(evaluators({"wer", "cer"}), {&corpus}).keeps_records());
}

}  // namespace
