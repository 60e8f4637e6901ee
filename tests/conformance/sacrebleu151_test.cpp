// UltraEval-Audio's BLEU evaluator and BLEU aggregation as aeval runs them (UEA's entries bleu, bleu-zh,
// bleu-jp, bleu-char and our own lang: ja), against UEA's own classes under sacreBLEU 1.5.1, UEA's pin
// (tests/data/sacrebleu151/golden.jsonl, by make_golden.py there). aeval's BLEU is sacreBLEU 2.6.0's; the two
// versions agree on tokens, n-gram statistics and lengths everywhere, and differ in 2.x's early stop (sacreBLEU
// #141, 2.0.0): where no unigram matches, 2.x returns 0, while 1.5.1 goes on smoothing with "exp" and, for a
// hypothesis of four tokens or more, gives bp * exp(mean_n log(100 / (2^n total_n))). UEA's classes score as
// 1.5.1 does (BleuOptions::zero_without_match off): their every score is 1.5.1's to the last bit (log and exp
// are the same libm CPython calls): equality.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "aeval/error.hpp"
#include "aeval/metrics/bleu.hpp"
#include "aggregators/aggregator.hpp"
#include "evaluators/evaluator.hpp"
#include "registry/registry.hpp"
#include "uea/uea_entries.hpp"
#include "support/temp_dir.hpp"

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

std::vector<Json> golden_records() {
  std::ifstream in(fs::path(AEVAL_SOURCE_DIR) / "tests/data/sacrebleu151/golden.jsonl");
  std::vector<Json> records;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) records.push_back(Json::parse(line));
  return records;
}

// 1.5.1's value where 2.x stops early: no unigram matched, yet 1.5.1 scored above 0.
bool stops_early_in_2x(const Json& r) {
  return r.contains("sacrebleu") && r["sacrebleu"]["counts"][0] == 0 && r["expected"]["bleu"].get<double>() != 0.0;
}

// compute_bleu of 1.5.1 (metrics/bleu.py) on its own statistics when no n-gram matched: "exp" smoothing
// halves each order's floor in turn; an order with no n-gram leaves a precision of 0 (my_log: -9999999999).
double smoothed_without_matches(const Json& s) {
  double smooth = 1, log_sum = 0;
  for (std::size_t n = 0; n < 4; ++n) {
    const double total = s["totals"][n].get<double>();
    if (total == 0) return 0.0;
    smooth *= 2;
    log_sum += std::log(100.0 / (smooth * total));
  }
  return s["bp"].get<double>() * std::exp(log_sum / 4);
}

// The golden file's entries as a UEA registry folder, each translated and loaded as `aeval uea run` loads
// it, the evaluator's label read from the row's `answer`.
class GoldenEntries {
 public:
  explicit GoldenEntries(const std::vector<Json>& records) {
    std::map<std::string, std::map<std::string, Json>> specs;  // UEA kind -> name -> {class, args}
    for (const auto& r : records) {
      const std::string kind = r["kind"] == "agg" ? "agg" : "evaluator";
      specs[kind].emplace(r["entry"], Json{{"class", r["class"]}, {"args", r["args"]}});
    }
    for (const auto& [kind, entries] : specs) {
      std::string yaml;  // JSON is YAML
      for (const auto& [name, spec] : entries) yaml += Json(name).dump() + ": " + spec.dump() + "\n";
      fs::create_directories(dir_ / "registry" / kind);
      aeval::testing::write_bytes(dir_ / "registry" / kind / "golden.yaml", yaml);
    }
    const aeval::uea::UeaRegistry uea(dir_.path());
    for (const auto& [kind, entries] : specs)
      for (const auto& [name, spec] : entries) {
        const auto t = aeval::uea::translate(uea, uea.get(kind, name));
        if (!t.entry) throw std::runtime_error(name + ": " + t.reason);
        aeval::registry::Registry registry;
        registry.add(*aeval::uea::aeval_kind(kind), *t.entry);
        if (kind == "agg") {
          aggregators_.emplace(name, aeval::pipeline::load_aggregator(registry, name));
        } else {
          aeval::registry::apply_assignment(registry, "evaluator:" + name + ".label_field=answer");
          evaluators_[name] = aeval::pipeline::load_evaluator(registry, name);
        }
      }
  }
  // UEA's dict of one sample: UeaEvaluator's "uea", keys in the order of its "uea_keys".
  Json evaluate(const std::string& name, const std::string& pred, const std::string& ref) const {
    const std::vector<std::string> no_references;
    const fs::path no_audio;
    const nlohmann::json earlier = nlohmann::json::object();
    const aeval::pipeline::Sample sample{"s", {}, std::nullopt, nlohmann::json{{"answer", ref}}};
    const nlohmann::json score = evaluators_.at(name)->score({pred, no_references, sample, no_audio, earlier});
    Json dict = Json::object();
    for (const auto& key : score.at("uea_keys")) {
      const std::string k = key.get<std::string>();
      dict[k] = Json(score.at("uea").at(k));
    }
    return dict;
  }
  Json aggregate(const std::string& name, const Json& results) const {
    return aggregators_.at(name).uea(std::vector<Json>(results.begin(), results.end()));
  }

 private:
  aeval::testing::TempDir dir_;
  std::map<std::string, std::unique_ptr<aeval::pipeline::Evaluator>> evaluators_;
  std::map<std::string, aeval::pipeline::Aggregator> aggregators_;
};

TEST(Sacrebleu151, TheEvaluatorGivesUeasDictOrFailsTheSample) {
  const auto records = golden_records();
  ASSERT_GT(records.size(), 600u) << "tests/data/sacrebleu151/golden.jsonl is missing";
  const GoldenEntries entries(records);
  int checked = 0, failed = 0, early = 0;
  for (const auto& r : records) {
    if (r["kind"] != "evaluator") continue;
    const std::string id = r["id"], pred = r["pred"], ref = r["ref"];
    ++checked;
    if (r["expected"].contains("error")) {  // 1.5.1: EOFError "No valid references for a sentence!"
      ++failed;
      EXPECT_THROW(entries.evaluate(r["entry"], pred, ref), aeval::Error) << id;
      continue;
    }
    const Json got = entries.evaluate(r["entry"], pred, ref);
    ASSERT_EQ(3u, got.size()) << id << ": " << got.dump();
    EXPECT_EQ("pred", got.begin().key()) << id;
    EXPECT_EQ(r["expected"]["pred"], got["pred"]) << id;
    EXPECT_EQ(r["expected"]["ref"], got["ref"]) << id;
    const double expected = r["expected"]["bleu"], value = got.at("bleu");
    early += stops_early_in_2x(r);
    EXPECT_EQ(expected, value) << id << ": " << Json(pred).dump() << " / " << Json(ref).dump();
  }
  EXPECT_EQ(515, checked);
  EXPECT_EQ(20, failed);
  EXPECT_EQ(40, early);
}

// Tokens, n-gram matches, lengths and brevity penalty are 1.5.1's in every case; where 2.x's score (aeval's
// default) differs, 1.5.1's is exactly the smoothing 2.x skips, applied to those same statistics, and what
// zero_without_match off gives.
TEST(Sacrebleu151, TheStatisticsAreOnePointFivesAndOnlyTheEarlyStopDiffers) {
  int checked = 0, early = 0;
  for (const auto& r : golden_records()) {
    if (!r.contains("sacrebleu")) continue;
    std::vector<std::string> hyps, refs;
    if (r["kind"] == "agg") {
      for (const auto& d : r["results"])
        if (!d["ref"].get<std::string>().empty()) hyps.push_back(d["pred"]), refs.push_back(d["ref"]);
    } else {
      hyps = {r["pred"]}, refs = {r["ref"]};
    }
    aeval::metrics::BleuOptions options;
    options.tokenize = r["tokenize"];
    const auto s = aeval::metrics::corpus_bleu(hyps, {refs}, options);
    const Json& e = r["sacrebleu"];
    const std::string id = r["id"];
    EXPECT_EQ(e["counts"].get<std::vector<double>>(), s.counts) << id;
    EXPECT_EQ(e["totals"].get<std::vector<double>>(), s.totals) << id;
    EXPECT_EQ(e["sys_len"].get<long>(), s.sys_len) << id;
    EXPECT_EQ(e["ref_len"].get<long>(), s.ref_len) << id;
    EXPECT_EQ(e["bp"].get<double>(), s.bp) << id;
    if (stops_early_in_2x(r)) {
      ++early;
      EXPECT_EQ(0.0, s.score) << id;
      EXPECT_EQ(e["score"].get<double>(), smoothed_without_matches(e)) << id;
      options.zero_without_match = false;
      EXPECT_EQ(e["score"].get<double>(), aeval::metrics::corpus_bleu(hyps, {refs}, options).score) << id;
    } else {
      EXPECT_EQ(e["score"].get<double>(), s.score) << id;
    }
    ++checked;
  }
  EXPECT_EQ(575, checked);
  EXPECT_EQ(54, early);
}

TEST(Sacrebleu151, TheAggregationGivesUeasDict) {
  const auto records = golden_records();
  ASSERT_GT(records.size(), 600u) << "tests/data/sacrebleu151/golden.jsonl is missing";
  const GoldenEntries entries(records);
  int checked = 0, errors = 0, early = 0;
  for (const auto& r : records) {
    if (r["kind"] != "agg") continue;
    const std::string id = r["id"];
    const Json got = entries.aggregate(r["entry"], r["results"]);
    ++checked;
    if (r["expected"].contains("error")) {  // bleu-jp: 1.5.1 has no tokenizer "jp", and _agg's KeyError is kept
      ++errors;
      EXPECT_EQ(r["expected"], got) << id;
      continue;
    }
    ASSERT_EQ(1u, got.size()) << id << ": " << got.dump();
    const double expected = r["expected"]["bleu"], value = got.at("bleu");
    early += stops_early_in_2x(r);
    EXPECT_EQ(expected, value) << id;
  }
  EXPECT_EQ(100, checked);
  EXPECT_EQ(20, errors);
  EXPECT_EQ(14, early);
}

}  // namespace
